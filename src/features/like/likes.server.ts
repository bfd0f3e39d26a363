/**
 * Episode likes inside the reader's own object (issue 37 point 3; docs/ARCHITECTURE.md "Reader objects"): one row per
 * episode the reader likes. Synchronous SQL on the object's SQLite; the object (src/objects/reader/reader.server.ts) runs
 * each change in one transaction with the outbox row of its `like` event, which the series' tally adds to the episode's
 * count (src/features/catalogue/tally.server.ts).
 */
import type { ReaderEvent } from '../reader/events.ts'

/** Whether the reader likes episode `episodeId`. */
export const likes = (sql: SqlStorage, episodeId: number): boolean =>
  sql.exec(`SELECT 1 FROM likes WHERE episode_id = ?`, episodeId).toArray().length > 0

/**
 * Likes (`on`) or stops liking episode `episodeId` of series `seriesId` at `at`. Repeatable: the same state again changes
 * nothing and tells nothing, so forty likes at once count once. Answers the event of a change.
 */
export function setLike(sql: SqlStorage, seriesId: number, episodeId: number, on: boolean, at: string): ReaderEvent | null {
  const changed = on
    ? sql.exec(
        `INSERT INTO likes (episode_id, series_id, liked_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1`,
        episodeId,
        seriesId,
        at,
      )
    : sql.exec(`DELETE FROM likes WHERE episode_id = ? RETURNING 1`, episodeId)
  return changed.toArray().length > 0 ? { kind: 'like', seriesId, episodeId, delta: on ? 1 : -1 } : null
}
