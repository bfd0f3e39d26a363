/**
 * Alerts to the operator on D1 (issue 39 point 4; migration 0036, rules in alerts.ts): `raiseAlert` counts one
 * occurrence of a kind of trouble in its UTC hour with one conditional statement, and the occurrence that reaches the
 * kind's threshold mails the edition's `mail.alertsTo` (the Email Service binding; the outbox in a local run). So
 * forty failures at once send one mail, and the next hour's first one sends the next. An alert never fails the work
 * that raised it: a failure to count or to mail is only logged.
 */
import { edition } from 'virtual:edition'
import type { Db } from '../../lib/server/db.ts'
import type { OpsAlertsRow } from '../../lib/server/db-types.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { ALERT_KINDS, ALERTS_MAX, alertHour, type AlertKind, type AlertsQuery, type OpsAlert } from './alerts.ts'
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { QUEUE_MAX_RETRIES, retryDelaySeconds } from '../../lib/queue.ts'

/** Longest detail kept (the first and the last of the hour). */
const DETAIL_MAX = 500

/** Counts one occurrence of `kind` now; mails the operator when it brings the hour's count to the kind's threshold. */
export async function raiseAlert(db: Db, kind: AlertKind, detail: string, now = new Date()): Promise<void> {
  const hour = alertHour(now)
  const said = detail.slice(0, DETAIL_MAX)
  await countMetric({ name: 'alert', key: kind }, now)
  try {
    const row = await db.first<Pick<OpsAlertsRow, 'count' | 'first_detail'>>(
      `INSERT INTO ops_alerts (kind, hour, count, first_detail, last_detail, last_at) VALUES (?1, ?2, 1, ?3, ?3, ?4)
       ON CONFLICT (kind, hour) DO UPDATE SET count = count + 1, last_detail = excluded.last_detail, last_at = excluded.last_at
       RETURNING count, first_detail`,
      kind,
      hour,
      said,
      now.toISOString(),
    )
    console.error(JSON.stringify({ event: 'ops.alert', kind, hour, count: row?.count, detail: said }))
    const rule = ALERT_KINDS[kind]
    if (row?.count !== rule.threshold || !edition.mail) return
    await messageProvider(db).send(
      {
        channel: 'MAIL',
        recipient: edition.mail.alertsTo,
        template: 'ops-alert',
        subject: `[${edition.siteName} ${edition.id}] ${kind}: ${rule.says}`,
        body:
          `${rule.says} (${rule.threshold === 1 ? 'first' : `${rule.threshold} times`} in the hour ${hour}:00 UTC).\n\n` +
          `First: ${row.first_detail}\nLatest: ${said}\n\n` +
          `At most one mail per kind per hour. The hours with trouble: npm run ops -- alerts`,
        meta: { kind, hour },
      },
      now,
    )
    await db.run(`UPDATE ops_alerts SET mailed_at = ? WHERE kind = ? AND hour = ?`, new Date().toISOString(), kind, hour)
  } catch (e) {
    console.error(JSON.stringify({ event: 'ops.alert.failed', kind, hour, error: String(e) }))
  }
}

/**
 * A queue message that failed goes back to its queue (retryDelaySeconds); when that was its last try
 * (QUEUE_MAX_RETRIES), the queue hands it to its dead-letter queue and the operator is alerted (`what`: the job).
 */
export async function retryLater(db: Db, message: Message<unknown>, what: string): Promise<void> {
  message.retry({ delaySeconds: retryDelaySeconds(message.attempts) })
  if (message.attempts > QUEUE_MAX_RETRIES)
    await raiseAlert(db, 'dead-letter', `${what} (message ${message.id}, ${message.attempts} tries)`)
}

/**
 * The cron's sweeps, side by side: one that fails alerts the operator (`<name>: <error>`) and the others go on.
 * Answers the names of those that failed.
 */
export async function runSweeps(db: Db, sweeps: Record<string, () => Promise<unknown>>): Promise<string[]> {
  const names = Object.keys(sweeps)
  const results = await Promise.allSettled(names.map((name) => sweeps[name]!()))
  const failed = names.flatMap((name, i) => {
    const r = results[i]!
    return r.status === 'rejected' ? [`${name}: ${String(r.reason)}`] : []
  })
  for (const detail of failed) await raiseAlert(db, 'cron', detail)
  return failed.map((f) => f.slice(0, f.indexOf(':')))
}

/** The hours with trouble of the last `q.days` days, newest first (at most ALERTS_MAX). */
export async function listAlerts(db: Db, q: AlertsQuery, now = new Date()): Promise<OpsAlert[]> {
  const rows = await db.all<OpsAlertsRow>(
    `SELECT * FROM ops_alerts WHERE hour >= ? ORDER BY hour DESC, kind LIMIT ${ALERTS_MAX}`,
    alertHour(new Date(now.getTime() - q.days * 86_400_000)),
  )
  return rows.map((r) => ({
    kind: r.kind,
    hour: r.hour,
    count: r.count,
    firstDetail: r.first_detail,
    lastDetail: r.last_detail,
    lastAt: r.last_at,
    mailedAt: r.mailed_at,
  }))
}
