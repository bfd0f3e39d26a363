import { describe, expect, it } from 'vitest'
import { ShelfQuery, shelfEpisodes, type OwnershipRow } from './shelves.ts'

const NOW = new Date('2026-11-22T12:00:00.000Z')
const row = (seriesId: number, episodeId: number, no: number, kind: string, expiresAt: string | null): OwnershipRow => ({
  seriesId,
  episodeId,
  no,
  title: `É${no}`,
  kind,
  expiresAt,
})

describe('shelfEpisodes', () => {
  it('one line per episode with the holding that opens it, in episode order, with the soonest rental end', () => {
    const shelves = shelfEpisodes(
      [
        row(1, 12, 2, 'RENT', '2026-11-23T00:00:00.000Z'),
        row(1, 12, 2, 'POSSESSION', null),
        row(1, 11, 1, 'RENT', '2026-11-24T00:00:00.000Z'),
        row(1, 13, 3, 'FREETIME', '2026-11-22T18:00:00.000Z'),
        row(2, 21, 1, 'RENT', '2026-11-21T00:00:00.000Z'), // expired
      ],
      NOW,
    )
    expect(shelves.get(1)).toEqual({
      episodes: [
        { episodeId: 11, no: 1, title: 'É1', kind: 'RENT', expiresAt: '2026-11-24T00:00:00.000Z' },
        { episodeId: 12, no: 2, title: 'É2', kind: 'POSSESSION', expiresAt: null },
        { episodeId: 13, no: 3, title: 'É3', kind: 'FREETIME', expiresAt: '2026-11-22T18:00:00.000Z' },
      ],
      nextExpiry: '2026-11-22T18:00:00.000Z',
    })
    expect(shelves.has(2)).toBe(false)
  })

  it('accepts only an optional cursor', () => {
    expect(ShelfQuery.safeParse({}).success).toBe(true)
    expect(ShelfQuery.safeParse({ cursor: 'abc' }).success).toBe(true)
    expect(ShelfQuery.safeParse({ cursor: '' }).success).toBe(false)
    expect(ShelfQuery.safeParse({ page: '1' }).success).toBe(false)
  })
})
