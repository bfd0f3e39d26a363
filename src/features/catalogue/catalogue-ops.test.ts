/** The operator's catalogue rules (catalogue-ops.ts): episode and series state, the requests and lists, `--days` as typed. */
import { describe, expect, it } from 'vitest'
import {
  EPISODE_UNPUBLISHED_AT,
  EpisodeScheduleRequest,
  SeriesListQuery,
  SeriesScheduleRequest,
  episodeState,
  parseScheduleDays,
  seriesState,
} from './catalogue-ops.ts'
import { opsPage } from '../../lib/ops.ts'

describe('catalogue operator rules', () => {
  it('episodeState: published up to now, scheduled later, unpublished at the end of time', () => {
    const now = new Date('2026-11-27T10:00:00.000Z')
    expect(episodeState('2026-11-27T10:00:00.000Z', now)).toBe('PUBLISHED')
    expect(episodeState('2026-11-27T10:00:00.001Z', now)).toBe('SCHEDULED')
    expect(episodeState(EPISODE_UNPUBLISHED_AT, now)).toBe('UNPUBLISHED')
  })

  it('EpisodeScheduleRequest: a date is its start (UTC), an instant is normalised; never the unpublished date', () => {
    expect(EpisodeScheduleRequest.parse({ publishedAt: '2099-01-02', reason: ' r ' })).toEqual({
      publishedAt: '2099-01-02T00:00:00.000Z',
      reason: 'r',
    })
    expect(EpisodeScheduleRequest.parse({ publishedAt: '2099-01-02T10:00:00+02:00', reason: 'r' }).publishedAt).toBe(
      '2099-01-02T08:00:00.000Z',
    )
    for (const publishedAt of [EPISODE_UNPUBLISHED_AT, '9999-12-31T23:00:00-05:00', '1999-12-31', '2099-13-01', 'tomorrow']) {
      expect(EpisodeScheduleRequest.safeParse({ publishedAt, reason: 'r' }).success, publishedAt).toBe(false)
    }
  })

  it('SeriesScheduleRequest: weekdays each once, or TEN alone, or none', () => {
    expect(SeriesScheduleRequest.safeParse({ days: ['MONDAY', 'THURSDAY'], reason: 'r' }).success).toBe(true)
    expect(SeriesScheduleRequest.safeParse({ days: ['TEN'], reason: 'r' }).success).toBe(true)
    expect(SeriesScheduleRequest.safeParse({ days: [], reason: 'r' }).success).toBe(true)
    for (const days of [['TEN', 'MONDAY'], ['MONDAY', 'MONDAY'], ['MON'], 'MONDAY']) {
      expect(SeriesScheduleRequest.safeParse({ days, reason: 'r' }).success, JSON.stringify(days)).toBe(false)
    }
  })

  it('parseScheduleDays: names or three letters, any case; TEN; NONE; null for an unknown name', () => {
    expect(parseScheduleDays('mon, Thu')).toEqual(['MONDAY', 'THURSDAY'])
    expect(parseScheduleDays('SATURDAY,sun')).toEqual(['SATURDAY', 'SUNDAY'])
    expect(parseScheduleDays('ten')).toEqual(['TEN'])
    expect(parseScheduleDays('none')).toEqual([])
    expect(parseScheduleDays('mon,mon')).toEqual(['MONDAY', 'MONDAY'])
    for (const text of ['', ',', 'MO', 'FUNDAY', 'mon,none', 'TUES']) expect(parseScheduleDays(text), text).toBeNull()
  })

  it('seriesState: an open import first, then withdrawn, then scheduled only while nothing is out and something is dated', () => {
    const s = { isPublished: true, importing: false, published: 0, nextEpisodeAt: null }
    const at = '2099-01-01T00:00:00.000Z'
    expect(seriesState({ ...s, importing: true, isPublished: false })).toBe('IMPORTING')
    expect(seriesState({ ...s, importing: true, nextEpisodeAt: at })).toBe('IMPORTING')
    expect(seriesState({ ...s, isPublished: false, published: 3 })).toBe('UNPUBLISHED')
    expect(seriesState({ ...s, isPublished: false, nextEpisodeAt: at })).toBe('UNPUBLISHED')
    expect(seriesState({ ...s, nextEpisodeAt: at })).toBe('SCHEDULED')
    expect(seriesState({ ...s, published: 1, nextEpisodeAt: at })).toBe('PUBLISHED')
    expect(seriesState(s)).toBe('PUBLISHED') // no episode at all: on the lists, nothing to wait for
  })

  it("SeriesListQuery and opsPage: limit 1-200 (default 50), a positive cursor, a trimmed search; next is the last row's key", () => {
    expect(SeriesListQuery.parse({})).toEqual({ limit: 50 })
    expect(SeriesListQuery.parse({ limit: '200', cursor: '7', q: ' café ' })).toEqual({ limit: 200, cursor: 7, q: 'café' })
    for (const bad of [
      { limit: '0' },
      { limit: '201' },
      { limit: '05' },
      { cursor: '0' },
      { cursor: 'x' },
      { q: '  ' },
      { q: 'x'.repeat(101) },
    ]) {
      expect(SeriesListQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
    const rows = [{ id: 9 }, { id: 7 }, { id: 4 }]
    expect(opsPage(rows, 2, (r) => r.id)).toEqual({ items: [{ id: 9 }, { id: 7 }], next: '7' })
    expect(opsPage(rows, 3, (r) => r.id)).toEqual({ items: rows, next: null })
    expect(opsPage([], 3, (r: { id: number }) => r.id)).toEqual({ items: [], next: null })
  })
})
