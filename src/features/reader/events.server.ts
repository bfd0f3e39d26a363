/**
 * The consumer of the queue `READER_EVENTS` (wrangler.jsonc `queues`, functions/worker.ts `queue`): applies readers'
 * objects' events to the shared side (D1). Each event is one D1 batch: every change is guarded by the event not being
 * recorded yet, and the event is recorded in the same batch, so a second delivery — or forty at once — changes
 * nothing. A batch that throws is retried by the queue (30 s, 1, 2, 4, 8 min), then goes to the dead-letter queue and
 * the operator is alerted.
 */
import type { Db } from '../../lib/server/db.ts'
import { retryLater } from '../operator/alerts.server.ts'
import { ReaderEventJob, dayOf } from './events.ts'

/** Handles one batch of the queue; each message is acknowledged or retried on its own. */
export async function consumeReaderEvents(batch: MessageBatch<unknown>, db: Db, now = () => new Date()): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      const job = ReaderEventJob.safeParse(message.body)
      if (!job.success) {
        // a message no version of this worker writes: retrying cannot help
        console.error(JSON.stringify({ event: 'reader.event.invalid', id: message.id }))
        return message.ack()
      }
      try {
        await applyReaderEvent(db, job.data, now())
        message.ack()
      } catch (e) {
        console.error(JSON.stringify({ event: 'reader.event.failed', id: job.data.id, attempts: message.attempts, error: String(e) }))
        await retryLater(db, message, `reader event ${job.data.event.kind} of reader ${job.data.readerId}: ${String(e)}`)
      }
    }),
  )
}

const NOT_SEEN = `NOT EXISTS (SELECT 1 FROM reader_events WHERE id = ?1)`

async function applyReaderEvent(db: Db, job: ReaderEventJob, now = new Date()): Promise<void> {
  const { event } = job
  switch (event.kind) {
    case 'read':
      await db.batch([
        {
          sql: `UPDATE series_daily SET readers = readers - 1 WHERE day = ?2 AND series_id = ?3 AND readers > 0 AND ${NOT_SEEN}`,
          params: [job.id, event.from, event.seriesId],
        },
        {
          sql: `INSERT INTO series_daily (day, series_id, readers) SELECT ?2, ?3, 1 WHERE ${NOT_SEEN}
                  AND EXISTS (SELECT 1 FROM series WHERE id = ?3)
                ON CONFLICT (day, series_id) DO UPDATE SET readers = readers + 1`,
          params: [job.id, event.to, event.seriesId],
        },
        {
          sql: `INSERT INTO series_readers (series_id, user_id) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM series WHERE id = ?1)
                  AND EXISTS (SELECT 1 FROM users WHERE id = ?2 AND deleted_at IS NULL)
                ON CONFLICT DO NOTHING`,
          params: [event.seriesId, job.readerId],
        },
        { sql: `INSERT INTO reader_events (id, at) VALUES (?, ?) ON CONFLICT DO NOTHING`, params: [job.id, now.toISOString()] },
      ])
      return
    case 'view':
      // no reader_events row: the view's row is its own record (one per day, episode and reader, inserted once; the
      // trigger of migrations/0020_episode_views.sql counts it when new). A delivery after its UTC day has ended counts
      // nothing: the day's rows may be gone (retention), and a second delivery would count again.
      await db.run(
        `INSERT INTO episode_views (day, episode_id, user_id)
           SELECT ?1, e.id, u.id FROM users u JOIN episodes e ON e.id = ?2 WHERE u.id = ?3 AND u.deleted_at IS NULL AND ?1 = ?4
         ON CONFLICT DO NOTHING`,
        event.day,
        event.episodeId,
        job.readerId,
        dayOf(now.toISOString()),
      )
      return
    case 'purchase':
      await db.batch([
        {
          sql: `INSERT INTO series_daily (day, series_id, purchases) SELECT ?2, ?3, 1 WHERE ${NOT_SEEN}
                  AND EXISTS (SELECT 1 FROM series WHERE id = ?3)
                ON CONFLICT (day, series_id) DO UPDATE SET purchases = purchases + 1`,
          params: [job.id, event.day, event.seriesId],
        },
        { sql: `INSERT INTO reader_events (id, at) VALUES (?, ?) ON CONFLICT DO NOTHING`, params: [job.id, now.toISOString()] },
      ])
      return
    case 'coupon':
      await db.batch([
        {
          sql: `UPDATE coupons SET received_count = received_count + ?2, redeemed_count = redeemed_count + ?3 WHERE id = ?4 AND ${NOT_SEEN}`,
          params: [job.id, event.received, event.redeemed, event.couponId],
        },
        { sql: `INSERT INTO reader_events (id, at) VALUES (?, ?) ON CONFLICT DO NOTHING`, params: [job.id, now.toISOString()] },
      ])
      return
    case 'marks':
      // the version decides, not the event's id: an older state arriving late changes nothing
      await db.run(
        `INSERT INTO library_marks (user_id, series_id, favorite, hidden, version, cleared_at)
           SELECT ?1, ?2, ?3, ?4, ?5, CASE WHEN ?3 = 0 AND ?4 = 0 THEN ?6 END
            WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1 AND deleted_at IS NULL) AND EXISTS (SELECT 1 FROM series WHERE id = ?2)
         ON CONFLICT (user_id, series_id) DO UPDATE
           SET favorite = excluded.favorite, hidden = excluded.hidden, version = excluded.version, cleared_at = excluded.cleared_at
           WHERE excluded.version > library_marks.version`,
        job.readerId,
        event.seriesId,
        Number(event.favorite),
        Number(event.hidden),
        event.version,
        now.toISOString(),
      )
  }
}
