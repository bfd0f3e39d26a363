/**
 * Continuous reading on real workerd + D1 (spec §1 "continuous reading with automatic coin deduction"): the
 * next episode's prices come with the episode; the automatic-unlock opt-in per series with its coin cap; the
 * coins spent under it kept by the automatic purchases themselves (`auto`, Idempotency-Key from reader + episode),
 * so a replayed unlock moves nothing twice; another reader sees none of it; bad input never answers 5xx.
 */
import { describe, expect, it } from 'vitest'
import { app, buy, expectError, expectInvariant, get, give, newReader, newSeries, read, type Reader } from './purchase.helpers.ts'
import { expectHandled, request } from './app.ts'
import { autoUnlockKey } from '../../src/features/viewer/continuous.ts'
import { readerRows } from './reader-rows.ts'

const auto = (reader: Reader | null, seriesId: number | string, method: 'GET' | 'PUT' | 'DELETE', body?: unknown) =>
  request(app, `/api/v1/viewer/auto-unlock/${seriesId}`, {
    method,
    headers: { 'content-type': 'application/json', ...(reader?.headers ?? {}) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })

async function balance(reader: Reader): Promise<number> {
  return (await read(await get(reader, '/api/v1/coin'))).data.total
}

describe('GET /api/v1/viewer/{episodeId}: the next episode', () => {
  it('carries the prices of a locked next episode, so the viewer can offer or make its unlock', async () => {
    const s = await newSeries({ episodes: 3, free: 1, priceRent: 3, priceBuy: 7 })
    const { data } = await read(await get(null, `/api/v1/viewer/${s.episodeIds[0]}`))
    expect(data.next).toEqual({ id: s.episodeIds[1], no: 2, title: 'Épisode 2', isFree: false, priceRent: 3, priceBuy: 7 })
    expect(data.prev).toBeNull()
  })

  it('says whether the next episode opens for this reader (free or held), so a locked one is not fetched only to be refused', async () => {
    const s = await newSeries({ episodes: 3, free: 2, priceRent: 3, priceBuy: 7 })
    const reader = await newReader()
    const nextOpen = async (who: Reader | null, i: number) =>
      (await read(await get(who, `/api/v1/viewer/${s.episodeIds[i]}`))).data.nextOpen
    expect(await nextOpen(null, 0)).toBe(true) // episode 2 is free
    expect(await nextOpen(null, 1)).toBe(false) // episode 3 is paid: locked for a guest
    expect(await nextOpen(reader, 1)).toBe(false) // and for a reader who holds nothing
    await give(reader.id, 'COIN', 3)
    expect((await buy(reader, { episodeIds: [s.episodeIds[2]], kind: 'RENT' })).status).toBe(200)
    expect(await nextOpen(reader, 1)).toBe(true) // rented: it opens
    expect(await nextOpen(null, 1)).toBe(false) // still locked for others
    expect(await nextOpen(reader, 2)).toBe(false) // the last episode has no next one
  })
})

describe('/api/v1/viewer/auto-unlock/{seriesId}', () => {
  it('is off until the reader opts in; the opt-in keeps its cap and kind; opting out turns it off', async () => {
    const s = await newSeries({ episodes: 3, free: 1 })
    const reader = await newReader()
    expect((await read(await auto(reader, s.seriesId, 'GET'))).data).toEqual({
      seriesId: s.seriesId,
      enabled: false,
      budget: null,
      kind: 'RENT',
      spent: 0,
    })
    const on = await auto(reader, s.seriesId, 'PUT', { budget: 20, kind: 'POSSESSION' })
    expect(on.status).toBe(200)
    expect(on.headers.get('cache-control')).toBe('private, no-store')
    expect((await read(on)).data).toEqual({ seriesId: s.seriesId, enabled: true, budget: 20, kind: 'POSSESSION', spent: 0 })
    expect((await read(await auto(reader, s.seriesId, 'GET'))).data).toMatchObject({ enabled: true, budget: 20, kind: 'POSSESSION' })
    // another reader, another series: untouched
    expect((await read(await auto(await newReader(), s.seriesId, 'GET'))).data.enabled).toBe(false)
    expect((await read(await auto(reader, (await newSeries({ episodes: 1 })).seriesId, 'GET'))).data.enabled).toBe(false)
    expect((await read(await auto(reader, s.seriesId, 'DELETE'))).data.enabled).toBe(false)
    expect((await read(await auto(reader, s.seriesId, 'GET'))).data.enabled).toBe(false)
  })

  it('counts the coins of automatic unlocks only (`auto`, key from reader + episode), once each, since the opt-in', async () => {
    const s = await newSeries({ episodes: 4, free: 1, priceRent: 2, priceBuy: 4 })
    const reader = await newReader()
    await give(reader.id, 'COIN', 10)
    // a purchase made by hand before and after the opt-in does not count against the cap
    expect((await buy(reader, { episodeIds: [s.episodeIds[3]], kind: 'RENT' })).status).toBe(200)
    await auto(reader, s.seriesId, 'PUT', { budget: 5, kind: 'RENT' })
    const key = autoUnlockKey(reader.id, s.episodeIds[1]!)
    expect(key).toBe(`viewer-auto:${reader.id}:${s.episodeIds[1]}`)
    const first = await buy(reader, { episodeIds: [s.episodeIds[1]], kind: 'RENT', auto: true }, key)
    expect(first.status).toBe(200)
    // the same unlock sent again (another tab, a retry): the first answer, no coin moves
    const again = await buy(reader, { episodeIds: [s.episodeIds[1]], kind: 'RENT', auto: true }, key)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await balance(reader)).toBe(6)
    expect((await read(await auto(reader, s.seriesId, 'GET'))).data).toMatchObject({ enabled: true, budget: 5, spent: 2 })
    // raising the cap keeps what was spent
    expect((await read(await auto(reader, s.seriesId, 'PUT', { budget: 50, kind: 'RENT' }))).data).toMatchObject({ budget: 50, spent: 2 })
    // the viewer's GET of the unlocked episode now opens it
    expect((await read(await get(reader, `/api/v1/viewer/${s.episodeIds[1]}`))).data.access).toMatchObject({ open: true, via: 'RENT' })
    // opting out and in again starts a new count
    await auto(reader, s.seriesId, 'DELETE')
    expect((await read(await auto(reader, s.seriesId, 'PUT', { budget: 5 }))).data).toMatchObject({ kind: 'RENT', spent: 0 })
    await expectInvariant(reader.id)
  })

  it('needs a signed-in reader and a known series; refuses bad caps and kinds, never 5xx', async () => {
    const s = await newSeries({ episodes: 1 })
    const reader = await newReader()
    await expectError(await auto(null, s.seriesId, 'GET'), 401, 'NOT_LOGIN_USER')
    await expectError(await auto(null, s.seriesId, 'PUT', { budget: 10 }), 401, 'NOT_LOGIN_USER')
    // credentials sent but refused (a session ended elsewhere): the viewer is told to sign out, as on an episode
    // (spec §8 NOT_FOUND_ACCESS_TOKEN → logout); this read is the request made at a locked episode, not fetched
    const refused: Reader = { id: reader.id, headers: { authorization: 'Bearer not.a.token' } }
    for (const method of ['GET', 'PUT', 'DELETE'] as const)
      await expectError(
        await auto(refused, s.seriesId, method, method === 'PUT' ? { budget: 10 } : undefined),
        401,
        'NOT_FOUND_ACCESS_TOKEN',
      )
    await expectError(await auto(reader, 99999999, 'GET'), 404, 'NOT_EXIST')
    await expectError(await auto(reader, 99999999, 'PUT', { budget: 10 }), 404, 'NOT_EXIST')
    await expectError(await auto(reader, 'abc', 'DELETE'), 404, 'NOT_EXIST')
    for (const body of [
      {},
      { budget: 0 },
      { budget: -5 },
      { budget: 10_001 },
      { budget: 1.5 },
      { budget: '10' },
      { budget: 10, kind: 'GIFT' },
      'nope',
    ]) {
      await expectError(await auto(reader, s.seriesId, 'PUT', body), 400, 'INVALID_PARAMETER')
    }
    expect(await readerRows.first(reader.id, `SELECT 1 FROM auto_unlock WHERE user_id = ?`, reader.id)).toBeNull()
    for (const id of ['0', '-1', '1e3', '%00', "1' OR 1=1", '9'.repeat(30)]) {
      await expectHandled(await auto(reader, encodeURIComponent(id), 'PUT', { budget: 10 }))
    }
  })
})

describe('generated bad input on the viewer and library routes (docs/QUALITY.md: ≥ 1,000 each)', () => {
  it('never answers 5xx and changes nothing', async () => {
    const fc = (await import('fast-check')).default
    const s = await newSeries({ episodes: 1 })
    const reader = await newReader()
    const body = fc.oneof(
      fc.json(),
      fc.string(),
      fc.record(
        {
          budget: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
          kind: fc.oneof(fc.string(), fc.constantFrom('RENT', 'POSSESSION', 'rent', '')),
        },
        { requiredKeys: [] },
      ),
    )
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.oneof(fc.constant(String(s.seriesId)), fc.string({ maxLength: 12 })),
        fc.string({ maxLength: 60 }),
        async (b, id, cursor) => {
          const put = await auto(reader, encodeURIComponent(id), 'PUT', b)
          await expectHandled(put)
          await expectHandled(await get(reader, `/api/v1/library/recent?cursor=${encodeURIComponent(cursor)}`))
        },
      ),
      { numRuns: 1000 },
    )
    // nothing a bad body sent was stored (a valid opt-in may have been generated: it must be sane)
    const rows = await readerRows.all<{ budget: number; kind: string }>(
      reader.id,
      `SELECT budget, kind FROM auto_unlock WHERE user_id = ?`,
      reader.id,
    )
    for (const r of rows) {
      expect(r.budget).toBeGreaterThanOrEqual(1)
      expect(r.budget).toBeLessThanOrEqual(10_000)
      expect(['RENT', 'POSSESSION']).toContain(r.kind)
    }
  }, 120_000)
})
