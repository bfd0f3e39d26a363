/**
 * The consumer of the queue `READER_EVENTS` (wrangler.jsonc `queues`, functions/worker.ts `queue`): applies readers'
 * objects' events to the shared side, in the order each object made them. Views, likes, the ranking's reads and purchases go
 * to their series' tally (catalogue/tally.server.ts: one call per series for the whole batch; it counts each reader's
 * events once, by number, and adds its sums to D1 every TALLY_FLUSH_MS). The rest goes to D1, one batch per message: the
 * account's `events_applied` (migrations/0040_reader_event_order.sql) is the number of the last event applied, every
 * change is guarded by its event's number being past it and the batch moves it on, so a message delivered twice — or
 * forty times at once, or after a later message that carried the same events — changes nothing the second time. No
 * row is kept per event. Then the object is told (`Reader.applied`) and forgets those events; until it is told, its
 * alarm sends them again. A message whose tally or D1 batch fails is retried by the queue (30 s, 1, 2, 4, 8 min), then
 * goes to the dead-letter queue and the operator is alerted. */
import { env } from 'cloudflare:workers'
import type { Db, Statement } from '../../lib/server/db.ts'
import { retryLater } from '../../features/operator/alerts.server.ts'
import { ReaderEventsJob, type ReaderEvent } from '../../features/reader/events.ts'
import { tallyOf } from '../../features/catalogue/tally.server.ts'
import { isTallied, type TallyItem } from '../../features/catalogue/tally.ts'

/**
 * Handles one batch of the queue: the series' counts go to each series' tally (one call per series for the whole batch),
 * then each message's other changes to D1 (one batch per message); each message is acknowledged or retried on its own.
 * Answers the number of tallies called.
 */
export async function consumeReaderEvents(batch: MessageBatch<unknown>, db: Db, now = () => new Date()): Promise<number> {
  const jobs = batch.messages.flatMap((message) => {
    const job = ReaderEventsJob.safeParse(message.body)
    if (job.success) return [{ message, job: job.data }]
    // a message no version of this worker writes: retrying cannot help
    console.error(JSON.stringify({ event: 'reader.event.invalid', id: message.id }))
    message.ack()
    return []
  })
  const { untallied, calls } = await countInTallies(db, jobs)
  await Promise.all(
    jobs.map(async ({ message, job }) => {
      const { readerId, events } = job
      const last = Math.max(...events.map((e) => e.seq))
      try {
        if (untallied.has(message)) throw new Error('a series tally did not answer')
        const statements = eventStatements(job, last, now())
        if (statements.length) await db.batch(statements)
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
  return calls
}

type Job = { message: Message<unknown>; job: ReaderEventsJob }

/**
 * Hands each series' tally the batch's events about it (catalogue/tally.server.ts), each reader's in the order of their
 * numbers; answers the messages whose events a tally did not take (they are retried; what was counted counts once) and
 * the number of tallies called.
 */
async function countInTallies(db: Db, jobs: Job[]): Promise<{ untallied: Set<Message<unknown>>; calls: number }> {
  const seriesOf = await seriesOfOldViews(db, jobs)
  const bySeries = new Map<number, { items: TallyItem[]; messages: Set<Message<unknown>> }>()
  for (const { message, job } of jobs) {
    for (const { seq, event } of job.events) {
      if (!isTallied(event)) continue
      const seriesId = event.kind === 'view' ? (event.seriesId ?? seriesOf.get(event.episodeId)) : event.seriesId
      if (seriesId === undefined) continue // an episode deleted since: nothing to count it in
      const tally = bySeries.get(seriesId) ?? { items: [], messages: new Set() }
      tally.items.push({ readerId: job.readerId, seq, event })
      tally.messages.add(message)
      bySeries.set(seriesId, tally)
    }
  }
  const untallied = new Set<Message<unknown>>()
  await Promise.all(
    [...bySeries].map(async ([seriesId, { items, messages }]) => {
      items.sort((a, b) => a.readerId - b.readerId || a.seq - b.seq)
      try {
        await tallyOf(seriesId).count(seriesId, items)
      } catch (e) {
        console.error(JSON.stringify({ event: 'reader.event.untallied', seriesId, error: String(e) }))
        for (const m of messages) untallied.add(m)
      }
    }),
  )
  return { untallied, calls: bySeries.size }
}

/** The series of the episodes of views told before a view named its series (1 D1 read, only when there are some). */
async function seriesOfOldViews(db: Db, jobs: Job[]): Promise<Map<number, number>> {
  const episodes = jobs.flatMap(({ job }) =>
    job.events.flatMap(({ event }) => (event.kind === 'view' && event.seriesId === undefined ? [event.episodeId] : [])),
  )
  if (!episodes.length) return new Map()
  const rows = await db.all<{ id: number; seriesId: number }>(
    `SELECT id, series_id AS seriesId FROM episodes WHERE id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(episodes),
  )
  return new Map(rows.map((r) => [r.id, r.seriesId]))
}

/**
 * A message's D1 batch: the changes of its events that D1 keeps (the tallies count the rest), each guarded by its
 * number, then the account's count of events applied. Empty when none of its events changes D1.
 */
function eventStatements({ readerId, events }: ReaderEventsJob, last: number, now: Date): Statement[] {
  const changes = events.flatMap(({ seq, event }) =>
    // both numbers are integers (ReaderEventsJob)
    changesOf(event, readerId, `(SELECT events_applied FROM users WHERE id = ${readerId}) < ${seq}`, now),
  )
  return changes.length
    ? [...changes, { sql: `UPDATE users SET events_applied = ?1 WHERE id = ?2 AND events_applied < ?1`, params: [last, readerId] }]
    : []
}

/** What one event changes in D1, each statement only while `fresh` holds (the event is not applied yet). */
function changesOf(event: ReaderEvent, readerId: number, fresh: string, now: Date): Statement[] {
  switch (event.kind) {
    case 'read':
    case 'view':
    case 'purchase':
    case 'like':
      return [] // counted by the series' tally, which also keeps its recent readers
    case 'coupon':
      return [
        {
          sql: `UPDATE coupons SET received_count = received_count + ?1, redeemed_count = redeemed_count + ?2 WHERE id = ?3 AND ${fresh}`,
          params: [event.received, event.redeemed, event.couponId],
        },
        // who used it (migrations/0046_coupon_readers.sql): the first instant of each step as delivered here
        {
          sql: `INSERT INTO coupon_readers (coupon_id, user_id, received_at, redeemed_at)
                  SELECT ?1, ?2, CASE WHEN ?3 = 1 THEN ?5 END, CASE WHEN ?4 = 1 THEN ?5 END WHERE ${fresh}
                ON CONFLICT (coupon_id, user_id) DO UPDATE
                  SET received_at = COALESCE(received_at, excluded.received_at), redeemed_at = COALESCE(redeemed_at, excluded.redeemed_at)`,
          params: [event.couponId, readerId, event.received, event.redeemed, now.toISOString()],
        },
      ]
    case 'follow':
      return [
        event.following
          ? {
              sql: `INSERT INTO creator_followers (creator_id, user_id, followed_at)
                      SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?2 AND deleted_at IS NULL)
                        AND EXISTS (SELECT 1 FROM creators WHERE id = ?1) AND ${fresh}
                    ON CONFLICT (creator_id, user_id) DO NOTHING`,
              params: [event.creatorId, readerId, event.at],
            }
          : { sql: `DELETE FROM creator_followers WHERE creator_id = ? AND user_id = ? AND ${fresh}`, params: [event.creatorId, readerId] },
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
