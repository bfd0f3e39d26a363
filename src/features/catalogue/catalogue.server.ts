/** Catalogue reads from D1 (home sections, series detail); every list is bounded. */
import type { Db } from '../../lib/server/db.ts'
import type { ThemeSeriesRow } from '../../lib/server/db-types.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { earlyAt } from './early.server.ts'
import {
  CREATOR_ROLES,
  encodeCursor,
  sortSchedule,
  type Audience,
  type BannerDisplay,
  type ContentsRequest,
  type CreatorRole,
  type Genre,
  type ScheduleDay,
  type TabFilter,
  type Weekday,
} from './catalogue.ts'

export type SeriesCard = {
  id: number
  title: string
  genre: Genre
  isAdult: boolean
  coverKey: string | null
  coverWidth: number | null
  coverHeight: number | null
}

const CARD = `s.id, s.title, s.genre, s.is_adult AS isAdult, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight`
/** A row of CARD (and of CARD_JSON / RELATED_CARD once parsed). */
export type CardRow = Cols<'series', 'id' | 'title' | 'genre' | 'is_adult' | 'cover_key' | 'cover_width' | 'cover_height'>
/** The SQL condition on series `s` of what an audience may list (published; adult and BL per spec §5). */
export const visible = (a: Audience) => `s.is_published = 1${a.showAdult ? '' : ' AND s.is_adult = 0'}${a.showBl ? '' : ' AND s.is_bl = 0'}`

export function cards(rows: CardRow[]): SeriesCard[] {
  return rows.map((r) => ({ ...r, isAdult: flag(r.isAdult) }))
}

const CARD_JSON = `json_object('id', s.id, 'title', s.title, 'genre', s.genre, 'isAdult', s.is_adult, 'coverKey', s.cover_key, 'coverWidth', s.cover_width, 'coverHeight', s.cover_height)`
const BANNER_JSON = `json_object('id', id, 'display', display, 'title', title, 'subtitle', subtitle, 'link', link, 'imageKey', image_key, 'imageWidth', image_width, 'imageHeight', image_height)`
const cardList = (from: string) => `(SELECT json_group_array(${CARD_JSON.replace(/\bs\./g, 'x.')}) FROM (${from}) x)`

export type HomeSections = { weekly: SeriesCard[]; popular: SeriesCard[]; free: SeriesCard[]; latest: SeriesCard[] }

/**
 * Home page: today's weekly schedule, the ranking, free series, the newest launches and, with `now`, the
 * active HOME banners (adult ones only for an audience that may see adult series): ONE query, each list a
 * bounded JSON subquery (a home render costs one D1 round trip).
 */
export async function homeSections(db: Db, audience: Audience, today: Weekday, limit = 12): Promise<HomeSections> {
  return (await homePage(db, audience, today, new Date(), limit)).sections
}

export async function homePage(
  db: Db,
  audience: Audience,
  today: Weekday,
  now: Date,
  limit = 12,
): Promise<{ sections: HomeSections; banners: Banner[] }> {
  const v = visible(audience)
  const row = await db.first<Record<'weekly' | 'popular' | 'free' | 'latest' | 'banners', string>>(
    `SELECT
       ${cardList(`SELECT s.* FROM schedules sc JOIN series s ON s.id = sc.series_id WHERE sc.weekday = ?1 AND ${v} ORDER BY sc.position, s.id LIMIT ?2`)} AS weekly,
       ${cardList(`SELECT s.* FROM series s WHERE ${v} ORDER BY s.rank_score DESC, s.id LIMIT ?2`)} AS popular,
       ${cardList(`SELECT s.* FROM series s WHERE s.free_promo = 1 AND ${v} ORDER BY s.rank_score DESC, s.id LIMIT ?2`)} AS free,
       ${cardList(`SELECT s.* FROM series s WHERE ${v} ORDER BY s.launched_at DESC, s.id DESC LIMIT ?2`)} AS latest,
       (SELECT json_group_array(${BANNER_JSON}) FROM (SELECT * FROM banners
          WHERE placement = 'HOME' AND (starts_at IS NULL OR starts_at <= ?3) AND (ends_at IS NULL OR ends_at > ?3)${audience.showAdult ? '' : ' AND is_adult = 0'}
          ORDER BY position, id LIMIT 10)) AS banners`,
    today,
    limit,
    now.toISOString(),
  )
  const list = (json: string | undefined) => cards(JSON.parse(json ?? '[]') as CardRow[])
  return {
    sections: { weekly: list(row?.weekly), popular: list(row?.popular), free: list(row?.free), latest: list(row?.latest) },
    banners: JSON.parse(row?.banners ?? '[]'),
  }
}

export type SeriesDetail = SeriesCard & {
  description: string
  status: 'COMPLETED' | 'SCHEDULED' | 'PAUSED'
  type: 'IMAGE' | 'TEXT'
  /** Each with their id: their page is /creator/{id} (issue 37 point 2). */
  creators: { id: number; name: string; role: CreatorRole }[]
  tags: string[]
  /** Schedule groups the series updates in (weekdays and/or TEN), in week order. */
  schedule: ScheduleDay[]
  /** Next planned episode (series.next_update_at), null when none is planned. */
  nextUpdateAt: string | null
  /** Hours between two wait-until-free tickets (spec §4), null when the series has none. */
  wufHours: number | null
  /** Views counted by openEpisode (docs/API.md "View counts"): one per signed-in reader, episode and UTC day. */
  views: number
  /** Up to RELATED_SIZE visible series sharing the most tags (then the same genre), best ranked first. */
  related: SeriesCard[]
  /** Up to DETAIL_NOTICES published notices attached to the series, newest first. */
  notices: { id: number; title: string; publishedAt: string }[]
  episodes: {
    id: number
    no: number
    title: string
    free: boolean
    priceRent: number | null
    priceBuy: number | null
    publishedAt: string
    /** Its likes (issue 37 point 3), as the series' tally last added them. */
    likes: number
  }[]
  /** Its episodes open early (issue 37 point 1), by number: listed for signed-in readers only, else none. */
  early: { id: number; no: number; title: string; publishedAt: string; priceRent: number; priceBuy: number }[]
}

/** Related series shown on a detail page. */
const RELATED_SIZE = 6

const RELATED_CARD = `json_object('id', r.id, 'title', r.title, 'genre', r.genre, 'isAdult', r.is_adult, 'coverKey', r.cover_key, 'coverWidth', r.cover_width, 'coverHeight', r.cover_height)`

/** Spec §9 "detail notice count 2": notices attached to a series shown on its page. */
const DETAIL_NOTICES = 2

/**
 * One series with creators, tags, schedule, related series (visible to `audience`), its latest notices
 * and its published episodes (one dated later, scheduled or unpublished, is not listed), and for a signed-in reader's
 * audience (`withEarly`) those open early, in ONE query (every part a JSON subquery: a detail page costs one D1 round
 * trip), or null when unknown. Related series are those sharing tags (most shared first) and, to fill the row, the best
 * ranked of its genre sharing none: candidates from two index walks, never a scan of the catalogue (CROSS JOIN keeps
 * SQLite from driving the join from `series`).
 */
export async function seriesDetail(db: Db, id: number, audience: Audience, withEarly = false): Promise<SeriesDetail | null> {
  const relatedVisible = visible(audience).replace(/\bs\./g, 'r.')
  const series = await db.first<
    CardRow &
      Cols<'series', 'description' | 'status' | 'type' | 'next_update_at' | 'wuf_hours' | 'view_count'> &
      Record<'creators' | 'tags' | 'schedule' | 'related' | 'notices' | 'episodes' | 'early', string>
  >(
    `SELECT ${CARD}, s.description, s.status, s.type, s.next_update_at AS nextUpdateAt, s.wuf_hours AS wufHours, s.view_count AS viewCount,
      (SELECT json_group_array(json_object('id', c.id, 'name', c.name, 'role', sc.role)) FROM (SELECT * FROM series_creators WHERE series_id = s.id ORDER BY position, role) sc JOIN creators c ON c.id = sc.creator_id) AS creators,
      (SELECT json_group_array(t.name) FROM series_tags st JOIN tags t ON t.id = st.tag_id WHERE st.series_id = s.id) AS tags,
      (SELECT json_group_array(weekday) FROM schedules WHERE series_id = s.id) AS schedule,
      (SELECT json_group_array(${RELATED_CARD}) FROM (
         SELECT r.*, c.shared FROM (
             SELECT b.series_id AS id, COUNT(*) AS shared FROM series_tags a JOIN series_tags b ON b.tag_id = a.tag_id
             WHERE a.series_id = ?1 AND b.series_id <> ?1 GROUP BY b.series_id
           UNION ALL
             SELECT * FROM (
               SELECT r.id, 0 FROM series g JOIN series r ON r.genre = g.genre
               WHERE g.id = ?1 AND r.id <> ?1 AND ${relatedVisible}
                 AND r.id NOT IN (SELECT b.series_id FROM series_tags a JOIN series_tags b ON b.tag_id = a.tag_id WHERE a.series_id = ?1)
               ORDER BY r.rank_score DESC, r.id LIMIT ${RELATED_SIZE})
         ) c CROSS JOIN series r ON r.id = c.id
         WHERE ${relatedVisible}
         ORDER BY c.shared DESC, r.genre = (SELECT genre FROM series WHERE id = ?1) DESC, r.rank_score DESC, r.id LIMIT ${RELATED_SIZE}) r) AS related,
      (SELECT json_group_array(json_object('id', n.id, 'title', n.title, 'publishedAt', n.published_at)) FROM (
         SELECT id, title, published_at FROM notices WHERE series_id = s.id AND published_at <= ?2 ORDER BY published_at DESC LIMIT ${DETAIL_NOTICES}) n) AS notices,
      (SELECT json_group_array(json_array(e.id, e.no, e.title, e.is_free, e.price_rent, e.price_buy, e.published_at, e.like_count)) FROM (
         SELECT id, no, title, is_free, price_rent, price_buy, published_at, like_count FROM episodes WHERE series_id = s.id AND published_at <= ?2 ORDER BY no LIMIT 1000) e) AS episodes,
      ${
        withEarly
          ? `(SELECT json_group_array(json_object('id', e.id, 'no', e.no, 'title', e.title, 'publishedAt', e.published_at, 'priceRent', e.early_rent, 'priceBuy', e.early_buy))
               FROM (SELECT * FROM episodes e WHERE e.series_id = s.id AND ${earlyAt('e', '?2')} ORDER BY e.no LIMIT 100) e)`
          : `'[]'`
      } AS early
     FROM series s WHERE s.id = ?1 AND s.is_published = 1`,
    id,
    new Date().toISOString(),
  )
  if (!series) return null
  const episodes = JSON.parse(series.episodes) as [number, number, string, Flag, number | null, number | null, string, number][]
  return {
    ...cards([series])[0]!,
    description: series.description,
    status: series.status,
    type: series.type,
    creators: JSON.parse(series.creators),
    tags: JSON.parse(series.tags),
    schedule: sortSchedule(JSON.parse(series.schedule)),
    nextUpdateAt: series.nextUpdateAt ?? null,
    wufHours: series.wufHours ?? null,
    views: series.viewCount,
    related: cards(JSON.parse(series.related) as CardRow[]),
    notices: JSON.parse(series.notices),
    episodes: episodes.map(([id, no, title, free, priceRent, priceBuy, publishedAt, likes]) => ({
      id,
      no,
      title,
      free: flag(free),
      priceRent,
      priceBuy,
      publishedAt,
      likes,
    })),
    early: JSON.parse(series.early),
  }
}

/** Series a creator page lists at most. */
const CREATOR_WORKS = 200

/** A creator's page (issue 37 point 2): their name and their series the audience may see, by role (spec §3 roles). */
export type CreatorWorks = { id: number; name: string; works: { role: CreatorRole; series: SeriesCard[] }[] }

/**
 * `/creator/{id}` and `GET /api/v1/contents/creators/{id}`: the creator and the series the audience may list, grouped by
 * their role in it (in CREATOR_ROLES order), best ranked first, in one query; null for an unknown creator.
 */
export async function creatorWorks(db: Db, id: number, audience: Audience): Promise<CreatorWorks | null> {
  const row = await db.first<{ id: number; name: string; works: string }>(
    `SELECT c.id, c.name,
       (SELECT json_group_array(json_object('role', x.role, 'card', json(x.card))) FROM (
          SELECT sc.role, ${CARD_JSON} AS card FROM series_creators sc JOIN series s ON s.id = sc.series_id
           WHERE sc.creator_id = c.id AND ${visible(audience)} ORDER BY s.rank_score DESC, s.id LIMIT ${CREATOR_WORKS}) x) AS works
     FROM creators c WHERE c.id = ?`,
    id,
  )
  if (!row) return null
  const works = JSON.parse(row.works) as { role: CreatorRole; card: CardRow }[]
  return {
    id: row.id,
    name: row.name,
    works: CREATOR_ROLES.flatMap((role) => {
      const series = cards(works.filter((w) => w.role === role).map((w) => w.card))
      return series.length ? [{ role, series }] : []
    }),
  }
}

/** Whether a series row exists at all (published or not): a withdrawn series is INVALID_CONTENTS, an unknown id NOT_EXIST. */
export async function seriesExists(db: Db, id: number): Promise<boolean> {
  return (await db.first(`SELECT 1 AS x FROM series WHERE id = ?`, id)) !== null
}

// ───────────────────────────── home tabs (GET /api/v1/contents, /home/*) ─────────────────────────────

export type ContentsPage = { items: SeriesCard[]; next: string | null }

function filterSql(f: TabFilter): { join: string; where: string; params: unknown[] } {
  switch (f.kind) {
    case 'schedule':
      return { join: 'JOIN schedules sc ON sc.series_id = s.id', where: 'sc.weekday = ?', params: [f.day] }
    case 'all':
      return { join: '', where: '1 = 1', params: [] }
    case 'free':
      return { join: '', where: 's.free_promo = 1', params: [] }
    case 'bl':
      return { join: '', where: 's.is_bl = 1', params: [] }
    case 'adult':
      return { join: '', where: 's.is_adult = 1', params: [] }
    case 'genre':
      return { join: '', where: 's.genre = ?', params: [f.genre] }
    case 'wuf':
      return { join: '', where: 's.wuf_hours IS NOT NULL', params: [] }
  }
}

const ORDER_SQL = {
  schedule: { key: 'sc.position', by: 'sc.position, s.id', after: '(sc.position > ? OR (sc.position = ? AND s.id > ?))' },
  rank: { key: 's.rank_score', by: 's.rank_score DESC, s.id', after: '(s.rank_score < ? OR (s.rank_score = ? AND s.id > ?))' },
  newest: {
    key: "COALESCE(s.launched_at, '')",
    by: "COALESCE(s.launched_at, '') DESC, s.id DESC",
    after: "(COALESCE(s.launched_at, '') < ? OR (COALESCE(s.launched_at, '') = ? AND s.id < ?))",
  },
} as const

/** One page of a home tab (1 query: `size + 1` rows tell whether a next page exists). */
export async function listContents(db: Db, req: ContentsRequest, audience: Audience): Promise<ContentsPage> {
  const f = filterSql(req.filter)
  const o = ORDER_SQL[req.order]
  const where = [visible(audience), f.where]
  const params: unknown[] = [...f.params]
  if (req.cursor) {
    where.push(o.after)
    params.push(req.cursor.k, req.cursor.k, req.cursor.id)
  }
  const rows = await db.all<CardRow & { sortKey: string | number }>(
    `SELECT ${CARD}, ${o.key} AS sortKey FROM series s ${f.join} WHERE ${where.join(' AND ')} ORDER BY ${o.by} LIMIT ?`,
    ...params,
    req.size + 1,
  )
  const page = rows.slice(0, req.size)
  const last = page[page.length - 1]
  const next = rows.length > req.size && last ? encodeCursor({ k: last.sortKey, id: last.id }) : null
  return { items: cards(page.map(({ sortKey: _, ...r }) => r)), next }
}

export type Theme = { id: number; title: string; description: string; items: SeriesCard[] }

const ACTIVE_THEME = `t.is_active = 1 AND (t.starts_at IS NULL OR t.starts_at <= ?) AND (t.ends_at IS NULL OR t.ends_at > ?)`

/** Active themes (/home/pick), each with up to `perTheme` visible series (2 queries). */
export async function listThemes(db: Db, audience: Audience, now: Date, perTheme = 12, maxThemes = 20): Promise<Theme[]> {
  const iso = now.toISOString()
  const themes = await db.all<Cols<'themes', 'id' | 'title' | 'description'>>(
    `SELECT t.id, t.title, t.description FROM themes t WHERE ${ACTIVE_THEME} ORDER BY t.position, t.id LIMIT ?`,
    iso,
    iso,
    maxThemes,
  )
  if (themes.length === 0) return []
  const ids = themes.map((t) => t.id)
  const rows = await db.all<CardRow & { themeId: ThemeSeriesRow['theme_id']; n: number }>(
    `SELECT * FROM (SELECT ts.theme_id AS themeId, ${CARD}, ROW_NUMBER() OVER (PARTITION BY ts.theme_id ORDER BY ts.position, s.id) AS n
       FROM theme_series ts JOIN series s ON s.id = ts.series_id
       WHERE ts.theme_id IN (${ids.map(() => '?').join(',')}) AND ${visible(audience)}) WHERE n <= ? ORDER BY themeId, n`,
    ...ids,
    perTheme,
  )
  return themes.map((t) => ({ ...t, items: cards(rows.filter((r) => r.themeId === t.id).map(({ themeId: _, n: __, ...r }) => r)) }))
}

/** One active theme with its visible series (2 queries), or null (NOT_FOUND_THEME). */
export async function themeDetail(db: Db, id: number, audience: Audience, now: Date, limit = 100): Promise<Theme | null> {
  const iso = now.toISOString()
  const [theme, rows] = await Promise.all([
    db.first<Cols<'themes', 'id' | 'title' | 'description'>>(
      `SELECT t.id, t.title, t.description FROM themes t WHERE t.id = ? AND ${ACTIVE_THEME}`,
      id,
      iso,
      iso,
    ),
    db.all<CardRow>(
      `SELECT ${CARD} FROM theme_series ts JOIN series s ON s.id = ts.series_id WHERE ts.theme_id = ? AND ${visible(audience)} ORDER BY ts.position, s.id LIMIT ?`,
      id,
      limit,
    ),
  ])
  return theme ? { ...theme, items: cards(rows) } : null
}

// ───────────────────────────── SEO: sitemap ─────────────────────────────

/** Spec/QUALITY: one sitemap file holds at most 50,000 URLs; we stay under with a margin. */
const SITEMAP_MAX_URLS = 45_000

export type SitemapSeries = {
  id: number
  updatedAt: string
  freeEpisodes: { id: number; publishedAt: string }[]
  /** Its creators' ids: their pages (issue 37 point 2) are listed once each. */
  creators: number[]
}

/**
 * Every public series (published, not adult), its free episodes and its creators (1 query, bounded). BL series are
 * public (spec §5: shown when not logged in).
 */
export async function sitemapSeries(db: Db, limit = SITEMAP_MAX_URLS): Promise<SitemapSeries[]> {
  const rows = await db.all<Cols<'series', 'id' | 'updated_at'> & { free: string; creators: string }>(
    `SELECT s.id, s.updated_at AS updatedAt,
       (SELECT json_group_array(json_object('id', e.id, 'publishedAt', e.published_at)) FROM (SELECT id, published_at FROM episodes WHERE series_id = s.id AND is_free = 1 ORDER BY no LIMIT 100) e) AS free,
       (SELECT json_group_array(DISTINCT creator_id) FROM series_creators WHERE series_id = s.id) AS creators
     FROM series s WHERE s.is_published = 1 AND s.is_adult = 0 ORDER BY s.id LIMIT ?`,
    limit,
  )
  return rows.map((r) => ({ id: r.id, updatedAt: r.updatedAt, freeEpisodes: JSON.parse(r.free), creators: JSON.parse(r.creators) }))
}

// ───────────────────────────── banners ─────────────────────────────

export type Banner = {
  id: number
  display: BannerDisplay
  title: string
  subtitle: string | null
  link: string
  imageKey: string | null
  imageWidth: number | null
  imageHeight: number | null
}
