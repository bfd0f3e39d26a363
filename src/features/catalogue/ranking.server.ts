/**
 * The ranking aggregate (migration 0005 series_ranking) refreshed from the daily counters of reads and purchases
 * (migration 0015 series_daily, kept by triggers as reads and purchases are written), by the worker's cron
 * trigger every 10 minutes (functions/worker.ts `scheduled`), once for the whole edition.
 */
import type { Db } from '../../lib/server/db.ts'
import { ACTIVITY_UNIT, RANKING_WEIGHTS, VIEWS_CAP, rankingFirstDay } from './ranking.ts'

/** Counter rows older than the window deleted per run (a day adds one per active series; a missed run catches up). */
const PRUNE_LIMIT = 1000

/**
 * Sums every series' daily counters over the window and writes the score to series_ranking and
 * series.rank_score (score: (readers × reader weight + purchases × purchase weight) × ACTIVITY_UNIT + views up to VIEWS_CAP, ranking.ts), then drops counter rows older than the window, in
 * one D1 batch (atomic: lists never see half a refresh). Reads at most 30 counter rows per series: the work
 * grows with the number of series, not of readers. Returns the rows D1 read and wrote (result meta).
 */
export async function refreshRanking(db: Db, now = new Date()): Promise<{ rowsRead: number; rowsWritten: number }> {
  const firstDay = rankingFirstDay(now)
  const w = RANKING_WEIGHTS
  const results = await db.batch([
    {
      sql: `INSERT INTO series_ranking (series_id, readers, purchases, views, score, refreshed_at)
            SELECT id, readers, purchases, views, (readers * ${w.reader} + purchases * ${w.purchase}) * ${ACTIVITY_UNIT} + MIN(views, ${VIEWS_CAP}), ?2 FROM (
              SELECT s.id, coalesce(d.readers, 0) AS readers, coalesce(d.purchases, 0) AS purchases, s.view_count AS views
              FROM series s LEFT JOIN (
                SELECT series_id, SUM(readers) AS readers, SUM(purchases) AS purchases FROM series_daily WHERE day >= ?1 GROUP BY series_id
              ) d ON d.series_id = s.id)
            WHERE true
            ON CONFLICT (series_id) DO UPDATE SET readers = excluded.readers, purchases = excluded.purchases,
              views = excluded.views, score = excluded.score, refreshed_at = excluded.refreshed_at`,
      params: [firstDay, now.toISOString()],
    },
    {
      sql: `UPDATE series SET rank_score = r.score FROM series_ranking r WHERE r.series_id = series.id AND series.rank_score <> r.score`,
    },
    {
      sql: `DELETE FROM series_daily WHERE (day, series_id) IN (SELECT day, series_id FROM series_daily WHERE day < ? ORDER BY day LIMIT ${PRUNE_LIMIT})`,
      params: [firstDay],
    },
  ])
  return {
    rowsRead: results.reduce((n, r) => n + (r.meta.rows_read ?? 0), 0),
    rowsWritten: results.reduce((n, r) => n + (r.meta.rows_written ?? 0), 0),
  }
}
