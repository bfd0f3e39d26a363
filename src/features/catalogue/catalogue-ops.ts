/**
 * The operator's catalogue changes without I/O (docs/API.md "Operator API" `/api/ops/episodes`, `/api/ops/series`;
 * `npm run ops -- episode schedule|unpublish`, `series publish|unpublish|schedule`): the requests, where an episode
 * stands for readers, and the weekly schedule as an operator types it.
 */
import { z } from 'zod'
import { OpsListQuery, OpsReason, OpsStart } from '../../lib/ops.ts'
import { SCHEDULE_DAYS, WEEKDAYS, type ScheduleDay } from './catalogue.ts'

/**
 * The publication date of an unpublished episode. Every reader query shows only episodes published up to now, so an
 * episode dated at the end of time is shown nowhere (nor announced by the cron); readers who bought or rented it keep
 * their ownership and open it again once it is published again (`episode schedule` or `episode publish`).
 */
export const EPISODE_UNPUBLISHED_AT = '9999-12-31T00:00:00.000Z'

/** Where an episode stands for readers at `now`: shown, dated later (scheduled), or taken down. */
export function episodeState(publishedAt: string, now: Date): 'PUBLISHED' | 'SCHEDULED' | 'UNPUBLISHED' {
  if (publishedAt >= EPISODE_UNPUBLISHED_AT) return 'UNPUBLISHED'
  return Date.parse(publishedAt) <= now.getTime() ? 'PUBLISHED' : 'SCHEDULED'
}

/**
 * A publication time for an episode (docs/API.md `POST /api/ops/episodes/{id}/schedule`): a date (its start, UTC) or
 * an instant, before the unpublished date; in the future, checked against the clock by `scheduleEpisode`.
 */
export const EpisodeScheduleRequest = z.object({
  publishedAt: OpsStart.refine((iso) => iso >= '2000-01-01' && iso < EPISODE_UNPUBLISHED_AT, 'between 2000 and 9999'),
  reason: OpsReason,
})
export type EpisodeScheduleRequest = z.infer<typeof EpisodeScheduleRequest>

/**
 * `POST /api/ops/series/{id}/early` (`npm run ops -- early open`, issue 37 point 1): how many of the series' next
 * scheduled episodes should be open early (default: the edition's `earlyAccess.episodes`).
 */
export const EarlyOpenRequest = z.object({ episodes: z.number().int().min(1).max(20).optional(), reason: OpsReason })

/**
 * A series' weekly schedule (docs/API.md `POST /api/ops/series/{id}/schedule`): weekdays, or TEN alone, each once;
 * `[]` takes the series off the weekly lists.
 */
export const SeriesScheduleRequest = z.object({
  days: z
    .array(z.enum(SCHEDULE_DAYS))
    .max(SCHEDULE_DAYS.length)
    .refine((d) => new Set(d).size === d.length, 'each day once')
    .refine((d) => !d.includes('TEN') || d.length === 1, 'TEN alone'),
  reason: OpsReason,
})
export type SeriesScheduleRequest = z.infer<typeof SeriesScheduleRequest>

/**
 * `--days` as an operator types it: comma-separated weekdays by name or first three letters (MON,THU), `TEN`, or
 * `NONE` (no schedule), any case; null when a name is unknown. Duplicates and TEN mixed with weekdays pass through,
 * for `SeriesScheduleRequest` to refuse.
 */
export function parseScheduleDays(text: string): ScheduleDay[] | null {
  const names = text
    .split(',')
    .map((n) => n.trim().toUpperCase())
    .filter(Boolean)
  if (names.length === 1 && names[0] === 'NONE') return []
  if (names.length === 0) return null
  const days = names.map((n) => (n === 'TEN' ? 'TEN' : WEEKDAYS.find((d) => d === n || (n.length === 3 && d.startsWith(n)))))
  return days.every((d) => d !== undefined) ? days : null
}

/** The longest title search of `GET /api/ops/series?q=`. */
export const MAX_SERIES_SEARCH = 100

/** `GET /api/ops/series?q=&limit=&cursor=`: a page of series, newest first, whose title contains `q` (any case for A–Z). */
export const SeriesListQuery = OpsListQuery.extend({ q: z.string().trim().min(1).max(MAX_SERIES_SEARCH).optional() })
export type SeriesListQuery = z.infer<typeof SeriesListQuery>

/**
 * Where a series stands for readers: an import not finished (IMPORTING), withdrawn or never published (UNPUBLISHED),
 * on the lists but none of its episodes out yet while one is dated later (SCHEDULED), else PUBLISHED.
 */
export function seriesState(s: { isPublished: boolean; importing: boolean; published: number; nextEpisodeAt: string | null }) {
  if (s.importing) return 'IMPORTING'
  if (!s.isPublished) return 'UNPUBLISHED'
  return s.published === 0 && s.nextEpisodeAt !== null ? 'SCHEDULED' : 'PUBLISHED'
}
