/**
 * Early access (issue 37 point 1; docs/ARCHITECTURE.md "Early access"): an operator opens a series' next scheduled
 * episodes to signed-in readers, who may rent or buy them before their publication at the prices kept on the episode
 * (the edition's early prices when it was opened). At its `published_at` an early episode is an ordinary one at its
 * own prices; what readers bought is theirs like any purchase. Every path that sells, previews or opens an episode,
 * and a like or a problem report of it, uses `opensAt` and `termsAt`, so the rule is written once; the paths that
 * only list published episodes (wait-until-free, gifts, comments, rankings, continuous reading) keep
 * `published_at <= now` and never see an early one.
 */
import type { Db } from '../../lib/server/db.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { EPISODE_UNPUBLISHED_AT } from './catalogue-ops.ts'

/** SQL condition: episode `e` opens at `now` (an SQL parameter): published, or opened early. */
export const opensAt = (e: string, now: string) => `(${e}.published_at <= ${now} OR ${e}.early_at <= ${now})`

/** SQL condition: episode `e` is open early at `now`: opened, and not published yet. */
export const earlyAt = (e: string, now: string) => `(${e}.early_at <= ${now} AND ${e}.published_at > ${now})`

/**
 * SQL columns: episode `e`'s sale terms at `now` (`isFree`, `priceRent`, `priceBuy`, `early`): its own once published;
 * before that, when it opened early, never free and at its early prices, `early` 1.
 */
export const termsAt = (e: string, now: string) =>
  `CASE WHEN ${e}.published_at <= ${now} THEN ${e}.is_free ELSE 0 END AS isFree,
   CASE WHEN ${e}.published_at <= ${now} THEN ${e}.price_rent ELSE ${e}.early_rent END AS priceRent,
   CASE WHEN ${e}.published_at <= ${now} THEN ${e}.price_buy ELSE ${e}.early_buy END AS priceBuy,
   ${e}.published_at > ${now} AS early`

/** An episode open early: its number, title, publication and early prices. */
export type EarlyEpisode = Cols<'episodes', 'id' | 'no' | 'title' | 'published_at' | 'early_at'> & { priceRent: number; priceBuy: number }

const EARLY_COLUMNS = `id, no, title, published_at AS publishedAt, early_at AS earlyAt, early_rent AS priceRent, early_buy AS priceBuy`

/** The queue the early alarms go on (the alarm queue: `{kind: 'early'}` fan-outs, alarm.server.ts). */
type EarlyQueue = {
  sendBatch(messages: Iterable<MessageSendRequest<{ kind: 'early'; episodeId: number; after: number }>>): Promise<unknown>
}

/**
 * Opens the next `count` scheduled episodes of series `seriesId` (by number, not taken down, no upload running) that
 * are not open early yet, at `prices`, in one conditional UPDATE (two operators at once open each episode once), and
 * queues each one's alarm to the series' favourites; if the queue refuses, the opening is taken back. Answers the
 * episodes it opened and every episode of the series open early now; null for an unknown series.
 */
export async function openEarly(
  db: Db,
  queue: EarlyQueue,
  seriesId: number,
  count: number,
  prices: { rent: number; buy: number },
  now = new Date(),
): Promise<{ opened: EarlyEpisode[]; early: EarlyEpisode[] } | null> {
  if (!(await db.first(`SELECT 1 AS x FROM series WHERE id = ?`, seriesId))) return null
  const at = now.toISOString()
  const opened = await db.all<EarlyEpisode>(
    `UPDATE episodes SET early_at = ?1, early_rent = ?4, early_buy = ?5
      WHERE id IN (SELECT e.id FROM episodes e
                    WHERE e.series_id = ?2 AND e.published_at > ?1 AND e.published_at < ?6
                      AND NOT EXISTS (SELECT 1 FROM episode_uploads u WHERE u.episode_id = e.id)
                    ORDER BY e.no LIMIT ?3)
        AND early_at IS NULL
      RETURNING ${EARLY_COLUMNS}`,
    at,
    seriesId,
    count,
    prices.rent,
    prices.buy,
    EPISODE_UNPUBLISHED_AT,
  )
  if (opened.length > 0)
    await queue
      .sendBatch(opened.map((e) => ({ body: { kind: 'early' as const, episodeId: e.id, after: 0 }, contentType: 'json' as const })))
      .catch(async (e: unknown) => {
        const ids = JSON.stringify(opened.map((o) => o.id))
        await db.run(`UPDATE episodes SET early_at = NULL WHERE id IN (SELECT value FROM json_each(?)) AND early_at = ?`, ids, at)
        throw e
      })
  opened.sort((a, b) => a.no - b.no)
  return { opened, early: await earlyEpisodes(db, seriesId, now) }
}

/** The episodes of series `seriesId` open early at `now` (not published yet), by number. */
async function earlyEpisodes(db: Db, seriesId: number, now: Date): Promise<EarlyEpisode[]> {
  return db.all<EarlyEpisode>(
    `SELECT ${EARLY_COLUMNS} FROM episodes e WHERE series_id = ?1 AND ${earlyAt('e', '?2')} ORDER BY no`,
    seriesId,
    now.toISOString(),
  )
}
