/**
 * The operator's catalogue changes on D1 (docs/API.md "Operator API" `/api/ops/episodes`, `/api/ops/series`): an
 * episode scheduled or taken down, a series published or withdrawn, its weekly schedule. Reader pages follow within
 * the edge cache's minute (functions/middleware/edge-cache.ts); the API at once.
 */
import { opsPage, type OpsListQuery, type OpsPage } from '../../lib/ops.ts'
import type { Db } from '../../lib/server/db.ts'
import type { Cols, Flag } from '../../lib/server/rows.ts'
import { firstRow, flag, rows } from '../../lib/server/rows.ts'
import { sortSchedule, type ScheduleDay } from './catalogue.ts'
import { EPISODE_UNPUBLISHED_AT, episodeState, seriesState, type SeriesListQuery } from './catalogue-ops.ts'

/** An episode as the operator sees it, whatever its state. */
export type OpsEpisode = Cols<'episodes', 'id' | 'series_id' | 'no' | 'title' | 'published_at' | 'announced_at'> & {
  state: ReturnType<typeof episodeState>
}
const EPISODE_COLUMNS = `id, series_id AS seriesId, no, title, published_at AS publishedAt, announced_at AS announcedAt`
type EpisodeRow = Omit<OpsEpisode, 'state'>
const toOpsEpisode = (r: EpisodeRow, now: Date): OpsEpisode => ({ ...r, state: episodeState(r.publishedAt, now) })

async function episodeRow(db: Db, id: number): Promise<EpisodeRow | null> {
  return db.first<EpisodeRow>(`SELECT ${EPISODE_COLUMNS} FROM episodes WHERE id = ?`, id)
}

/**
 * Dates an episode at `publishedAt` (a future instant: the caller checks) when its alarms were never queued, so the
 * cron announces it then (`announced_at` stays NULL). `scheduled` false: it was announced already, nothing changed.
 * Null for an unknown id.
 */
export async function scheduleEpisode(
  db: Db,
  id: number,
  publishedAt: string,
  now: Date,
): Promise<{ episode: OpsEpisode; scheduled: boolean } | null> {
  const row = await db.first<EpisodeRow>(
    `UPDATE episodes SET published_at = ?2 WHERE id = ?1 AND announced_at IS NULL RETURNING ${EPISODE_COLUMNS}`,
    id,
    publishedAt,
  )
  if (row) return { episode: toOpsEpisode(row, now), scheduled: true }
  const known = await episodeRow(db, id)
  return known && { episode: toOpsEpisode(known, now), scheduled: false }
}

/**
 * Takes an episode down (`EPISODE_UNPUBLISHED_AT`): off the series page, the viewer and every list; ownerships are
 * kept. Its announcement is cleared, so `episode schedule` or `episode publish` brings it back and announces it to
 * whoever was not told yet (an alarm is written once per reader and episode). An early opening (early.server.ts) ends
 * with it. Null for an unknown id or an episode already down (nothing changes).
 */
export async function unpublishEpisode(db: Db, id: number, now: Date): Promise<OpsEpisode | null> {
  const row = await db.first<EpisodeRow>(
    `UPDATE episodes SET published_at = ?2, announced_at = NULL, early_at = NULL WHERE id = ?1 AND published_at < ?2 RETURNING ${EPISODE_COLUMNS}`,
    id,
    EPISODE_UNPUBLISHED_AT,
  )
  return row && toOpsEpisode(row, now)
}

/** A series as the operator sees it: published or not, its weekly schedule. */
export type OpsSeries = { id: number; title: string; isPublished: boolean; schedule: ScheduleDay[] }

async function opsSeries(db: Db, id: number): Promise<OpsSeries | null> {
  const row = await db.first<Cols<'series', 'id' | 'title' | 'is_published'> & { schedule: string }>(
    `SELECT id, title, is_published AS isPublished, (SELECT json_group_array(weekday) FROM schedules WHERE series_id = s.id) AS schedule
       FROM series s WHERE id = ?`,
    id,
  )
  return row && { id: row.id, title: row.title, isPublished: flag(row.isPublished), schedule: sortSchedule(JSON.parse(row.schedule)) }
}

/**
 * Publishes a series or withdraws it (`series.is_published`: a withdrawn series is off every list and its page answers
 * INVALID_CONTENTS; ownerships are kept). `changed` false: it was so already. Null for an unknown id.
 */
export async function setSeriesPublished(
  db: Db,
  id: number,
  published: boolean,
  now: Date,
): Promise<{ series: OpsSeries; changed: boolean } | null> {
  const changed = await db.first(
    `UPDATE series SET is_published = ?2, updated_at = ?3 WHERE id = ?1 AND is_published <> ?2 RETURNING id`,
    id,
    published ? 1 : 0,
    now.toISOString(),
  )
  const series = await opsSeries(db, id)
  return series && { series, changed: changed !== null }
}

/**
 * Replaces a series' weekly schedule with `days` in one batch: days it leaves are deleted, days it keeps keep their
 * place, new days go to the end of that day's list. Null for an unknown id (nothing written).
 */
export async function setSeriesSchedule(db: Db, id: number, days: readonly ScheduleDay[]): Promise<OpsSeries | null> {
  const list = JSON.stringify(days)
  await db.batch([
    { sql: `DELETE FROM schedules WHERE series_id = ?1 AND weekday NOT IN (SELECT value FROM json_each(?2))`, params: [id, list] },
    {
      sql: `INSERT INTO schedules (series_id, weekday, position)
            SELECT ?1, d.value, coalesce((SELECT max(position) + 1 FROM schedules WHERE weekday = d.value), 0)
              FROM json_each(?2) d WHERE EXISTS (SELECT 1 FROM series WHERE id = ?1)
            ON CONFLICT (series_id, weekday) DO NOTHING`,
      params: [id, list],
    },
  ])
  return opsSeries(db, id)
}

/** A series in the operator's list: where it stands, its episodes (all, and out now) and the next one dated later. */
export type OpsSeriesItem = Cols<'series', 'id' | 'title'> & {
  isAdult: boolean
  isPublished: boolean
  state: ReturnType<typeof seriesState>
  episodes: number
  published: number
  nextEpisodeAt: string | null
}

/**
 * One page of series, newest first, whose title contains `q` (docs/API.md `GET /api/ops/series`): 1 query, the
 * episode counts read through the (series_id, no) index. `instr`, not LIKE: no wildcard to escape, and D1 refuses a
 * LIKE pattern over 50 bytes.
 */
export async function listOpsSeries(db: Db, query: SeriesListQuery, now: Date): Promise<OpsPage<OpsSeriesItem>> {
  const found = await db.all<
    Cols<'series', 'id' | 'title'> & {
      isAdult: Flag
      isPublished: Flag
      importing: Flag
      episodes: number
      published: number
      nextEpisodeAt: string | null
    }
  >(
    `SELECT s.id, s.title, s.is_adult AS isAdult, s.is_published AS isPublished,
            EXISTS (SELECT 1 FROM series_imports i WHERE i.series_id = s.id) AS importing,
            (SELECT count(*) FROM episodes e WHERE e.series_id = s.id) AS episodes,
            (SELECT count(*) FROM episodes e WHERE e.series_id = s.id AND e.published_at <= ?1) AS published,
            (SELECT min(e.published_at) FROM episodes e WHERE e.series_id = s.id AND e.published_at > ?1 AND e.published_at < ?2) AS nextEpisodeAt
       FROM series s
      WHERE (?3 IS NULL OR instr(lower(s.title), lower(?3)) > 0) AND (?4 IS NULL OR s.id < ?4)
      ORDER BY s.id DESC LIMIT ?5`,
    now.toISOString(),
    EPISODE_UNPUBLISHED_AT,
    query.q ?? null,
    query.cursor ?? null,
    query.limit + 1,
  )
  const items = found.map(({ importing, ...r }): OpsSeriesItem => {
    const s = { ...r, isAdult: flag(r.isAdult), isPublished: flag(r.isPublished) }
    return { ...s, state: seriesState({ ...s, importing: flag(importing) }) }
  })
  return opsPage(items, query.limit, (s) => s.id)
}

/**
 * An episode in the operator's list of a series: where it stands (UPLOADING: added by `episode add`, its upload not
 * finished), its price (free, or coins to rent and to buy), and when it opened early with its early prices.
 */
export type OpsEpisodeItem = Omit<OpsEpisode, 'seriesId' | 'state'> & { state: OpsEpisode['state'] | 'UPLOADING'; isFree: boolean } & Cols<
    'episodes',
    'price_rent' | 'price_buy' | 'early_at' | 'early_rent' | 'early_buy'
  >

/**
 * One page of a series' episodes, latest number first (docs/API.md `GET /api/ops/series/{id}/episodes`; the cursor is
 * an episode number): 1 batch, the series and its episodes. Null for an unknown series.
 */
export async function listOpsEpisodes(
  db: Db,
  seriesId: number,
  query: OpsListQuery,
  now: Date,
): Promise<(OpsPage<OpsEpisodeItem> & { series: Cols<'series', 'id' | 'title'> }) | null> {
  const [series, episodes] = await db.batch([
    { sql: `SELECT id, title FROM series WHERE id = ?`, params: [seriesId] },
    {
      sql: `SELECT id, no, title, is_free AS isFree, price_rent AS priceRent, price_buy AS priceBuy, published_at AS publishedAt,
                   announced_at AS announcedAt, early_at AS earlyAt, early_rent AS earlyRent, early_buy AS earlyBuy,
                   EXISTS (SELECT 1 FROM episode_uploads u WHERE u.episode_id = episodes.id AND u.kind = 'EPISODE') AS uploading
              FROM episodes WHERE series_id = ?1 AND (?2 IS NULL OR no < ?2) ORDER BY no DESC LIMIT ?3`,
      params: [seriesId, query.cursor ?? null, query.limit + 1],
    },
  ])
  const found = firstRow<Cols<'series', 'id' | 'title'>>(series)
  if (!found) return null
  const items = rows<Omit<OpsEpisodeItem, 'isFree' | 'state'> & { isFree: Flag; uploading: Flag }>(episodes).map(
    ({ uploading, ...e }): OpsEpisodeItem => ({
      ...e,
      isFree: flag(e.isFree),
      state: flag(uploading) ? 'UPLOADING' : episodeState(e.publishedAt, now),
    }),
  )
  return { series: found, ...opsPage(items, query.limit, (e) => e.no) }
}
