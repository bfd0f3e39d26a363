/**
 * The discreet library (issue 12 point 5). A reader's hidden series live in their own object (marks.server.ts), which
 * leaves them out of the reader's own lists; `hiddenBy` is the one definition of "the reader has hidden this series" on
 * the shared side, read from D1's copy (`library_marks`, migration 0028) by what fans out over readers (the alarms).
 */
import type { Db } from '../../lib/server/db.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { withReader } from '../reader/stub.server.ts'

/**
 * SQL condition, true when the reader `user` has hidden the series `series` (columns or parameters, e.g.
 * `NOT ${hiddenBy('f.user_id', 'f.series_id')}` in a fan-out); it adds no parameter of its own.
 */
export const hiddenBy = (user: string, series: string) =>
  `EXISTS (SELECT 1 FROM library_marks h WHERE h.user_id = ${user} AND h.series_id = ${series} AND h.hidden = 1)`

/** The title of a series the reader has hidden, for the page's undo notice; null when it is not hidden by them. */
export async function hiddenTitle(db: Db, userId: number, seriesId: number): Promise<string | null> {
  const [{ hidden }, row] = await Promise.all([
    withReader(userId, (r) => r.inSeries(userId, seriesId)),
    db.first<Cols<'series', 'title'>>(`SELECT title FROM series WHERE id = ?`, seriesId),
  ])
  return hidden ? (row?.title ?? null) : null
}
