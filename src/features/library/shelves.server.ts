/**
 * Library shelves (spec §2 /library/my and /library/favorite, issue 12 /library/hidden; API
 * `GET /api/v1/library/my|favorite|hidden`).
 * All are cursor-paginated by `(time, seriesId)` newest first and read only the reader's own rows: holdings from D1,
 * favourites and hidden series from the reader's object (marks.server.ts) with the series from D1. my and favorite
 * leave out the series the reader hid, which /library/hidden lists.
 */
import type { Db } from '../../lib/server/db.ts'
import type { OwnershipsRow, SeriesRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { decodeCursor, encodeCursor, type Audience, type Cursor } from '../catalogue/catalogue.ts'
import { visible } from '../catalogue/catalogue.server.ts'
import { withReader } from '../reader/stub.server.ts'
import type { Mark, MarkedSeries } from './marks.server.ts'
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

/** Rounds of a page's fill: a page of a reader who hid or can no longer see many series ends short. */
const FILL_ROUNDS = 5

/**
 * A page of a list the reader's object keeps (`list`: the next `want` entries after a cursor, one call) with what D1
 * shows of them (`details`: those the reader may see, in the same order, one query). Usually one round; a round that
 * left entries out asks for more. `key` gives an entry's and an item's cursor.
 */
export async function pageFromObject<P extends { seriesId: number }, T extends { seriesId: number }>(
  cursor: Cursor | null,
  size: number,
  list: (after: Cursor | null, want: number) => Promise<P[]>,
  details: (entries: P[]) => Promise<T[]>,
  key: { entry: (entry: P) => Cursor; item: (item: T) => Cursor },
): Promise<ShelfPage<T>> {
  const items: T[] = []
  let after = cursor
  let more = true
  for (let round = 0; round < FILL_ROUNDS && more && items.length <= size; round++) {
    const want = size + 1 - items.length
    const entries = await list(after, want)
    more = entries.length === want
    const last = entries[entries.length - 1]
    if (!last) break
    after = key.entry(last)
    items.push(...(await details(entries)))
  }
  const page = items.slice(0, size)
  const end = items.length > size ? key.item(page[page.length - 1]!) : more ? after : null
  return { items: page, next: end ? encodeCursor(end) : null }
}

const LIVE = `(o.expires_at IS NULL OR o.expires_at > ?)`

/**
 * /library/my: the series in which the reader holds a live episode (owned for good, or rented and not yet
 * expired), latest acquisition first, each with its episodes and the rentals' end (2 queries and 1 call for the
 * series the reader hid).
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
  const hidden = await withReader(userId, (r) => r.hidden(userId))
  const page = await db.all<
    { seriesId: SeriesRow['id']; lastAt: OwnershipsRow['created_at'] } & Cols<
      'series',
      'title' | 'cover_key' | 'cover_width' | 'cover_height'
    >
  >(
    `SELECT s.id AS seriesId, s.title, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight, g.lastAt
       FROM (SELECT o.series_id AS seriesId, max(o.created_at) AS lastAt FROM ownerships o
              WHERE o.user_id = ? AND ${LIVE} AND o.series_id NOT IN (SELECT value FROM json_each(?)) GROUP BY o.series_id) g
       JOIN series s ON s.id = g.seriesId AND ${visible(audience)}
      WHERE (? IS NULL OR g.lastAt < ? OR (g.lastAt = ? AND g.seriesId < ?))
      ORDER BY g.lastAt DESC, g.seriesId DESC LIMIT ?`,
    userId,
    nowIso,
    JSON.stringify(hidden),
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

type SeriesCard = Cols<'series', 'title' | 'cover_key' | 'cover_width' | 'cover_height'> & { seriesId: SeriesRow['id'] }

export type FavoriteSeries = SeriesCard & { favoritedAt: string }
export type HiddenSeries = SeriesCard & { hiddenAt: string }

/** A shelf of the reader's marks (their object) with the series their audience may see (D1). */
function markShelf<T extends SeriesCard>(
  db: Db,
  userId: number,
  mark: Mark,
  [as, at]: [column: string, at: (item: T) => string],
  audience: Audience,
  cursor: Cursor | null,
  size: number,
) {
  return pageFromObject<MarkedSeries, T>(
    cursor,
    size,
    (after, want) => withReader(userId, (r) => r.marked(userId, mark, after && { at: String(after.k), seriesId: after.id }, want)),
    (entries) =>
      db.all<T>(
        `SELECT s.id AS seriesId, s.title, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight,
                json_extract(m.value, '$.at') AS ${as}
           FROM json_each(?1) m JOIN series s ON s.id = json_extract(m.value, '$.seriesId') AND ${visible(audience)}
          ORDER BY m.key`,
        JSON.stringify(entries),
      ),
    { entry: (e) => ({ k: e.at, id: e.seriesId }), item: (item) => ({ k: at(item), id: item.seriesId }) },
  )
}

/** /library/favorite: the reader's favourite series (published ones they did not hide), latest first. */
export function favoriteShelf(db: Db, userId: number, audience: Audience, cursor: Cursor | null, size = SHELF_PAGE) {
  return markShelf<FavoriteSeries>(db, userId, 'favorite', ['favoritedAt', (s) => s.favoritedAt], audience, cursor, size)
}

/** /library/hidden: the series the reader hid (those their audience may see), latest first. */
export function hiddenShelf(db: Db, userId: number, audience: Audience, cursor: Cursor | null, size = SHELF_PAGE) {
  return markShelf<HiddenSeries>(db, userId, 'hidden', ['hiddenAt', (s) => s.hiddenAt], audience, cursor, size)
}
