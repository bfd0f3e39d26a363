/**
 * The alarm centre (issue 13 point 1; issue 38: each reader's alarms live in their object, alarm-store.server.ts).
 * Every alarm is found on the shared side by `alarmSelect` — a fan-out's next readers, a sweep's events, one support
 * answer or comment reply — and handed to its readers' objects (`deliver`), which keep one per event through its
 * dedup key. The list and the marks are one call to the signed-in reader's object.
 */
import type { Db } from '../../lib/server/db.ts'
import type { AlarmBroadcastsRow, AlarmsRow } from '../../lib/server/db-types.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { cronBudget, sweep, type SweepBudget, type SweepResult } from '../../lib/server/sweep.ts'
import { hiddenBy } from '../library/hidden.server.ts'
import { withReader } from '../reader/stub.server.ts'
import {
  ALARM_BATCH,
  ALARM_PAGE_SIZE,
  ALARM_RULES,
  EPISODE_LOOKBACK_MS,
  FANOUT_SIZE,
  LOT_NOTICE_MS,
  RENTAL_NOTICE_MS,
  WUF_LOOKBACK_MS,
  sqlOf,
  type AlarmBroadcastRequest,
  type AlarmJob,
  type FanoutSize,
  type AlarmRow,
  type AlarmRuleName,
  type NewAlarm,
  DELIVERY_LOOKBACK_MS,
} from './alarm.ts'
import { DAY_MS, isoAfter } from '../../lib/time.ts'
import { tallyOf } from '../catalogue/tally.server.ts'
import { SERIES_READERS_DAYS } from '../catalogue/tally.ts'
import { encodeCursor, type Cursor } from '../catalogue/catalogue.ts'

/** Where an alarm's values come from, as SQL over the `from` clause. */
type AlarmSource = {
  /** The reader who gets it. */
  user: string
  /** The ids the rule's link and dedup templates name. */
  ids: Record<string, string>
  /** The JSON parameters of the text (a `json_object(…)`), or `'{}'`. */
  params: string
  /** When it happened (an ISO 8601 expression). */
  at: string
  /** `FROM … WHERE …`; may end with ORDER BY and LIMIT. */
  from: string
}

/** An alarm found on the shared side, for its reader's object. */
type Pending = NewAlarm & { readerId: number }

/**
 * The statement finding rule `name`'s alarm for every row of `source` (the caller's parameters in `params`): its
 * reader and the alarm as the reader's object stores it (alarm-store.server.ts), whose dedup key makes one alarm per
 * reader and event however often it is delivered.
 */
function alarmSelect(name: AlarmRuleName, source: AlarmSource, params: unknown[]): { sql: string; params: unknown[] } {
  const rule = ALARM_RULES[name]
  return {
    sql: `SELECT ${source.user} AS readerId, '${rule.kind}' AS kind, '${rule.text}' AS title, ${source.params} AS body,
                 ${sqlOf(rule.link, source.ids)} AS link, ${sqlOf(rule.dedup, source.ids)} AS dedupKey, ${source.at} AS createdAt
          ${source.from}`,
    params,
  }
}

/** What a delivery wrote: an alarm new to its reader. */
export type Written = { id: number; readerId: number }

/**
 * SQL condition: the reader `user` was not given this event's alarm yet (`alarm_deliveries`), so a bounded sweep moves
 * on to new rows.
 */
const notYet = (name: AlarmRuleName, user: string, ids: Record<string, string>) =>
  `NOT EXISTS (SELECT 1 FROM alarm_deliveries d WHERE d.user_id = ${user} AND d.dedup_key = ${sqlOf(ALARM_RULES[name].dedup, ids)})`

/** Readers' objects one delivery calls at a time. */
const DELIVERY_CALLS = 50

/**
 * Gives each reader of `pending` their alarms, one call to their object each (DELIVERY_CALLS at a time), and, for a
 * sweep (`record`), records the deliveries after the objects took them: a delivery cut off in between is made again
 * and the object keeps one alarm. Answers the alarms new to their readers.
 */
async function deliver(db: Db, pending: readonly Pending[], record: boolean): Promise<Written[]> {
  const byReader = new Map<number, NewAlarm[]>()
  for (const { readerId, ...alarm } of pending) byReader.set(readerId, [...(byReader.get(readerId) ?? []), alarm])
  const readers = [...byReader]
  const written: Written[] = []
  for (let i = 0; i < readers.length; i += DELIVERY_CALLS)
    await Promise.all(
      readers.slice(i, i + DELIVERY_CALLS).map(async ([readerId, alarms]) => {
        const ids = await withReader(readerId, (reader) => reader.addAlarms(readerId, alarms))
        written.push(...ids.map((id) => ({ id, readerId })))
      }),
    )
  if (record && pending.length > 0)
    await db.run(
      `INSERT INTO alarm_deliveries (user_id, dedup_key, created_at)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
      new Date().toISOString(),
      JSON.stringify(pending.map((p) => [p.readerId, p.dedupKey])),
    )
  return written
}

/**
 * One batch of a published episode's fan-out: the next `batch` readers (user id above `after`) who favourited its
 * series or follow one of its creators (issue 37 point 2: a new series by them starts with its first episode), and did
 * not hide it. For an episode opened early (`EARLY_ACCESS`, issue 37 point 1; still open early: one taken down since
 * reaches nobody), its series' favourites who did not hide it.
 */
function episodeFanout(name: 'EPISODE_PUBLISHED' | 'EARLY_ACCESS', episodeId: number, after: number, batch: number) {
  const ids = { episode: 'e.id' }
  const early = name === 'EARLY_ACCESS'
  const followers = `UNION
                   SELECT cf.user_id FROM series_creators sc JOIN creator_followers cf ON cf.creator_id = sc.creator_id
                    WHERE sc.series_id = (SELECT series_id FROM episodes WHERE id = ?1)`
  return alarmSelect(
    name,
    {
      user: 'f.user_id',
      ids,
      params: early ? `json_object('series', s.title, 'no', e.no, 'date', e.published_at)` : `json_object('series', s.title, 'no', e.no)`,
      // when it was announced (an old episode published by hand is news now), or opened early
      at: early ? 'e.early_at' : 'coalesce(e.announced_at, e.published_at)',
      from: `FROM episodes e JOIN series s ON s.id = e.series_id
             JOIN (SELECT user_id FROM library_marks WHERE series_id = (SELECT series_id FROM episodes WHERE id = ?1) AND favorite = 1
                   ${early ? '' : followers}) f
             WHERE e.id = ?1 AND f.user_id > ?2 AND s.is_published = 1 AND NOT ${hiddenBy('f.user_id', 'e.series_id')}
               ${early ? 'AND e.early_at IS NOT NULL' : ''}
             ORDER BY f.user_id LIMIT ?3`,
    },
    [episodeId, after, batch],
  )
}

/**
 * One batch of an operator's broadcast: the next `limit` readers (user id above `after`): every account, or the
 * readers of its series (`broadcastReaders`: `recent` are the series' tally's next readers, all of them up to `upTo`
 * when that is not null) who did not hide it.
 */
function broadcastFanout(
  broadcast: Pick<AlarmBroadcastsRow, 'id' | 'series_id'>,
  after: number,
  limit: number,
  recent: readonly number[],
  upTo: number | null,
) {
  const ids = { broadcast: 'b.id', link: 'b.link' }
  const readers = broadcastReaders(broadcast.series_id !== null, '?4', '?2', '?5', '?6')
  return alarmSelect(
    'NOTICE',
    {
      user: 'r.user_id',
      ids,
      params: `json_object('text', b.text)`,
      at: 'b.created_at',
      from: `FROM alarm_broadcasts b JOIN (${readers}) r
             WHERE b.id = ?1 AND (b.series_id IS NULL OR NOT ${hiddenBy('r.user_id', 'b.series_id')})
             ORDER BY r.user_id LIMIT ?3`,
    },
    broadcast.series_id === null
      ? [broadcast.id, after, limit]
      : [broadcast.id, after, limit, broadcast.series_id, JSON.stringify(recent), upTo],
  )
}

/**
 * The readers a broadcast goes to (user ids above `after`, SQL): every live account, or the readers of series `series`:
 * its favourites (`library_marks`), the live accounts of `recent` (a JSON list of ids: the series' tally's readers of
 * the last SERIES_READERS_DAYS, catalogue/tally.server.ts) and those D1's `series_readers` still holds (written before
 * the tallies kept them; its retention rule empties it), all at most `upTo` when that is not NULL.
 */
function broadcastReaders(ofSeries: boolean, series: string, after: string, recent = "'[]'", upTo = 'NULL'): string {
  return ofSeries
    ? `SELECT user_id FROM (
         SELECT user_id FROM library_marks WHERE series_id = ${series} AND favorite = 1 AND user_id > ${after}
         UNION SELECT user_id FROM series_readers WHERE series_id = ${series} AND user_id > ${after}
         UNION SELECT u.id FROM json_each(${recent}) j JOIN users u ON u.id = j.value AND u.deleted_at IS NULL)
       WHERE ${upTo} IS NULL OR user_id <= ${upTo}`
    : `SELECT id AS user_id FROM users WHERE deleted_at IS NULL AND id > ${after}`
}

/** The first UTC day of a series' recent readers at `now` (SERIES_READERS_DAYS). */
const readersSince = (now: Date) => isoAfter(now, -SERIES_READERS_DAYS * DAY_MS).slice(0, 10)

/** Readers a reach count asks the series' tally for at a time. */
const REACH_PAGE = 5000

/**
 * How many readers a broadcast would reach now (`npm run ops -- alarm send` prints it in its plan): those of
 * `broadcastReaders`, less those who hid the series: D1's part in one count, then the tally's readers a page at a time,
 * each counted unless D1's part has them. Null: no such series.
 */
export async function broadcastReach(db: Db, seriesId: number | null, now = new Date()): Promise<number | null> {
  if (seriesId === null) return (await db.first<{ n: number }>(`SELECT count(*) AS n FROM (${broadcastReaders(false, '?1', '0')})`))?.n ?? 0
  if (!(await db.first(`SELECT 1 FROM series WHERE id = ?`, seriesId))) return null
  const shared = await db.first<{ n: number }>(
    `SELECT count(*) AS n FROM (${broadcastReaders(true, '?1', '0')}) r WHERE NOT ${hiddenBy('r.user_id', '?1')}`,
    seriesId,
  )
  let n = shared?.n ?? 0
  for (let after = 0; ;) {
    const recent = await tallyOf(seriesId).readers(readersSince(now), after, REACH_PAGE)
    if (!recent.length) return n
    const more = await db.first<{ n: number }>(
      `SELECT count(*) AS n FROM json_each(?2) j JOIN users u ON u.id = j.value AND u.deleted_at IS NULL
        WHERE u.id NOT IN (${broadcastReaders(true, '?1', '0')}) AND NOT ${hiddenBy('u.id', '?1')}`,
      seriesId,
      JSON.stringify(recent),
    )
    n += more?.n ?? 0
    after = recent.at(-1)!
  }
}

/** Rentals ending within RENTAL_NOTICE_MS of `now` and not yet ended (bounded). */
function rentalsEnding(now: Date, limit: number) {
  const ids = { ownership: 'o.id', expires: 'o.expires_at', episode: 'o.episode_id' }
  return alarmSelect(
    'RENTAL_ENDING',
    {
      user: 'o.user_id',
      ids,
      params: `json_object('series', s.title, 'no', e.no, 'date', o.expires_at)`,
      at: '?1',
      from: `FROM ownerships o JOIN episodes e ON e.id = o.episode_id JOIN series s ON s.id = o.series_id
             WHERE o.kind IN ('RENT', 'ALL_RENT') AND o.expires_at > ?1 AND o.expires_at <= ?2
               AND NOT ${hiddenBy('o.user_id', 'o.series_id')} AND ${notYet('RENTAL_ENDING', 'o.user_id', ids)}
             LIMIT ?3`,
    },
    [now.toISOString(), isoAfter(now, RENTAL_NOTICE_MS), limit],
  )
}

/**
 * Wait-until-free tickets that became ready in the last EPISODE_LOOKBACK_MS: the reader's last used ticket of a series
 * plus the series' `wuf_hours` (currentTicket's rule, src/features/freetime/freetime.ts) has passed (bounded).
 */
function ticketsReady(now: Date, limit: number) {
  const ids = { ticket: 'w.id', series: 'w.series_id' }
  const readyAt = `strftime('%Y-%m-%dT%H:%M:%fZ', w.used_at, '+' || s.wuf_hours || ' hours')`
  return alarmSelect(
    'TICKET_READY',
    {
      user: 'w.user_id',
      ids,
      params: `json_object('series', s.title)`,
      at: readyAt,
      from: `FROM wuf_tickets w JOIN series s ON s.id = w.series_id
             WHERE w.used_at > ?3 AND s.wuf_hours IS NOT NULL AND ${readyAt} > ?1 AND ${readyAt} <= ?2
               AND NOT EXISTS (SELECT 1 FROM wuf_tickets n WHERE n.user_id = w.user_id AND n.series_id = w.series_id AND n.used_at > w.used_at)
               AND NOT ${hiddenBy('w.user_id', 'w.series_id')} AND ${notYet('TICKET_READY', 'w.user_id', ids)}
             LIMIT ?4`,
    },
    [isoAfter(now, -EPISODE_LOOKBACK_MS), now.toISOString(), isoAfter(now, -WUF_LOOKBACK_MS), limit],
  )
}

/** Lots of coins or bonus (not mileage) with something left that expire within LOT_NOTICE_MS of `now` (bounded). */
function lotsExpiring(now: Date, limit: number) {
  const ids = { lot: 'l.id' }
  return alarmSelect(
    'COINS_EXPIRING',
    {
      user: 'l.user_id',
      ids,
      params: `json_object('amount', l.remaining, 'date', l.expires_at)`,
      at: '?1',
      from: `FROM coin_lots l
             WHERE l.remaining > 0 AND l.expires_at IS NOT NULL AND l.expires_at > ?1 AND l.expires_at <= ?2 AND l.type <> 'MILEAGE'
               AND ${notYet('COINS_EXPIRING', 'l.user_id', ids)}
             LIMIT ?3`,
    },
    [now.toISOString(), isoAfter(now, LOT_NOTICE_MS), limit],
  )
}

/** Gifts given in the last EPISODE_LOOKBACK_MS, still unused and unexpired (bounded). */
function giftsArrived(now: Date, limit: number) {
  const ids = { gift: 'g.id' }
  return alarmSelect(
    'GIFT_ARRIVED',
    {
      user: 'g.user_id',
      ids,
      params: `json_object('title', g.title)`,
      at: 'g.given_at',
      from: `FROM gifts g
             WHERE g.given_at > ?1 AND g.given_at <= ?2 AND g.used_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > ?2)
               AND ${notYet('GIFT_ARRIVED', 'g.user_id', ids)}
             LIMIT ?3`,
    },
    [isoAfter(now, -EPISODE_LOOKBACK_MS), now.toISOString(), limit],
  )
}

/** The queue the alarm jobs travel on (wrangler.jsonc `queues`, binding ALARMS). */
export type AlarmQueue = {
  send(body: AlarmJob, options?: QueueSendOptions): Promise<unknown>
  sendBatch(messages: Iterable<MessageSendRequest<AlarmJob>>): Promise<unknown>
}

/** Queues takes at most 100 messages per sendBatch. */
const SEND_BATCH = 100

/** Hands jobs to the queue, SEND_BATCH at a time. */
async function enqueue(queue: AlarmQueue, jobs: AlarmJob[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += SEND_BATCH)
    await queue.sendBatch(jobs.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: 'json' as const })))
}

/**
 * Queues the push of every alarm in `written` whose reader has a browser subscribed (the reader's settings are read
 * when the push goes out).
 */
export async function queuePushes(db: Db, queue: AlarmQueue, name: AlarmRuleName, written: Written[]): Promise<void> {
  if (!ALARM_RULES[name].push || written.length === 0) return
  const subscribed = await db.all<{ userId: number }>(
    `SELECT DISTINCT user_id AS userId FROM push_subscriptions WHERE user_id IN (SELECT value FROM json_each(?))`,
    JSON.stringify([...new Set(written.map((w) => w.readerId))]),
  )
  const readers = new Set(subscribed.map((r) => r.userId))
  await enqueue(
    queue,
    written.filter((w) => readers.has(w.readerId)).map((w) => ({ kind: 'push', alarmId: w.id, readerId: w.readerId })),
  )
}

/** A sweep step: delivers rule `name`'s alarms and queues their pushes; answers the events found. */
async function deliverAndPush(db: Db, queue: AlarmQueue, name: AlarmRuleName, statement: { sql: string; params: unknown[] }) {
  const pending = await db.all<Pending>(statement.sql, ...statement.params)
  await queuePushes(db, queue, name, await deliver(db, pending, true))
  return pending.length
}

/**
 * Claims the episodes published in the last EPISODE_LOOKBACK_MS that no fan-out took yet (one conditional UPDATE:
 * two cron runs at once claim each episode once) and queues their fan-outs. If the queue refuses, the claim is
 * given back so the next run tries again.
 */
async function announcePublished(db: Db, queue: AlarmQueue, now: Date): Promise<number> {
  const claimed = await db.all<Cols<'episodes', 'id'>>(
    `UPDATE episodes SET announced_at = ?1
      WHERE id IN (SELECT id FROM episodes WHERE announced_at IS NULL AND published_at > ?2 AND published_at <= ?1 LIMIT ${ALARM_BATCH})
        AND announced_at IS NULL
      RETURNING id`,
    now.toISOString(),
    isoAfter(now, -EPISODE_LOOKBACK_MS),
  )
  try {
    await enqueue(
      queue,
      claimed.map((e) => ({ kind: 'episode', episodeId: e.id, after: 0 })),
    )
  } catch (e) {
    const ids = JSON.stringify(claimed.map((c) => c.id))
    await db.run(`UPDATE episodes SET announced_at = NULL WHERE id IN (SELECT value FROM json_each(?))`, ids)
    throw e
  }
  return claimed.length
}

/**
 * The operator publishes an episode now (`POST /api/ops/episodes/{id}/publish`): its `published_at` becomes now if it
 * was later, and its fan-out is queued, once (a second publish of an announced episode queues nothing). One UPDATE
 * and one queue message: the request's cost does not depend on the number of readers.
 */
export async function publishEpisode(
  db: Db,
  queue: AlarmQueue,
  episodeId: number,
  now = new Date(),
): Promise<{ episodeId: number; publishedAt: string; announced: boolean } | null> {
  const at = now.toISOString()
  // the claim: one conditional statement, so concurrent publishes queue one fan-out
  const claimed = await db.first<{ publishedAt: string }>(
    `UPDATE episodes SET published_at = min(published_at, ?2), announced_at = ?2 WHERE id = ?1 AND announced_at IS NULL
      RETURNING published_at AS publishedAt`,
    episodeId,
    at,
  )
  if (claimed) {
    await queue.send({ kind: 'episode', episodeId, after: 0 }, { contentType: 'json' }).catch(async (e: unknown) => {
      await db.run(`UPDATE episodes SET announced_at = NULL WHERE id = ? AND announced_at = ?`, episodeId, at) // the next publish or cron run tries again
      throw e
    })
    return { episodeId, publishedAt: claimed.publishedAt, announced: true }
  }
  const known = await db.first<{ publishedAt: string }>(`SELECT published_at AS publishedAt FROM episodes WHERE id = ?`, episodeId)
  return known && { episodeId, publishedAt: known.publishedAt, announced: false }
}

/** The operator's notice (`POST /api/ops/alarms`): stored, then fanned out by the queue. */
export async function sendBroadcast(
  db: Db,
  queue: AlarmQueue,
  request: AlarmBroadcastRequest,
  now = new Date(),
): Promise<{ broadcastId: number }> {
  if (request.seriesId !== undefined && !(await db.first(`SELECT 1 FROM series WHERE id = ?`, request.seriesId)))
    throw new AppError('NOT_EXIST')
  const row = await db.first<{ id: number }>(
    `INSERT INTO alarm_broadcasts (text, link, series_id, reason, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
    request.text,
    request.link ?? null,
    request.seriesId ?? null,
    request.reason,
    now.toISOString(),
  )
  await queue.send({ kind: 'broadcast', broadcastId: row!.id, after: 0 }, { contentType: 'json' })
  return { broadcastId: row!.id }
}

/**
 * One fan-out job of the queue: writes up to `size.batches` batches of `size.batch` alarms (FANOUT_SIZE), readers in user id order,
 * and queues their pushes; when the last batch was full, queues the next message first (so the rest of the fan-out
 * does not wait behind these pushes). Safe to run twice: the dedup key skips readers who have the alarm.
 */
export async function runFanout(
  db: Db,
  queue: AlarmQueue,
  job: Extract<AlarmJob, { kind: 'episode' | 'early' | 'broadcast' }>,
  now = new Date(),
  size: FanoutSize = FANOUT_SIZE,
): Promise<number> {
  // a batch's statement, and the last reader id it covers whatever it finds (null: the readers ran out when it finds
  // fewer than a batch); a series' notice takes its tally's next readers first
  let batchAfter: (after: number) => Promise<{ sql: string; params: unknown[]; upTo: number | null }>
  if (job.kind !== 'broadcast') {
    const name = job.kind === 'early' ? 'EARLY_ACCESS' : 'EPISODE_PUBLISHED'
    batchAfter = async (after) => ({ ...episodeFanout(name, job.episodeId, after, size.batch), upTo: null })
  } else {
    const broadcast = await db.first<Pick<AlarmBroadcastsRow, 'id' | 'series_id'>>(
      `SELECT id, series_id FROM alarm_broadcasts WHERE id = ?`,
      job.broadcastId,
    )
    if (!broadcast) return 0
    const seriesId = broadcast.series_id
    batchAfter = async (after) => {
      const recent = seriesId === null ? [] : await tallyOf(seriesId).readers(readersSince(now), after, size.batch)
      // a full page of the tally: this batch covers the readers up to its last one
      const upTo = recent.length >= size.batch ? recent.at(-1)! : null
      return { ...broadcastFanout(broadcast, after, size.batch, recent, upTo), upTo }
    }
  }
  const name = job.kind === 'episode' ? 'EPISODE_PUBLISHED' : job.kind === 'early' ? 'EARLY_ACCESS' : 'NOTICE'
  let after = job.after
  let total = 0
  for (let batch = 1; batch <= size.batches; batch++) {
    const { sql, params, upTo } = await batchAfter(after)
    const pending = await db.all<Pending>(sql, ...params)
    const written = await deliver(db, pending, false)
    total += written.length
    const full = pending.length >= size.batch
    const more = full || upTo !== null
    if (more) after = full ? Math.max(...pending.map((p) => p.readerId)) : upTo!
    if (more && batch === size.batches) await queue.send({ ...job, after }, { contentType: 'json' })
    await queuePushes(db, queue, name, written)
    if (!more) break
  }
  return total
}

/**
 * The cron's alarm sweep: claims the episodes published since the last run and queues their fan-outs; delivers the
 * alarms of wait-until-free tickets ready, rentals ending, lots expiring, gifts arrived, and of support answers and
 * comment replies whose delivery at once failed, and queues their pushes. Every statement finds at most ALARM_BATCH
 * events not yet delivered and the sweep stops starting statements when the budget is spent (the next run goes on).
 */
export async function sweepAlarms(db: Db, queue: AlarmQueue, now = new Date(), budget: SweepBudget = cronBudget()): Promise<SweepResult[]> {
  const step = (name: AlarmRuleName, statement: (now: Date, limit: number) => { sql: string; params: unknown[] }) => async () =>
    deliverAndPush(db, queue, name, statement(now, ALARM_BATCH))
  return sweep(
    [
      () => announcePublished(db, queue, now),
      step('RENTAL_ENDING', rentalsEnding),
      step('TICKET_READY', ticketsReady),
      step('COINS_EXPIRING', lotsExpiring),
      step('GIFT_ARRIVED', giftsArrived),
      step('QNA_ANSWERED', qnasAnswered),
      step('COMMENT_REPLY', repliesPosted),
    ],
    ALARM_BATCH,
    budget,
  )
}

/**
 * The reader's alarms, newest first by when they happened (a fan-out writes an alarm dated by its event, later than
 * alarms of events after it), ALARM_PAGE_SIZE at a time after `cursor` (the previous page's last time and id).
 */
export async function listAlarms(userId: number, cursor: Cursor | null): Promise<{ items: AlarmRow[]; nextCursor: string | null }> {
  const found = await withReader(userId, (reader) => reader.alarms(userId, cursor))
  const items = found.slice(0, ALARM_PAGE_SIZE)
  const last = items.at(-1)
  return { items, nextCursor: found.length > ALARM_PAGE_SIZE && last ? encodeCursor({ k: last.createdAt, id: last.id }) : null }
}

/** The reader's unread alarms. */
export const unreadCount = (userId: number): Promise<number> => withReader(userId, (reader) => reader.unreadAlarms(userId))

/** Marks one of the reader's alarms read (repeatable); false when it is not theirs or unknown. */
export const markRead = (userId: number, id: number, now = new Date()) =>
  withReader<AlarmsRow['link'] | false>(userId, (reader) => reader.readAlarm(userId, id, now.toISOString()))

/** Marks all the reader's alarms read; answers how many were unread. */
export const markAllRead = (userId: number, now = new Date()): Promise<number> =>
  withReader(userId, (reader) => reader.readAllAlarms(userId, now.toISOString()))

/** Support answers of the last DELIVERY_LOOKBACK_MS (or the one of question `qnaId`) not yet delivered to their askers. */
function qnasAnswered(now: Date, limit: number, qnaId: number | null = null) {
  const ids = { qna: 'q.id' }
  return alarmSelect(
    'QNA_ANSWERED',
    {
      user: 'q.user_id',
      ids,
      params: `json_object('title', q.title)`,
      at: 'q.answered_at',
      from: `FROM qnas q WHERE q.answered_at > ?1 AND q.user_id IS NOT NULL AND (?2 IS NULL OR q.id = ?2)
               AND ${notYet('QNA_ANSWERED', 'q.user_id', ids)}
             LIMIT ?3`,
    },
    [isoAfter(now, -DELIVERY_LOOKBACK_MS), qnaId, limit],
  )
}

/**
 * Replies of the last DELIVERY_LOOKBACK_MS (or reply `replyId`) not yet delivered to the author of the comment they
 * answer, unless they replied to themselves.
 */
function repliesPosted(now: Date, limit: number, replyId: number | null = null) {
  const ids = { series: 'r.series_id', reply: 'r.id' }
  return alarmSelect(
    'COMMENT_REPLY',
    {
      user: 'p.user_id',
      ids,
      params: `json_object('series', s.title)`,
      at: 'r.created_at',
      from: `FROM comments r JOIN comments p ON p.id = r.parent_id JOIN series s ON s.id = r.series_id
             WHERE r.parent_id IS NOT NULL AND r.created_at > ?1 AND (?2 IS NULL OR r.id = ?2) AND p.user_id <> r.user_id
               AND ${notYet('COMMENT_REPLY', 'p.user_id', ids)}
             LIMIT ?3`,
    },
    [isoAfter(now, -DELIVERY_LOOKBACK_MS), replyId, limit],
  )
}

/**
 * The alarm of an event just written on the shared side — a support answer (`qna`), a comment reply (`reply`) —
 * delivered at once. When its reader's object cannot take it now, the next sweep delivers it (the event is not
 * recorded in `alarm_deliveries`), so the event's own request never fails for its alarm.
 */
export async function alarmNow(db: Db, event: { qna: number } | { reply: number }, now = new Date()): Promise<void> {
  const { sql, params } = 'qna' in event ? qnasAnswered(now, 1, event.qna) : repliesPosted(now, 1, event.reply)
  try {
    await deliver(db, await db.all<Pending>(sql, ...params), true)
  } catch (e) {
    console.error(JSON.stringify({ event: 'alarm.delivery.deferred', ...event, error: String(e) }))
  }
}
