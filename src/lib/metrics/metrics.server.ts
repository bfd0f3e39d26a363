/**
 * Counting the daily report's figures (issue 39 point 3; rules in metrics.ts). `countMetric` writes one Analytics Engine
 * data point (the `METRICS` binding: it returns at once and never fails the work that counts). A local run, whose
 * Analytics Engine stores nothing, also keeps the sums per UTC day in D1, which `localReport` answers: they gather in the
 * isolate and go to D1 in one batch of upserts at most once a second (`FLUSH_MS`) and before a report reads them. One
 * upsert per figure made a local sale two D1 writes instead of one: 159 sales a second by 50 readers against 192 this
 * way (`npm run bench -- --purchase`), where a deployed edition writes no D1 row for a figure at all.
 */
import { env } from 'cloudflare:workers'
import { edition } from 'virtual:edition'
import { createDb, type Db } from '../server/db.ts'
import { isLocalRun } from '../server/local-run.ts'
import type { LocalMetricsRow } from '../server/db-types.ts'
import { dataPoint, firstReportDay, type Metric, type ReportRow } from './metrics.ts'

/** A local run's sums not yet in D1, by day, name and key. */
const pending = new Map<string, LocalMetricsRow>()
const FLUSH_MS = 1000
let flushedAt = 0

/** Counts `m` now. Only logged when it cannot be counted. */
export async function countMetric(m: Metric, now = new Date()): Promise<void> {
  try {
    env.METRICS?.writeDataPoint(dataPoint(edition.id, m))
    if (!isLocalRun()) return
    const row = { day: now.toISOString().slice(0, 10), name: m.name, key: m.key ?? '', count: m.count ?? 1, total: m.total ?? 0 }
    const id = `${row.day} ${row.name} ${row.key}`
    const sum = pending.get(id)
    if (sum) {
      sum.count += row.count
      sum.total += row.total
    } else pending.set(id, row)
    if (Date.now() - flushedAt >= FLUSH_MS) await flushLocalMetrics()
  } catch (e) {
    console.error(JSON.stringify({ event: 'ops.metric.failed', metric: m, error: String(e) }))
  }
}

/** Adds a local run's gathered sums to D1 (one batch); a report reads after it. */
async function flushLocalMetrics(): Promise<void> {
  flushedAt = Date.now()
  if (pending.size === 0) return
  const rows = [...pending.values()]
  pending.clear()
  await createDb(env.DB).batch(
    rows.map((r) => ({
      sql: `INSERT INTO local_metrics (day, name, key, count, total) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (day, name, key) DO UPDATE SET count = count + excluded.count, total = total + excluded.total`,
      params: [r.day, r.name, r.key, r.count, r.total],
    })),
  )
}

/** A local run's report: its sums of the last `days` UTC days, newest day first, in the shape of `reportSql`'s rows. */
export async function localReport(db: Db, days: number, now = new Date()): Promise<ReportRow[]> {
  await flushLocalMetrics()
  const rows = await db.all<LocalMetricsRow>(
    `SELECT * FROM local_metrics WHERE day >= ? ORDER BY day DESC, name, key`,
    firstReportDay(days, now),
  )
  return rows.map((r) => ({ day: r.day, edition: edition.id, name: r.name, key: r.key, count: r.count, total: r.total }))
}
