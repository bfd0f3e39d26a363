/**
 * The alarm centre on D1 (issue 13 point 1; table `alarms`, dedup key in migration 0021). Every alarm is written by
 * `alarmInsert`: one INSERT … SELECT that the event's own batch includes (a synchronous event) or that the cron runs
 * per event (a fan-out), idempotent through the unique (user_id, dedup_key) index. The list and the marks read
 * and change only the signed-in reader's rows.
 */
import type { Db } from '../../lib/server/db.ts'
import type { AlarmsRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { cronBudget, sweep, type SweepBudget, type SweepResult } from '../../lib/server/sweep.ts'
import { hiddenBy } from '../library/hidden.server.ts'
import {
  ALARM_BATCH,
  ALARM_PAGE_SIZE,
  ALARM_RULES,
  EPISODE_LOOKBACK_MS,
  LOT_NOTICE_MS,
  RENTAL_NOTICE_MS,
  WUF_LOOKBACK_MS,
  sqlOf,
  type AlarmRow,
  type AlarmRuleName,
} from './alarm.ts'
import { isoAfter } from '../../lib/time.ts'

/** Where an alarm's values come from, as SQL over the `from` clause (which must end in a WHERE, see below). */
type AlarmSource = {
  /** The reader who gets it. */
  user: string
  /** The ids the rule's link and dedup templates name. */
  ids: Record<string, string>
  /** The JSON parameters of the text (a `json_object(…)`), or `'{}'`. */
  params: string
  /** When it happened (an ISO 8601 expression). */
  at: string
  /** `FROM … WHERE …` (SQLite needs the WHERE before ON CONFLICT in an INSERT … SELECT); may end with LIMIT. */
  from: string
}

/**
 * The statement writing rule `name`'s alarm for every row of `source` (the caller's parameters in `params`). A row
 * whose reader already has the event's alarm writes nothing: the same event processed twice gives one alarm.
 */
function alarmInsert(name: AlarmRuleName, source: AlarmSource, params: unknown[]): { sql: string; params: unknown[] } {
  const rule = ALARM_RULES[name]
  return {
    sql: `INSERT INTO alarms (user_id, kind, title, body, link, dedup_key, created_at)
          SELECT ${source.user}, '${rule.kind}', '${rule.text}', ${source.params}, ${sqlOf(rule.link, source.ids)}, ${sqlOf(rule.dedup, source.ids)}, ${source.at}
          ${source.from}
          ON CONFLICT (user_id, dedup_key) DO NOTHING`,
    params,
  }
}

/** SQL condition: the reader `user` has no alarm with this dedup key yet (so a bounded sweep moves on to new rows). */
const notYet = (name: AlarmRuleName, user: string, ids: Record<string, string>) =>
  `NOT EXISTS (SELECT 1 FROM alarms a WHERE a.user_id = ${user} AND a.dedup_key = ${sqlOf(ALARM_RULES[name].dedup, ids)})`

/** Fan-out of one published episode to the readers who favourited its series and did not hide it (bounded). */
export function episodeFanout(episodeId: number, limit = ALARM_BATCH) {
  const ids = { episode: 'e.id' }
  return alarmInsert(
    'EPISODE_PUBLISHED',
    {
      user: 'f.user_id',
      ids,
      params: `json_object('series', s.title, 'no', e.no)`,
      at: 'e.published_at',
      from: `FROM episodes e JOIN series s ON s.id = e.series_id JOIN favorites f ON f.series_id = e.series_id
             WHERE e.id = ?1 AND s.is_published = 1 AND NOT ${hiddenBy('f.user_id', 'e.series_id')} AND ${notYet('EPISODE_PUBLISHED', 'f.user_id', ids)}
             LIMIT ?2`,
    },
    [episodeId, limit],
  )
}

/** Rentals ending within RENTAL_NOTICE_MS of `now` and not yet ended (bounded). */
function rentalsEnding(now: Date, limit: number) {
  const ids = { ownership: 'o.id', expires: 'o.expires_at', episode: 'o.episode_id' }
  return alarmInsert(
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
  return alarmInsert(
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
  return alarmInsert(
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

/**
 * The cron's alarm sweep: episodes published in the last EPISODE_LOOKBACK_MS (each one fan-out, as a queue
 * consumer would run it), wait-until-free tickets ready, rentals ending and lots expiring soon; every statement writes at most ALARM_BATCH rows
 * and the sweep stops starting statements when the budget is spent (the next run goes on, dedup keeps it exact).
 */
export async function sweepAlarms(db: Db, now = new Date(), budget: SweepBudget = cronBudget()): Promise<SweepResult[]> {
  const published = await db.all<Cols<'episodes', 'id'>>(
    `SELECT e.id FROM episodes e WHERE e.published_at > ? AND e.published_at <= ? ORDER BY e.published_at LIMIT ${ALARM_BATCH}`,
    isoAfter(now, -EPISODE_LOOKBACK_MS),
    now.toISOString(),
  )
  const write = async (s: { sql: string; params: unknown[] }) => db.run(s.sql, ...s.params)
  return sweep(
    [
      ...published.map((e) => () => write(episodeFanout(e.id))),
      () => write(rentalsEnding(now, ALARM_BATCH)),
      () => write(ticketsReady(now, ALARM_BATCH)),
      () => write(lotsExpiring(now, ALARM_BATCH)),
    ],
    ALARM_BATCH,
    budget,
  )
}

/** The reader's alarms, newest first, ALARM_PAGE_SIZE at a time before the id `before` (the cursor). */
export async function listAlarms(db: Db, userId: number, before: number | null): Promise<{ items: AlarmRow[]; nextCursor: string | null }> {
  const found = await db.all<AlarmRow>(
    `SELECT id, kind, title, body, link, read_at AS readAt, created_at AS createdAt FROM alarms
      WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ${ALARM_PAGE_SIZE + 1}`,
    userId,
    before ?? Number.MAX_SAFE_INTEGER,
  )
  const items = found.slice(0, ALARM_PAGE_SIZE)
  return { items, nextCursor: found.length > ALARM_PAGE_SIZE ? String(items.at(-1)!.id) : null }
}

/** The reader's unread alarms. */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  return (await db.first<{ n: number }>(`SELECT count(*) AS n FROM alarms WHERE user_id = ? AND read_at IS NULL`, userId))?.n ?? 0
}

/** Marks one of the reader's alarms read (repeatable); false when it is not theirs or unknown. */
export async function markRead(db: Db, userId: number, id: number, now = new Date()): Promise<AlarmsRow['link'] | false> {
  const row = await db.first<Pick<AlarmsRow, 'link'>>(
    `UPDATE alarms SET read_at = coalesce(read_at, ?3) WHERE id = ?1 AND user_id = ?2 RETURNING link`,
    id,
    userId,
    now.toISOString(),
  )
  return row ? row.link : false
}

/** Marks all the reader's alarms read; answers how many were unread. */
export async function markAllRead(db: Db, userId: number, now = new Date()): Promise<number> {
  return db.run(`UPDATE alarms SET read_at = ? WHERE user_id = ? AND read_at IS NULL`, now.toISOString(), userId)
}

/**
 * For answerQna's batch, right after its `UPDATE qnas … WHERE status = 'WAIT'`: the asker's alarm, only when that
 * update answered the question (changes() = 1), so answering twice writes one alarm.
 */
export function qnaAnsweredAlarm(qnaId: number) {
  return alarmInsert(
    'QNA_ANSWERED',
    {
      user: 'q.user_id',
      ids: { qna: 'q.id' },
      params: `json_object('title', q.title)`,
      at: 'q.answered_at',
      from: `FROM qnas q WHERE q.id = ?1 AND changes() = 1`,
    },
    [qnaId],
  )
}

/**
 * For postComment's batch, right after the comment's INSERT: when it inserted a reply (changes() = 1), the alarm of
 * the author of the comment replied to, unless they replied to themselves.
 */
export function commentReplyAlarm() {
  return alarmInsert(
    'COMMENT_REPLY',
    {
      user: 'p.user_id',
      ids: { series: 'r.series_id', reply: 'r.id' },
      params: `json_object('series', s.title)`,
      at: 'r.created_at',
      from: `FROM comments r JOIN comments p ON p.id = r.parent_id JOIN series s ON s.id = r.series_id
             WHERE changes() = 1 AND r.id = last_insert_rowid() AND p.user_id <> r.user_id`,
    },
    [],
  )
}
