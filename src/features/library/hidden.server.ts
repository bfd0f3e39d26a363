/**
 * The discreet library on D1 (issue 12 point 5; table `hidden_series`, migration 0019). `hiddenBy` is the one
 * definition of "the reader has hidden this series": every personal list (the three shelves, recent reads, later
 * the notifications) filters with `NOT ${hiddenBy(…)}`, and `isHidden` asks it for one series.
 */
import type { Db } from '../../lib/server/db.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'

/**
 * SQL condition, true when the reader `user` has hidden the series `series` (columns or parameters, e.g.
 * `NOT ${hiddenBy('f.user_id', 'f.series_id')}` in a list); it adds no parameter of its own.
 */
export const hiddenBy = (user: string, series: string) =>
  `EXISTS (SELECT 1 FROM hidden_series h WHERE h.user_id = ${user} AND h.series_id = ${series})`

/** Whether the reader keeps this series out of their lists (for notifications and other features to skip it). */
export async function isHidden(db: Db, userId: number, seriesId: number): Promise<boolean> {
  return flag((await db.first<{ hidden: Flag }>(`SELECT ${hiddenBy('?1', '?2')} AS hidden`, userId, seriesId))?.hidden)
}

/**
 * Hides a published series from the reader's lists, or brings it back (both repeatable, one statement each);
 * false when the series is unknown or unpublished. Holdings, progress and favourites are not touched.
 */
export async function setHidden(db: Db, userId: number, seriesId: number, hidden: boolean): Promise<boolean> {
  const [, exists] = await db.batch([
    hidden
      ? {
          sql: `INSERT INTO hidden_series (user_id, series_id) SELECT ?, id FROM series WHERE id = ? AND is_published = 1
                ON CONFLICT (user_id, series_id) DO NOTHING`,
          params: [userId, seriesId],
        }
      : { sql: `DELETE FROM hidden_series WHERE user_id = ? AND series_id = ?`, params: [userId, seriesId] },
    { sql: `SELECT 1 AS x FROM series WHERE id = ? AND is_published = 1`, params: [seriesId] },
  ])
  return (exists?.results.length ?? 0) > 0
}

/** The title of a series the reader has hidden, for the page's undo notice; null when it is not hidden by them. */
export async function hiddenTitle(db: Db, userId: number, seriesId: number): Promise<string | null> {
  const row = await db.first<Cols<'series', 'title'>>(
    `SELECT s.title FROM series s WHERE s.id = ?2 AND ${hiddenBy('?1', 's.id')}`,
    userId,
    seriesId,
  )
  return row?.title ?? null
}
