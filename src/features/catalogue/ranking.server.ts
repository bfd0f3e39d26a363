/**
 * The ranking aggregate (migration 0005 series_ranking) refreshed from reading progress and purchases, by the
 * worker's cron trigger every 10 minutes (functions/worker.ts `scheduled`), once for the whole edition.
 */
import type { Db } from '../../lib/server/db.ts'
import { ACTIVITY_UNIT, RANKING_WEIGHTS, VIEWS_CAP, rankingWindowStart } from './ranking.ts'

/**
 * Recounts every series' readers and purchases in the window and writes the score to series_ranking and
 * series.rank_score (score as `rankingScore` of ranking.ts), in one D1 batch (atomic: lists never see half a refresh). Bounded by the number of
 * series; each count is an index range scan (reading_progress_series_recent, purchases_series_recent).
 */
export async function refreshRanking(db: Db, now = new Date()): Promise<void> {
  const since = rankingWindowStart(now)
  const w = RANKING_WEIGHTS
  await db.batch([
    {
      sql: `INSERT INTO series_ranking (series_id, readers, purchases, views, score, refreshed_at)
            SELECT id, readers, purchases, views, (readers * ${w.reader} + purchases * ${w.purchase}) * ${ACTIVITY_UNIT} + MIN(views, ${VIEWS_CAP}), ?2 FROM (
              SELECT s.id,
                (SELECT COUNT(*) FROM reading_progress rp WHERE rp.series_id = s.id AND rp.updated_at >= ?1) AS readers,
                (SELECT COUNT(*) FROM purchases p WHERE p.series_id = s.id AND p.created_at >= ?1) AS purchases,
                s.view_count AS views
              FROM series s)
            WHERE true
            ON CONFLICT (series_id) DO UPDATE SET readers = excluded.readers, purchases = excluded.purchases,
              views = excluded.views, score = excluded.score, refreshed_at = excluded.refreshed_at`,
      params: [since, now.toISOString()],
    },
    {
      sql: `UPDATE series SET rank_score = r.score FROM series_ranking r WHERE r.series_id = series.id AND series.rank_score <> r.score`,
    },
  ])
}
