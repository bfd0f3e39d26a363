/**
 * The creators a reader follows (issue 37 point 2), inside the reader's own object (docs/ARCHITECTURE.md "Reader
 * objects"): one row per creator. The object (src/objects/reader/reader.server.ts) runs each change in one transaction
 * with the outbox row of its `follow` event, which D1's `creator_followers` applies for the new-episode fan-out.
 */
import type { ReaderEvent } from '../reader/events.ts'

/** Whether the reader follows creator `creatorId`. */
export const follows = (sql: SqlStorage, creatorId: number): boolean =>
  sql.exec(`SELECT 1 FROM follows WHERE creator_id = ?`, creatorId).toArray().length > 0

/** Follows (`on`) creator `creatorId` or stops; the same state again changes nothing and tells nothing. Answers the event of a change. */
export function setFollow(sql: SqlStorage, creatorId: number, on: boolean, at: string): ReaderEvent | null {
  const changed = on
    ? sql.exec(`INSERT INTO follows (creator_id, followed_at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING 1`, creatorId, at)
    : sql.exec(`DELETE FROM follows WHERE creator_id = ? RETURNING 1`, creatorId)
  return changed.toArray().length > 0 ? { kind: 'follow', creatorId, following: on, at } : null
}
