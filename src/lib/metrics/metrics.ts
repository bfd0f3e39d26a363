/**
 * The daily report's figures (issue 39 point 3; docs/ARCHITECTURE.md "The daily report"): what the worker counts as it
 * happens, one data point each, into Workers Analytics Engine (the dataset `METRICS_DATASET`, shared by the editions),
 * which the CLI reads through Cloudflare's SQL API (`reportSql`) — never by querying readers' data. Each point is
 * `index1` = `blob1` = the edition, `blob2` = the metric's name, `blob3` = its key, `double1` = how many, `double2` = the
 * total (an amount, coins). A local run, where Analytics Engine stores nothing, keeps the same sums per UTC day in D1
 * (migrations/0045_local_metrics.sql) and answers them at `GET /api/ops/report`.
 */
import { z } from 'zod'
import { RowIdText } from '../ids.ts'

/**
 * What is counted: what the report calls it, what its key is, and what its total is (`money`: in minor units of the key's
 * currency, as payments are stored; null: none).
 */
export const METRICS = {
  topup: { says: 'top-ups paid', key: 'currency', total: 'money' },
  refund: { says: 'payments refunded', key: 'currency', total: 'money' },
  dispute: { says: 'payments disputed', key: 'currency', total: 'money' },
  debt: { says: 'debts opened by a reversal', key: null, total: 'coins owed' },
  purchase: { says: 'episodes sold for coins', key: 'kind', total: 'coins spent' },
  signup: { says: 'accounts created', key: 'way', total: null },
  active: { says: 'readers active (signed in)', key: null, total: null },
  alert: { says: 'trouble', key: 'kind', total: null },
} as const satisfies Record<string, { says: string; key: string | null; total: string | null }>

export type MetricName = keyof typeof METRICS

/** One counted happening: `count` of them (default 1), `total` their amount or coins (default 0). */
export type Metric = { name: MetricName; key?: string; count?: number; total?: number }

/** The Analytics Engine dataset of every edition (wrangler.jsonc `analytics_engine_datasets`). */
export const METRICS_DATASET = 'webtoon_metrics'

/** Days a report looks back at most (Analytics Engine keeps its points 3 months). */
export const MAX_REPORT_DAYS = 90

/** `GET /api/ops/report?days=` and `npm run ops -- report --days`: the last `days` UTC days (default 7). */
export const DailyReportQuery = z.object({ days: RowIdText.refine((n) => n <= MAX_REPORT_DAYS).default(7) })
export type DailyReportQuery = z.infer<typeof DailyReportQuery>

/** One UTC day's sum of one metric and key in one edition. */
export type ReportRow = { day: string; edition: string; name: string; key: string; count: number; total: number }

/** The data point Analytics Engine stores for `m` in `edition`. */
export function dataPoint(edition: string, m: Metric): AnalyticsEngineDataPoint {
  return { indexes: [edition], blobs: [edition, m.name, m.key ?? ''], doubles: [m.count ?? 1, m.total ?? 0] }
}

/** The first UTC day of a report of the last `days` days, today included. */
export const firstReportDay = (days: number, now: Date) => new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10)

/**
 * The report's query in Analytics Engine's SQL: sums per UTC day, edition, metric and key over the last `days` days,
 * each point weighted by its `_sample_interval` (Analytics Engine samples at high volume). `days` is a checked integer.
 */
export function reportSql(days: number, now: Date): string {
  return `SELECT formatDateTime(timestamp, '%Y-%m-%d') AS day, blob1 AS edition, blob2 AS name, blob3 AS key,
  SUM(_sample_interval * double1) AS count, SUM(_sample_interval * double2) AS total
FROM ${METRICS_DATASET}
WHERE timestamp >= toDateTime('${firstReportDay(days, now)} 00:00:00')
GROUP BY day, edition, name, key
ORDER BY day DESC, edition, name, key
FORMAT JSON`
}
