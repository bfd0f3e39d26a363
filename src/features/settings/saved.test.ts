import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { savedEpisodes } from './saved.ts'

const owned = (episodeId: number, series: string | null, episode: string | null) => ({ episodeId, series, episode, expiresAt: null })

describe('episodes saved for offline reading, as /setting lists them', () => {
  it('rentals first, the soonest to end first, then owned episodes by series and episode (numbers in order)', () => {
    const items = [
      owned(12, 'Zeta', 'Épisode 10'),
      owned(11, 'Zeta', 'Épisode 9'),
      { episodeId: 3, series: 'Alpha', episode: 'Épisode 3', expiresAt: '2026-12-02T10:00:00.000Z' },
      owned(7, 'Alpha', 'Épisode 1'),
      { episodeId: 4, series: 'Beta', episode: 'Épisode 1', expiresAt: '2026-11-30T10:00:00.000Z' },
    ]
    expect(savedEpisodes(items, 'fr-FR').map((e) => e.episodeId)).toEqual([4, 3, 7, 11, 12])
  })

  it('an entry saved before names were kept is listed without them; malformed entries are left out', () => {
    const items = [
      { episodeId: 5, expiresAt: null },
      { episodeId: 6, series: '  ', episode: 42, expiresAt: null },
      { episodeId: -1, expiresAt: null },
      { episodeId: 1.5, expiresAt: null },
      { episodeId: 8, expiresAt: 'not a date' },
      { episodeId: '9', expiresAt: null },
      null,
      'x',
    ]
    expect(savedEpisodes(items, 'fr-FR')).toEqual([
      { episodeId: 5, series: null, episode: null, expiresAt: null },
      { episodeId: 6, series: null, episode: null, expiresAt: null },
    ])
    expect(savedEpisodes({ items: [] }, 'fr-FR')).toEqual([])
    expect(savedEpisodes(undefined, 'ar')).toEqual([])
  })

  it('never throws on any answer, and keeps only well-formed entries', () => {
    fc.assert(
      fc.property(fc.anything(), (items) => {
        for (const e of savedEpisodes(items, 'ja-JP')) expect(Number.isSafeInteger(e.episodeId) && e.episodeId > 0).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
