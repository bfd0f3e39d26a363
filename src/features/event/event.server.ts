/** Event reads from D1 for the /event landing. */
import type { Db } from '../../lib/server/db.ts'
import type { EventsRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { EVENT_LIST_SIZE, type EventSummary } from './event.ts'

/** Active events running at `now`, ending soonest first (1 query, bounded). */
export async function currentEvents(db: Db, now: Date, limit = EVENT_LIST_SIZE): Promise<EventSummary[]> {
  const iso = now.toISOString()
  return db.all<
    Cols<'events', 'id' | 'kind' | 'title' | 'description' | 'starts_at' | 'ends_at'> & { restriction: EventsRow['adult_restriction'] }
  >(
    `SELECT id, kind, title, description, starts_at AS startsAt, ends_at AS endsAt, adult_restriction AS restriction
     FROM events WHERE is_active = 1 AND starts_at <= ? AND ends_at > ? ORDER BY ends_at, id LIMIT ?`,
    iso,
    iso,
    limit,
  )
}
