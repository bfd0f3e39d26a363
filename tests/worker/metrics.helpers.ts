/** The daily report's sums of a local run (src/lib/metrics/metrics.server.ts) as the worker tests read them: `localReport`. */
import { env } from 'cloudflare:workers'
import { createDb } from '../../src/lib/server/db.ts'
import { localReport } from '../../src/lib/metrics/metrics.server.ts'

type Sums = Record<string, { count: number; total: number }>
const db = createDb(env.DB)

/** The sums of `day` (UTC; today by default), by `name key`. */
export async function metricSums(day = new Date()): Promise<Sums> {
  const rows = (await localReport(db, 1, day)).filter((r) => r.day === day.toISOString().slice(0, 10))
  return Object.fromEntries(rows.map((r) => [`${r.name} ${r.key}`, { count: r.count, total: r.total }]))
}

/** What `run` added to today's sums, by `name key` (only what changed). */
export async function metricsAddedBy(run: () => Promise<unknown>): Promise<Sums> {
  const before = await metricSums()
  await run()
  const after = await metricSums()
  return Object.fromEntries(
    Object.entries(after).flatMap(([k, v]) => {
      const was = before[k] ?? { count: 0, total: 0 }
      return v.count === was.count && v.total === was.total ? [] : [[k, { count: v.count - was.count, total: v.total - was.total }]]
    }),
  )
}
