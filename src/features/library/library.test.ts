import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ownershipOf, ownershipsByEpisode } from './library.ts'
import { episodeAccess } from '../viewer/viewer.ts'

const now = new Date('2026-06-01T12:00:00.000Z')
const at = (h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe('ownershipOf', () => {
  it('shows nothing without a live holding', () => {
    expect(ownershipOf([], now)).toBeNull()
    expect(ownershipOf([{ kind: 'RENT', expiresAt: at(-1) }], now)).toBeNull()
    expect(ownershipOf([{ kind: 'RENT', expiresAt: null }], now)).toBeNull() // timed without an end: expired
  })

  it('prefers a holding kept for good over a rental, else the longest live rental', () => {
    expect(
      ownershipOf(
        [
          { kind: 'RENT', expiresAt: at(5) },
          { kind: 'POSSESSION', expiresAt: null },
        ],
        now,
      ),
    ).toEqual({ kind: 'POSSESSION', expiresAt: null })
    expect(
      ownershipOf(
        [
          { kind: 'RENT', expiresAt: at(5) },
          { kind: 'FREETIME', expiresAt: at(9) },
          { kind: 'ALL_RENT', expiresAt: at(-2) },
        ],
        now,
      ),
    ).toEqual({ kind: 'FREETIME', expiresAt: at(9) })
  })

  it('agrees with the viewer access rule on any holdings of a paid episode', () => {
    const kind = fc.constantFrom('POSSESSION', 'ALL_POSSESSION', 'PERMANENT', 'RENT', 'ALL_RENT', 'FREETIME')
    const holding = fc.record({ kind, expiresAt: fc.option(fc.integer({ min: -100, max: 100 }).map(at)) })
    fc.assert(
      fc.property(fc.array(holding, { maxLength: 6 }), (hs) => {
        const access = episodeAccess({ isFree: false, seriesIsAdult: false }, { adult: true }, hs, now)
        const shown = ownershipOf(hs, now)
        expect(shown !== null).toBe(access.open)
        if (shown && access.open) expect(shown).toEqual({ kind: access.via, expiresAt: access.expiresAt })
      }),
    )
  })

  it('groups rows by episode and drops episodes with nothing live', () => {
    const m = ownershipsByEpisode(
      [
        { episodeId: 1, kind: 'RENT', expiresAt: at(-1) },
        { episodeId: 1, kind: 'RENT', expiresAt: at(2) },
        { episodeId: 2, kind: 'RENT', expiresAt: at(-3) },
        { episodeId: 3, kind: 'PERMANENT', expiresAt: null },
      ],
      now,
    )
    expect([...m]).toEqual([
      [1, { kind: 'RENT', expiresAt: at(2) }],
      [3, { kind: 'PERMANENT', expiresAt: null }],
    ])
  })
})
