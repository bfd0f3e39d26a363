/** Catalogue reads from D1 (home sections, series detail); every list is bounded. */
import type { Db } from '../../lib/server/db.ts'
import type { Audience, Weekday } from './catalogue.ts'

export type SeriesCard = {
  id: number
  title: string
  genre: string
  isAdult: boolean
  coverKey: string | null
  coverWidth: number | null
  coverHeight: number | null
}

const CARD = `s.id, s.title, s.genre, s.is_adult AS isAdult, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight`
const visible = (a: Audience) => `s.is_published = 1${a.showAdult ? '' : ' AND s.is_adult = 0'}${a.showBl ? '' : ' AND s.is_bl = 0'}`

function cards(rows: (Omit<SeriesCard, 'isAdult'> & { isAdult: number })[]): SeriesCard[] {
  return rows.map((r) => ({ ...r, isAdult: r.isAdult === 1 }))
}

/** Home page: today's weekly schedule, the ranking, free series and the newest launches (4 queries). */
export async function homeSections(db: Db, audience: Audience, today: Weekday, limit = 12) {
  const [weekly, popular, free, latest] = await Promise.all([
    db.all<any>(`SELECT ${CARD} FROM schedules sc JOIN series s ON s.id = sc.series_id WHERE sc.weekday = ? AND ${visible(audience)} ORDER BY sc.position, s.id LIMIT ?`, today, limit),
    db.all<any>(`SELECT ${CARD} FROM series s WHERE ${visible(audience)} ORDER BY s.rank_score DESC, s.id LIMIT ?`, limit),
    db.all<any>(`SELECT ${CARD} FROM series s WHERE s.free_promo = 1 AND ${visible(audience)} ORDER BY s.rank_score DESC, s.id LIMIT ?`, limit),
    db.all<any>(`SELECT ${CARD} FROM series s WHERE ${visible(audience)} ORDER BY s.launched_at DESC, s.id DESC LIMIT ?`, limit),
  ])
  return { weekly: cards(weekly), popular: cards(popular), free: cards(free), latest: cards(latest) }
}

export type SeriesDetail = SeriesCard & {
  description: string
  status: 'COMPLETED' | 'SCHEDULED' | 'PAUSED'
  type: 'IMAGE' | 'TEXT'
  creators: { name: string; role: string }[]
  tags: string[]
  episodes: { id: number; no: number; title: string; free: boolean; priceRent: number | null; priceBuy: number | null; publishedAt: string }[]
}

/** One series with creators, tags and its episode list (2 queries), or null when unknown. */
export async function seriesDetail(db: Db, id: number): Promise<SeriesDetail | null> {
  const [series, episodes] = await Promise.all([
    db.first<any>(
      `SELECT ${CARD}, s.description, s.status, s.type,
        (SELECT json_group_array(json_object('name', c.name, 'role', sc.role)) FROM series_creators sc JOIN creators c ON c.id = sc.creator_id WHERE sc.series_id = s.id) AS creators,
        (SELECT json_group_array(t.name) FROM series_tags st JOIN tags t ON t.id = st.tag_id WHERE st.series_id = s.id) AS tags
       FROM series s WHERE s.id = ? AND s.is_published = 1`,
      id,
    ),
    db.all<any>(
      `SELECT id, no, title, is_free AS free, price_rent AS priceRent, price_buy AS priceBuy, published_at AS publishedAt
       FROM episodes WHERE series_id = ? ORDER BY no LIMIT 1000`,
      id,
    ),
  ])
  if (!series) return null
  return {
    ...cards([series])[0]!,
    description: series.description,
    status: series.status,
    type: series.type,
    creators: JSON.parse(series.creators),
    tags: JSON.parse(series.tags),
    episodes: episodes.map((e) => ({ ...e, free: e.free === 1 })),
  }
}
