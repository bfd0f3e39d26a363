/**
 * Library shelves on D1 (spec §2 /library/my and /library/favorite, issue 12 /library/hidden; API
 * `GET /api/v1/library/my|favorite|hidden`).
 * All are cursor-paginated by `(time, seriesId)` newest first and read only the reader's own rows; my and favorite
 * leave out the series the reader hid (hidden.server.ts), which /library/hidden lists.
 */
import type { Db } from '../../lib/server/db.ts'
import type { FavoritesRow, HiddenSeriesRow, OwnershipsRow, SeriesRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { decodeCursor, encodeCursor, type Audience, type Cursor } from '../catalogue/catalogue.ts'
import { visible } from '../catalogue/catalogue.server.ts'
import { hiddenBy } from './hidden.server.ts'
import { SHELF_EPISODES, SHELF_PAGE, shelfEpisodes, type OwnedSeries, type OwnershipRow } from './shelves.ts'

/** A page of a shelf: `next` is the cursor of the following page, null on the last one. */
export type ShelfPage<T> = { items: T[]; next: string | null }

/**
 * A shelf page's `?cursor=` (`raw`) for the signed-in reader: the page `load` gives, empty for a guest, and `bad`
 * for a cursor that is not ours (the page then answers 400 and lists nothing).
 */
export async function readShelf<T>(
  raw: string | null,
  userId: number | null,
  load: (userId: number, cursor: Cursor | null) => Promise<ShelfPage<T>>,
) {
  const cursor = raw === null ? null : decodeCursor(raw, 'newest')
  const bad = raw !== null && cursor === null
  const page: ShelfPage<T> = userId !== null && !bad ? await load(userId, cursor) : { items: [], next: null }
  return { page, bad }
}

const LIVE = `(o.expires_at IS NULL OR o.expires_at > ?)`

/**
 * /library/my: the series in which the reader holds a live episode (owned for good, or rented and not yet
 * expired), latest acquisition first, each with its episodes and the rentals' end (2 queries).
 */
export async function ownedShelf(
  db: Db,
  userId: number,
  audience: Audience,
  cursor: Cursor | null,
  size = SHELF_PAGE,
  now = new Date(),
): Promise<ShelfPage<OwnedSeries>> {
  const nowIso = now.toISOString()
  const page = await db.all<
    { seriesId: SeriesRow['id']; lastAt: OwnershipsRow['created_at'] } & Cols<
      'series',
      'title' | 'cover_key' | 'cover_width' | 'cover_height'
    >
  >(
    `SELECT s.id AS seriesId, s.title, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight, g.lastAt
       FROM (SELECT o.series_id AS seriesId, max(o.created_at) AS lastAt FROM ownerships o
              WHERE o.user_id = ? AND ${LIVE} AND NOT ${hiddenBy('o.user_id', 'o.series_id')} GROUP BY o.series_id) g
       JOIN series s ON s.id = g.seriesId AND ${visible(audience)}
      WHERE (? IS NULL OR g.lastAt < ? OR (g.lastAt = ? AND g.seriesId < ?))
      ORDER BY g.lastAt DESC, g.seriesId DESC LIMIT ?`,
    userId,
    nowIso,
    cursor?.k ?? null,
    cursor?.k ?? null,
    cursor?.k ?? null,
    cursor?.id ?? 0,
    size + 1,
  )
  const shown = page.slice(0, size)
  if (shown.length === 0) return { items: [], next: null }
  const rows: OwnershipRow[] = await db.all<
    Cols<'ownerships', 'series_id' | 'episode_id' | 'kind' | 'expires_at'> & Cols<'episodes', 'no' | 'title'>
  >(
    `SELECT o.series_id AS seriesId, o.episode_id AS episodeId, e.no, e.title, o.kind, o.expires_at AS expiresAt
       FROM ownerships o JOIN episodes e ON e.id = o.episode_id
      WHERE o.user_id = ? AND o.series_id IN (SELECT value FROM json_each(?)) AND ${LIVE}
      ORDER BY o.series_id, e.no LIMIT ?`,
    userId,
    JSON.stringify(shown.map((s) => s.seriesId)),
    nowIso,
    shown.length * SHELF_EPISODES * 2,
  )
  const shelves = shelfEpisodes(rows, now)
  const items = shown.flatMap((s) => {
    const shelf = shelves.get(s.seriesId)
    return shelf ? [{ ...s, episodes: shelf.episodes.slice(0, SHELF_EPISODES), nextExpiry: shelf.nextExpiry }] : []
  })
  const last = shown[shown.length - 1]!
  return { items, next: page.length > size ? encodeCursor({ k: last.lastAt, id: last.seriesId }) : null }
}

export type FavoriteSeries = {
  seriesId: number
  title: string
  coverKey: string | null
  coverWidth: number | null
  coverHeight: number | null
  favoritedAt: string
}

/** /library/favorite: the reader's favourite series (published ones), latest first (1 query). */
export async function favoriteShelf(
  db: Db,
  userId: number,
  audience: Audience,
  cursor: Cursor | null,
  size = SHELF_PAGE,
): Promise<ShelfPage<FavoriteSeries>> {
  const rows: FavoriteSeries[] = await db.all<
    { seriesId: SeriesRow['id']; favoritedAt: FavoritesRow['created_at'] } & Cols<
      'series',
      'title' | 'cover_key' | 'cover_width' | 'cover_height'
    >
  >(
    `SELECT s.id AS seriesId, s.title, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight, f.created_at AS favoritedAt
       FROM favorites f JOIN series s ON s.id = f.series_id AND ${visible(audience)}
      WHERE f.user_id = ? AND NOT ${hiddenBy('f.user_id', 'f.series_id')} AND (? IS NULL OR f.created_at < ? OR (f.created_at = ? AND f.series_id < ?))
      ORDER BY f.created_at DESC, f.series_id DESC LIMIT ?`,
    userId,
    cursor?.k ?? null,
    cursor?.k ?? null,
    cursor?.k ?? null,
    cursor?.id ?? 0,
    size + 1,
  )
  const items = rows.slice(0, size)
  const last = items[items.length - 1]
  return { items, next: rows.length > size && last ? encodeCursor({ k: last.favoritedAt, id: last.seriesId }) : null }
}

export type HiddenSeries = {
  seriesId: number
  title: string
  coverKey: string | null
  coverWidth: number | null
  coverHeight: number | null
  hiddenAt: string
}

/** /library/hidden: the series the reader hid (those their audience may see), latest first (1 query). */
export async function hiddenShelf(
  db: Db,
  userId: number,
  audience: Audience,
  cursor: Cursor | null,
  size = SHELF_PAGE,
): Promise<ShelfPage<HiddenSeries>> {
  const rows: HiddenSeries[] = await db.all<
    { seriesId: SeriesRow['id']; hiddenAt: HiddenSeriesRow['created_at'] } & Cols<
      'series',
      'title' | 'cover_key' | 'cover_width' | 'cover_height'
    >
  >(
    `SELECT s.id AS seriesId, s.title, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight, h.created_at AS hiddenAt
       FROM hidden_series h JOIN series s ON s.id = h.series_id AND ${visible(audience)}
      WHERE h.user_id = ?1 AND (?2 IS NULL OR h.created_at < ?2 OR (h.created_at = ?2 AND h.series_id < ?3))
      ORDER BY h.created_at DESC, h.series_id DESC LIMIT ?4`,
    userId,
    cursor?.k ?? null,
    cursor?.id ?? 0,
    size + 1,
  )
  const items = rows.slice(0, size)
  const last = items[items.length - 1]
  return { items, next: rows.length > size && last ? encodeCursor({ k: last.hiddenAt, id: last.seriesId }) : null }
}
