/**
 * The operator audit trail (issue 39 point 5, migration 0032 `ops_audit`): one row per change through the operator
 * API — who, when, what, why, the target before and after. A change made of one shared D1 batch carries its row in
 * that batch (`auditStatement`: operators, comment moderation); any other change records it right after
 * (`recordAudit`) — a reader's money batch too (coins, debts, refunds: a shared row never rides in a reader's batch,
 * docs/ARCHITECTURE.md "Reader objects") —, which never drops it silently: a row it cannot write goes to the Worker's
 * error log whole, and the route says so (`X-Ops-Audit: lost`).
 */
import type { Db } from '../../lib/server/db.ts'
import type { OpsAuditRow } from '../../lib/server/db-types.ts'
import { opsPage, type OpsPage } from '../../lib/ops.ts'
import type { AuditEntry, AuditQuery } from './operator.ts'
import { moneyDb } from '../reader/money-db.server.ts'
import { paymentReader } from '../payment/payment.server.ts'

/** What one audit row records (an `AuditEntry` before it has an id); `before`/`after` are the target's snapshots. */
export type AuditRecord = Omit<AuditEntry, 'id' | 'detail'> & { detail?: unknown }

/** A JSON value computed by SQL in the change's own batch (the target as the batch left it). */
export type SqlJson = { sql: string; params: unknown[] }

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v))

/**
 * The INSERT of one audit row, to run in the change's own batch. `afterSql` computes the target's after snapshot in
 * SQL, once the batch's earlier statements ran; `onlyIfChanged` writes the row only when the statement just before it
 * changed a row (`changes() = 1`: a guarded update that found nothing to change leaves no audit row).
 */
export function auditStatement(r: AuditRecord, opts: { afterSql?: SqlJson; onlyIfChanged?: boolean } = {}) {
  const after = opts.afterSql ? `(${opts.afterSql.sql})` : '?'
  const values = `?, ?, ?, ?, ?, ?, ${after}, ?, ?, ?`
  return {
    sql: `INSERT INTO ops_audit (operator, action, route, target, reason, before_json, after_json, detail, request_id, at)
          ${opts.onlyIfChanged ? `SELECT ${values} WHERE changes() = 1` : `VALUES (${values})`}`,
    params: [
      r.operator,
      r.action,
      r.route,
      r.target,
      r.reason,
      json(r.before),
      ...(opts.afterSql ? opts.afterSql.params : [json(r.after)]),
      json(r.detail),
      r.requestId,
      r.at,
    ],
  }
}

/**
 * Records one audit row right after its change (two tries). Answers its id, or null when D1 refused it twice: the row
 * is then written whole to the error log (`opsAuditLost`), never dropped silently.
 */
export async function recordAudit(db: Db, r: AuditRecord): Promise<number | null> {
  const { sql, params } = auditStatement(r)
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const row = await db.first<{ id: number }>(`${sql} RETURNING id`, ...params)
      if (row) return row.id
    } catch (e) {
      if (attempt === 2) console.error(JSON.stringify({ opsAuditLost: { ...r, error: String(e) } }))
    }
  }
  return null
}

/** Columns never copied into an audit snapshot (secrets, keys, a reader's contact data). */
const HIDDEN = /password|hash|token|secret|idempotency|^email$|^phone$/

/** How each kind of target is read for its snapshot: its table, key and the columns left out (`HIDDEN` besides). */
const SNAPSHOTS: Record<string, { sql: string; keep?: (column: string) => boolean }> = {
  notice: { sql: 'SELECT * FROM notices WHERE id = ?', keep: () => true },
  coupon: { sql: 'SELECT * FROM coupons WHERE id = ?' },
  event: { sql: 'SELECT * FROM events WHERE id = ?', keep: () => true },
  banner: { sql: 'SELECT * FROM banners WHERE id = ?', keep: () => true },
  episode: { sql: 'SELECT * FROM episodes WHERE id = ?', keep: (c) => c !== 'text_body' },
  series: {
    sql: `SELECT id, title, is_published, status, next_update_at, last_episode_at, episode_count,
            (SELECT group_concat(weekday, ',') FROM (SELECT weekday FROM schedules WHERE series_id = s.id ORDER BY weekday)) AS schedule
          FROM series s WHERE id = ?`,
    keep: () => true,
  },
  // a question's status and the operator's answer; the reader's question and address stay in `qnas` alone
  qna: { sql: 'SELECT id, user_id, category, status, answer, answered_at FROM qnas WHERE id = ?', keep: () => true },
  user: { sql: 'SELECT id, session_version, deleted_at FROM users WHERE id = ?' },
  broadcast: { sql: 'SELECT * FROM alarm_broadcasts WHERE id = ?', keep: () => true },
  operator: { sql: 'SELECT id, name, created_by, created_at, revoked_at FROM operators WHERE id = ?' },
  // a canned support reply (0034), by `name.lang`
  canned: { sql: `SELECT * FROM support_replies WHERE name || '.' || lang = ?`, keep: () => true },
}

export type SnapshotKind = keyof typeof SNAPSHOTS | 'wallet' | 'payment'

/**
 * A target's row as the audit keeps it (null when there is none): notices, events, banners, broadcasts whole; an
 * episode without its text; a series' state and schedule; a question's status and answer; a reader's session version
 * and withdrawal; a payment without its keys; a wallet as its balances per type and open debt (`wallet`). A wallet and
 * a payment are read from their reader's money rows (moneyDb; a payment's reader from the shared index).
 */
export async function snapshot(db: Db, kind: SnapshotKind, id: number | string): Promise<Record<string, unknown> | null> {
  if (kind === 'wallet') {
    const w = walletJson(Number(id), new Date().toISOString())
    const row = await moneyDb(db, Number(id)).first<{ w: string }>(`SELECT (${w.sql}) AS w`, ...w.params)
    return row ? (JSON.parse(row.w) as Record<string, unknown>) : null
  }
  if (kind === 'payment') {
    const reader = await paymentReader(db, String(id))
    if (reader === null) return null
    return moneyDb(db, reader).first<Record<string, unknown>>(
      'SELECT id, user_id, state, amount, currency, coins, bonus, paid_at, refunded_at FROM payments WHERE id = ?',
      id,
    )
  }
  const s = SNAPSHOTS[kind]!
  const row = await db.first<Record<string, unknown>>(s.sql, id)
  if (!row) return null
  const keep = s.keep ?? ((c: string) => !HIDDEN.test(c))
  return Object.fromEntries(Object.entries(row).filter(([c]) => keep(c) && !/password|hash|token|secret/.test(c)))
}

/** A reader's balance per lot type (expired lots left out) and open debt, as JSON computed by SQL over their money rows. */
function walletJson(userId: number, nowIso: string): SqlJson {
  const sum = (type: string) => `coalesce(sum(CASE WHEN type = '${type}' THEN remaining END), 0)`
  return {
    sql: `SELECT json_object('BONUS', ${sum('BONUS')}, 'FREE_COIN', ${sum('FREE_COIN')}, 'COIN', ${sum('COIN')}, 'MILEAGE', ${sum('MILEAGE')},
            'debt', (SELECT coalesce(sum(debt), 0) FROM payment_reversals WHERE user_id = ?))
          FROM coin_lots WHERE user_id = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?)`,
    params: [userId, userId, nowIso],
  }
}

/**
 * Audit entries newest first (id descending), a page at a time: those of the last `days` days, of one target, of one
 * operator (each filter optional, together all of them).
 */
export async function listAudit(db: Db, q: AuditQuery, now = new Date()): Promise<OpsPage<AuditEntry>> {
  const where: string[] = []
  const params: unknown[] = []
  const add = (clause: string, value: unknown) => {
    where.push(clause)
    params.push(value)
  }
  if (q.days !== undefined) add('at > ?', new Date(now.getTime() - q.days * 86_400_000).toISOString())
  if (q.target !== undefined) add('target = ?', q.target)
  if (q.operator !== undefined) add('operator = ?', q.operator)
  if (q.cursor !== undefined) add('id < ?', q.cursor)
  const rows = await db.all<OpsAuditRow>(
    `SELECT * FROM ops_audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
    ...params,
    q.limit + 1,
  )
  const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown))
  const entries = rows.map((r): AuditEntry => ({
    id: r.id,
    at: r.at,
    operator: r.operator,
    action: r.action,
    route: r.route,
    target: r.target,
    reason: r.reason,
    before: parse(r.before_json),
    after: parse(r.after_json),
    detail: parse(r.detail),
    requestId: r.request_id,
  }))
  return opsPage(entries, q.limit, (e) => e.id)
}
