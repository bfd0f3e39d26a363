/**
 * Counting the daily report's figures (issue 39 point 3; rules in metrics.ts). `countMetric` writes one Analytics Engine
 * data point (the `METRICS` binding: it returns at once and never fails the work that counts); a local run, whose
 * Analytics Engine stores nothing, also adds it to its UTC day's sums in D1 (one upsert), which `localReport` answers.
 */
import { env } from 'cloudflare:workers'
import { edition } from 'virtual:edition'
import { createDb, type Db } from '../server/db.ts'
import { isLocalRun } from '../server/local-run.ts'
import type { LocalMetricsRow } from '../server/db-types.ts'
import { dataPoint, firstReportDay, type Metric, type ReportRow } from './metrics.ts'

/** Counts `m` now. Only logged when it cannot be counted. */
export async function countMetric(m: Metric, now = new Date()): Promise<void> {
  try {
    env.METRICS?.writeDataPoint(dataPoint(edition.id, m))
    if (!isLocalRun()) return
    await createDb(env.DB).run(
      `INSERT INTO local_metrics (day, name, key, count, total) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (day, name, key) DO UPDATE SET count = count + excluded.count, total = total + excluded.total`,
      now.toISOString().slice(0, 10),
      m.name,
      m.key ?? '',
      m.count ?? 1,
      m.total ?? 0,
    )
  } catch (e) {
    console.error(JSON.stringify({ event: 'ops.metric.failed', metric: m, error: String(e) }))
  }
}

/** A local run's report: its sums of the last `days` UTC days, newest day first, in the shape of `reportSql`'s rows. */
export async function localReport(db: Db, days: number, now = new Date()): Promise<ReportRow[]> {
  const rows = await db.all<LocalMetricsRow>(
    `SELECT * FROM local_metrics WHERE day >= ? ORDER BY day DESC, name, key`,
    firstReportDay(days, now),
  )
  return rows.map((r) => ({ day: r.day, edition: edition.id, name: r.name, key: r.key, count: r.count, total: r.total }))
}
