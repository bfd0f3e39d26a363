/**
 * Time-based work on one reader's money (issue 38 point 4), done by the reader's object on its own alarm instead of a
 * cron scanning every reader: lots past their expiry are expired (EXPIRE ledger rows, `expireLots`), the retention
 * rules of the money tables apply (`purgeExpired`), and the notices of a rental ending, coins expiring, a
 * wait-until-free ticket ready and a gift arrived become alarms in the object (the rules of alarm.ts, one per event
 * through its dedup key). `nextMoneyDue` says when the object must wake next; the object sets its alarm after every
 * money batch and every wake. The shared side's sweeps keep running for the rows of readers not moved yet.
 */
import type { Db } from '../../lib/server/db.ts'
import { expireLots } from '../../features/wallet/wallet.server.ts'
import { purgeExpired } from '../../features/retention/retention.server.ts'
import { RETENTION_RULES } from '../../features/retention/retention.ts'
import { TIMED_KINDS } from '../../features/ownership/holding.ts'
import {
  ALARM_RULES,
  EPISODE_LOOKBACK_MS,
  LOT_NOTICE_MS,
  RENTAL_NOTICE_MS,
  sqlOf,
  type AlarmRuleName,
  type NewAlarm,
} from '../../features/alarm/alarm.ts'
import { isoAfter } from '../../lib/time.ts'

/** The retention rules of the tables a reader's object holds. */
const MONEY_RULES = RETENTION_RULES.filter((r) =>
  ['idempotency_keys', 'ownerships', 'payments', 'coin_lots', 'coin_ledger', 'gifts', 'wuf_tickets'].includes(r.table),
)

/** Expires the reader's lots and applies the money retention rules at `now`, over the object's own rows (`db`). */
export async function moneyChores(db: Db, now: Date): Promise<void> {
  const far = { deadline: Number.POSITIVE_INFINITY, clock: () => 0 }
  await expireLots(db, now, 5000, far)
  await purgeExpired(db, now, far, MONEY_RULES)
}

/** A notice due in the object, before the shared facts (titles) fill its text. */
type Draft = {
  rule: AlarmRuleName
  ids: Record<string, string | number>
  params: Record<string, unknown>
  at: string
  seriesId?: number
  episodeId?: number
}

/** `template` of alarm.ts (a link or a dedup key) with the event's ids. */
const fill = (template: string, ids: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (_, k: string) => String(ids[k]))

/** The notices due at `now` from the object's rows (the reader's hidden series have none). */
export function noticesDue(sql: SqlStorage, now: Date): Draft[] {
  const nowIso = now.toISOString()
  const hidden = `EXISTS (SELECT 1 FROM marks m WHERE m.series_id = x.series_id AND m.hidden_at IS NOT NULL)`
  const drafts: Draft[] = []
  for (const l of sql
    .exec<{ id: number; remaining: number; expiresAt: string }>(
      `SELECT id, remaining, expires_at AS expiresAt FROM coin_lots
        WHERE remaining > 0 AND expires_at IS NOT NULL AND expires_at > ?1 AND expires_at <= ?2 AND type <> 'MILEAGE'`,
      nowIso,
      isoAfter(now, LOT_NOTICE_MS),
    )
    .toArray())
    drafts.push({ rule: 'COINS_EXPIRING', ids: { lot: l.id }, params: { amount: l.remaining, date: l.expiresAt }, at: nowIso })
  for (const o of sql
    .exec<{ id: number; episodeId: number; seriesId: number; expiresAt: string }>(
      `SELECT id, episode_id AS episodeId, series_id AS seriesId, expires_at AS expiresAt FROM ownerships x
        WHERE kind IN ('RENT', 'ALL_RENT') AND expires_at > ?1 AND expires_at <= ?2 AND NOT ${hidden}`,
      nowIso,
      isoAfter(now, RENTAL_NOTICE_MS),
    )
    .toArray())
    drafts.push({
      rule: 'RENTAL_ENDING',
      ids: { ownership: o.id, expires: o.expiresAt, episode: o.episodeId },
      params: { date: o.expiresAt },
      at: nowIso,
      seriesId: o.seriesId,
      episodeId: o.episodeId,
    })
  // the series' last used ticket whose successor became ready in the last day (`ready_at`, written with the ticket)
  for (const w of sql
    .exec<{ id: number; seriesId: number; readyAt: string }>(
      `SELECT id, series_id AS seriesId, ready_at AS readyAt FROM wuf_tickets x
        WHERE ready_at > ?1 AND ready_at <= ?2 AND NOT ${hidden}
          AND NOT EXISTS (SELECT 1 FROM wuf_tickets n WHERE n.series_id = x.series_id AND n.used_at > x.used_at)`,
      isoAfter(now, -EPISODE_LOOKBACK_MS),
      nowIso,
    )
    .toArray())
    drafts.push({ rule: 'TICKET_READY', ids: { ticket: w.id, series: w.seriesId }, params: {}, at: w.readyAt, seriesId: w.seriesId })
  for (const g of sql
    .exec<{ id: number; title: string; givenAt: string }>(
      `SELECT id, title, given_at AS givenAt FROM gifts
        WHERE given_at > ?1 AND given_at <= ?2 AND used_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)`,
      isoAfter(now, -EPISODE_LOOKBACK_MS),
      nowIso,
    )
    .toArray())
    drafts.push({ rule: 'GIFT_ARRIVED', ids: { gift: g.id }, params: { title: g.title }, at: g.givenAt })
  // one alarm per event: those the object already has are left out before any shared fact is read
  return drafts.filter(
    (d) => sql.exec(`SELECT 1 FROM alarms WHERE dedup_key = ?`, fill(ALARM_RULES[d.rule].dedup, d.ids)).toArray().length === 0,
  )
}

/** The alarms of `drafts`, their texts filled with the catalogue's titles (one D1 statement when a draft names a series). */
export async function noticeAlarms(d1: D1Database, drafts: readonly Draft[]): Promise<{ rule: AlarmRuleName; alarm: NewAlarm }[]> {
  const episodes = [...new Set(drafts.flatMap((d) => (d.episodeId ? [d.episodeId] : [])))]
  const series = [...new Set(drafts.flatMap((d) => (d.seriesId ? [d.seriesId] : [])))]
  const titles = new Map<number, string>()
  const numbers = new Map<number, number>()
  if (series.length > 0) {
    const [s, e] = await d1.batch([
      d1.prepare(`SELECT id, title FROM series WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(series)),
      d1.prepare(`SELECT id, no FROM episodes WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(episodes)),
    ])
    for (const r of s!.results as { id: number; title: string }[]) titles.set(r.id, r.title)
    for (const r of e!.results as { id: number; no: number }[]) numbers.set(r.id, r.no)
  }
  return drafts.flatMap((d) => {
    const rule = ALARM_RULES[d.rule]
    const params = { ...d.params }
    if (d.seriesId !== undefined) {
      if (!titles.has(d.seriesId)) return [] // a series gone from the catalogue: nothing to tell
      params.series = titles.get(d.seriesId)
    }
    if (d.episodeId !== undefined) params.no = numbers.get(d.episodeId) ?? null
    const alarm = {
      kind: rule.kind,
      title: rule.text,
      body: JSON.stringify(params),
      link: fill(rule.link, d.ids),
      dedupKey: fill(rule.dedup, d.ids),
      createdAt: d.at,
    }
    return [{ rule: d.rule, alarm }]
  })
}

/**
 * When the object must wake next for its money (epoch ms), or null when nothing is due: one statement, each of
 * `dueQueries` a scalar subquery of it (each still read from its index).
 */
export function nextMoneyDue(sql: SqlStorage, now: Date): number | null {
  const queries = dueQueries(now)
  // read to the end: a cursor left open keeps its cached statement busy, and the next call would compile it again
  const [values = []] = [
    ...sql.exec(`SELECT ${queries.map(([q]) => `(${q})`).join(', ')}`, ...queries.flatMap(([, params]) => params)).raw(),
  ]
  const instants = queries.flatMap(([, , shiftMs], i) => {
    const value = values[i]
    return typeof value === 'string' ? [Date.parse(value) + shiftMs] : []
  })
  if (instants.length === 0) return null
  return Math.max(Math.min(...instants), now.getTime() + 1000)
}

/**
 * `nextMoneyDue`'s subqueries, each: the earliest value of a bare column (read from its index, whatever the reader's
 * history holds: it runs after every money batch), its parameters, and how far before or after that value the work is
 * due.
 */
function dueQueries(now: Date): [sql: string, params: string[], shiftMs: number][] {
  const nowIso = now.toISOString()
  const keep = (table: string) => MONEY_RULES.find((r) => r.table === table)?.keepMs ?? 0
  return [
    // a lot past its expiry with coins left, or a timed right past its end: at once (the chores take them away)
    [`SELECT min(expires_at) FROM coin_lots WHERE remaining > 0 AND expires_at IS NOT NULL`, [], 0],
    [
      `SELECT min(expires_at) FROM coin_lots WHERE remaining > 0 AND expires_at IS NOT NULL AND type <> 'MILEAGE' AND expires_at > ?`,
      [isoAfter(now, LOT_NOTICE_MS)],
      -LOT_NOTICE_MS,
    ],
    [
      `SELECT min(expires_at) FROM ownerships WHERE expires_at IS NOT NULL AND kind IN ('RENT', 'ALL_RENT') AND expires_at > ?`,
      [isoAfter(now, RENTAL_NOTICE_MS)],
      -RENTAL_NOTICE_MS,
    ],
    [
      `SELECT min(expires_at) FROM ownerships WHERE expires_at IS NOT NULL AND kind IN (${TIMED_KINDS.map((k) => `'${k}'`).join(', ')})`,
      [],
      0,
    ],
    [`SELECT min(ready_at) FROM wuf_tickets WHERE ready_at > ?`, [nowIso], 0],
    [`SELECT min(created_at) FROM idempotency_keys`, [], keep('idempotency_keys')],
    [`SELECT min(created_at) FROM payments WHERE state IN ('UNPAID', 'CANCELLED')`, [], keep('payments')],
    // a gift whose notice is not given yet: at once
    [
      `SELECT min(given_at) FROM gifts g WHERE used_at IS NULL AND given_at > ?
         AND NOT EXISTS (SELECT 1 FROM alarms WHERE dedup_key = ${sqlOf(ALARM_RULES.GIFT_ARRIVED.dedup, { gift: 'g.id' })})`,
      [isoAfter(now, -EPISODE_LOOKBACK_MS)],
      0,
    ],
  ]
}
