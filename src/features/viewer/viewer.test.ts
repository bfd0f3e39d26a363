import { describe, expect, it } from 'vitest'
import {
  episodeAccess,
  paragraphs,
  signPublicSlice,
  signSlice,
  sliceExpiry,
  sliceKey,
  sliceWidth,
  verifyPublicSlice,
  verifySlice,
  SLICE_URL_MAX_S,
} from './viewer.ts'
import type { Holding } from '../ownership/holding.ts'

import { scrollOffset, scrollPosition } from './reading.ts'

/** A signed slice URL is valid at least 10 minutes. */
const SLICE_URL_TTL_S = 10 * 60

const now = new Date('2026-11-22T12:00:00.000Z')
const later = '2026-11-23T12:00:00.000Z'
const earlier = '2026-11-22T11:59:59.000Z'
const paid = { isFree: false, seriesIsAdult: false }
const adultSeries = { isFree: false, seriesIsAdult: true }
const reader = { adult: false }

describe('episodeAccess (spec §2 viewer, §3 ownership kinds, §8 Viewer)', () => {
  it('opens a free episode for anyone, a guest included', () => {
    expect(episodeAccess({ isFree: true, seriesIsAdult: false }, reader, [], now)).toEqual({ open: true, via: 'FREE', expiresAt: null })
  })

  it('keeps a paid episode locked without a holding', () => {
    expect(episodeAccess(paid, reader, [], now)).toEqual({ open: false, code: 'UNAUTHORIZED_CONTENTS' })
  })

  it.each(['POSSESSION', 'ALL_POSSESSION', 'PERMANENT'])('opens an episode kept for good (%s)', (kind) => {
    expect(episodeAccess(paid, reader, [{ kind, expiresAt: null }], now)).toMatchObject({ open: true, via: kind, expiresAt: null })
  })

  it.each(['RENT', 'ALL_RENT', 'FREETIME'])('opens a %s holding until it ends, and not a second later', (kind) => {
    expect(episodeAccess(paid, reader, [{ kind, expiresAt: later }], now)).toEqual({ open: true, via: kind, expiresAt: later })
    expect(episodeAccess(paid, reader, [{ kind, expiresAt: earlier }], now)).toEqual({ open: false, code: 'UNAUTHORIZED_CONTENTS' })
    expect(episodeAccess(paid, reader, [{ kind, expiresAt: now.toISOString() }], now).open).toBe(false)
  })

  it('refuses a timed holding without an end, and unknown kinds', () => {
    expect(
      episodeAccess(
        paid,
        reader,
        [
          { kind: 'RENT', expiresAt: null },
          { kind: 'GIFT', expiresAt: null },
        ],
        now,
      ).open,
    ).toBe(false)
  })

  it('prefers the holding kept for good, then the rental that ends last', () => {
    const h: Holding[] = [
      { kind: 'RENT', expiresAt: later },
      { kind: 'FREETIME', expiresAt: '2026-11-24T00:00:00.000Z' },
    ]
    expect(episodeAccess(paid, reader, h, now)).toMatchObject({ via: 'FREETIME' })
    expect(episodeAccess(paid, reader, [...h, { kind: 'POSSESSION', expiresAt: null }], now)).toMatchObject({ via: 'POSSESSION' })
  })

  it('asks for the age check on an adult series before anything else, even free or owned', () => {
    expect(episodeAccess({ isFree: true, seriesIsAdult: true }, reader, [], now)).toEqual({ open: false, code: 'ADULT_ONLY_CONTENTS' })
    expect(episodeAccess(adultSeries, reader, [{ kind: 'POSSESSION', expiresAt: null }], now)).toEqual({
      open: false,
      code: 'ADULT_ONLY_CONTENTS',
    })
    expect(episodeAccess(adultSeries, { adult: true }, [{ kind: 'POSSESSION', expiresAt: null }], now).open).toBe(true)
    expect(episodeAccess(adultSeries, { adult: true }, [], now)).toEqual({ open: false, code: 'UNAUTHORIZED_CONTENTS' })
  })
})

describe('slice URLs', () => {
  it('sign over episode, slice, R2 key, width, reader and expiry; any change or the end of validity refuses', async () => {
    const key = await sliceKey('test-session-secret-0123456789abcdef')
    const claim = { episodeId: 7, n: 2, key: 'series/1/ep/7/2', w: 828, userId: 42, exp: sliceExpiry(now) }
    const sig = await signSlice(key, claim)
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await verifySlice(key, claim, sig, now)).toBe(true)
    for (const change of [
      { episodeId: 8 },
      { n: 3 },
      { key: 'series/1/ep/8/2' },
      { w: 640 },
      { userId: 43 },
      { userId: 0 },
      { exp: claim.exp + 1 },
    ]) {
      expect(await verifySlice(key, { ...claim, ...change }, sig, now)).toBe(false)
    }
    expect(await verifySlice(key, claim, sig, new Date(claim.exp * 1000))).toBe(false)
    expect(await verifySlice(await sliceKey('another-secret-0123456789abcdef'), claim, sig, now)).toBe(false)
    expect(await verifySlice(key, claim, 'not a signature', now)).toBe(false)
    // the same 32 bytes spelled otherwise: the last character's two unused bits set. One signature, one URL.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    for (const bits of [1, 2, 3]) {
      const respelled = sig.slice(0, -1) + alphabet[alphabet.indexOf(sig.at(-1)!) | bits]
      expect(await verifySlice(key, claim, respelled, now)).toBe(false)
    }
  })

  it("a public signature names the slice's R2 key only, and never passes for a reader's URL or another key", async () => {
    const key = await sliceKey('test-session-secret-0123456789abcdef')
    const sig = await signPublicSlice(key, 'series/1/ep/1/2')
    expect(await verifyPublicSlice(key, 'series/1/ep/1/2', sig)).toBe(true)
    expect(await verifyPublicSlice(key, 'series/1/ep/6/2', sig)).toBe(false)
    expect(await verifyPublicSlice(key, 'series/1/ep/1/2', 'x'.repeat(43))).toBe(false)
    const claim = { episodeId: 1, n: 2, key: 'series/1/ep/1/2', w: 640, userId: 0, exp: sliceExpiry(now) }
    expect(await verifySlice(key, claim, sig, now)).toBe(false)
  })

  it('expire minutes ahead (at least TTL, at most TTL + a step), on a step boundary, never past a rental end', () => {
    const exp = sliceExpiry(now)
    expect(exp * 1000 - now.getTime()).toBeGreaterThanOrEqual(SLICE_URL_TTL_S * 1000)
    expect(exp * 1000 - now.getTime()).toBeLessThanOrEqual(SLICE_URL_MAX_S * 1000)
    expect(SLICE_URL_MAX_S).toBeLessThanOrEqual(15 * 60)
    expect(sliceExpiry(new Date(now.getTime() + 60_000))).toBe(sliceExpiry(new Date(now.getTime() + 120_000)))
    const rentalEnd = new Date(now.getTime() + 3 * 60_000).toISOString()
    expect(sliceExpiry(now, rentalEnd)).toBe(Date.parse(rentalEnd) / 1000)
    expect(sliceExpiry(now, later)).toBe(exp)
  })

  it('map a requested width to a stored one (§9), refusing nonsense', () => {
    expect([sliceWidth(1), sliceWidth(640), sliceWidth(700), sliceWidth(1080), sliceWidth(3840)]).toEqual([640, 640, 828, 1080, 1080])
    expect([sliceWidth(0), sliceWidth(-5), sliceWidth(1.5), sliceWidth(99999)]).toEqual([null, null, null, null])
  })
})

describe('progress and text', () => {
  it('position 0 at the top of the content, 1 when its end is on screen, and back again', () => {
    expect(scrollPosition(100, 100, 5000, 1000)).toBe(0)
    expect(scrollPosition(4100, 100, 5000, 1000)).toBe(1)
    expect(scrollPosition(2100, 100, 5000, 1000)).toBe(0.5)
    expect(scrollPosition(0, 0, 500, 1000)).toBe(1)
    expect(scrollOffset(0.5, 100, 5000, 1000)).toBe(2100)
  })
  it('splits a TEXT episode into paragraphs', () => {
    expect(paragraphs('Un.\n\nDeux\nsuite.\n\n\n  Trois. ')).toEqual(['Un.', 'Deux\nsuite.', 'Trois.'])
    expect(paragraphs(null)).toEqual([])
  })
})
