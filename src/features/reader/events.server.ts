/**
 * The consumer of the queue `READER_EVENTS` (wrangler.jsonc `queues`, functions/worker.ts `queue`): applies a reader's
 * object's events to the shared side (D1), one D1 batch per message, in the order the object made them. The account's
 * `events_applied` (migrations/0040_reader_event_order.sql) is the number of the last event applied: every change is
 * guarded by its event's number being past it and the batch moves it on, so a message delivered twice — or forty times
 * at once, or after a later message that carried the same events — changes nothing the second time. No row is kept per
 * event. Then the object is told (`Reader.applied`) and forgets those events; until it is told, its alarm sends them
 * again. A batch that throws is retried by the queue (30 s, 1, 2, 4, 8 min), then goes to the dead-letter queue and the
 * operator is alerted.
 */
import { env } from 'cloudflare:workers'
import type { Db, Statement } from '../../lib/server/db.ts'
import { retryLater } from '../operator/alerts.server.ts'
import { ReaderEventsJob, dayOf, type ReaderEvent } from './events.ts'

/** Handles one batch of the queue; each message is acknowledged or retried on its own. */
export async function consumeReaderEvents(batch: MessageBatch<unknown>, db: Db, now = () => new Date()): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const job = ReaderEventsJob.safeParse(message.body)
      if (!job.success) {
        // a message no version of this worker writes: retrying cannot help
        console.error(JSON.stringify({ event: 'reader.event.invalid', id: message.id }))
        return message.ack()
      }
      const { readerId, events } = job.data
      const last = Math.max(...events.map((e) => e.seq))
      try {
        await db.batch(eventStatements(job.data, last, now()))
      } catch (e) {
        console.error(JSON.stringify({ event: 'reader.event.failed', readerId, last, attempts: message.attempts, error: String(e) }))
        return retryLater(db, message, `reader events up to ${last} of reader ${readerId}: ${String(e)}`)
      }
      message.ack()
      try {
        await env.READER.getByName(String(readerId)).applied(readerId, last)
      } catch (e) {
        // the object sends them again; their numbers are past, so they change nothing
        console.error(JSON.stringify({ event: 'reader.event.unacknowledged', readerId, last, error: String(e) }))
      }
    }),
  )
}

/** A message's batch: each event's changes, guarded by its number, then the account's count of events applied. */
function eventStatements({ readerId, events }: ReaderEventsJob, last: number, now: Date): Statement[] {
  return [
    // both numbers are integers (ReaderEventsJob)
    ...events.flatMap(({ seq, event }) =>
      changesOf(event, readerId, `(SELECT events_applied FROM users WHERE id = ${readerId}) < ${seq}`, now),
    ),
    { sql: `UPDATE users SET events_applied = ?1 WHERE id = ?2 AND events_applied < ?1`, params: [last, readerId] },
  ]
}

/** What one event changes in D1, each statement only while `fresh` holds (the event is not applied yet). */
function changesOf(event: ReaderEvent, readerId: number, fresh: string, now: Date): Statement[] {
  switch (event.kind) {
    case 'read':
      return [
        {
          sql: `UPDATE series_daily SET readers = readers - 1 WHERE day = ?1 AND series_id = ?2 AND readers > 0 AND ${fresh}`,
          params: [event.from, event.seriesId],
        },
        {
          sql: `INSERT INTO series_daily (day, series_id, readers) SELECT ?1, ?2, 1 WHERE ${fresh}
                  AND EXISTS (SELECT 1 FROM series WHERE id = ?2)
                ON CONFLICT (day, series_id) DO UPDATE SET readers = readers + 1`,
          params: [event.to, event.seriesId],
        },
        {
          sql: `INSERT INTO series_readers (series_id, user_id, read_on) SELECT ?1, ?2, ?3 WHERE ${fresh}
                  AND EXISTS (SELECT 1 FROM series WHERE id = ?1) AND EXISTS (SELECT 1 FROM users WHERE id = ?2 AND deleted_at IS NULL)
                ON CONFLICT DO UPDATE SET read_on = excluded.read_on WHERE excluded.read_on > coalesce(series_readers.read_on, '')`,
          params: [event.seriesId, readerId, event.to],
        },
      ]
    case 'view':
      // the view's row (one per day, episode and reader; the trigger of migrations/0020_episode_views.sql counts it when
      // new). An event applied after its UTC day has ended counts nothing: the day's rows may be gone (retention).
      return [
        {
          sql: `INSERT INTO episode_views (day, episode_id, user_id)
                  SELECT ?1, e.id, u.id FROM users u JOIN episodes e ON e.id = ?2
                   WHERE u.id = ?3 AND u.deleted_at IS NULL AND ?1 = ?4 AND ${fresh}
                ON CONFLICT DO NOTHING`,
          params: [event.day, event.episodeId, readerId, dayOf(now.toISOString())],
        },
      ]
    case 'purchase':
      return [
        {
          sql: `INSERT INTO series_daily (day, series_id, purchases) SELECT ?1, ?2, 1 WHERE ${fresh}
                  AND EXISTS (SELECT 1 FROM series WHERE id = ?2)
                ON CONFLICT (day, series_id) DO UPDATE SET purchases = purchases + 1`,
          params: [event.day, event.seriesId],
        },
      ]
    case 'coupon':
      return [
        {
          sql: `UPDATE coupons SET received_count = received_count + ?1, redeemed_count = redeemed_count + ?2 WHERE id = ?3 AND ${fresh}`,
          params: [event.received, event.redeemed, event.couponId],
        },
      ]
    case 'marks':
      return [
        {
          sql: `INSERT INTO library_marks (user_id, series_id, favorite, hidden, version, cleared_at)
                  SELECT ?1, ?2, ?3, ?4, ?5, CASE WHEN ?3 = 0 AND ?4 = 0 THEN ?6 END
                   WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1 AND deleted_at IS NULL) AND EXISTS (SELECT 1 FROM series WHERE id = ?2)
                     AND ${fresh}
                ON CONFLICT (user_id, series_id) DO UPDATE
                  SET favorite = excluded.favorite, hidden = excluded.hidden, version = excluded.version, cleared_at = excluded.cleared_at
                  WHERE excluded.version > library_marks.version`,
          params: [readerId, event.seriesId, Number(event.favorite), Number(event.hidden), event.version, now.toISOString()],
        },
      ]
  }
}
