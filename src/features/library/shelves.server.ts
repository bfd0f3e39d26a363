/**
 * Library shelves (spec §2 /library/my and /library/favorite, issue 12 /library/hidden; API
 * `GET /api/v1/library/my|favorite|hidden`).
 * All are cursor-paginated by `(time, seriesId)` newest first and read only the reader's own rows: holdings among
 * their money rows (`moneyDb`, src/features/reader/money-db.server.ts), favourites and hidden series from the reader's
 * object (marks.server.ts), with the series and episodes from D1. my and favorite leave out the series the reader
 * hid, which /library/hidden lists.
 */
import type { Db } from '../../lib/server/db.ts'
import type { OwnershipsRow, SeriesRow } from '../../lib/server/db-types.ts'
import { rows, type Cols } from '../../lib/server/rows.ts'
import { decodeCursor, encodeCursor, type Audience, type Cursor } from '../catalogue/catalogue.ts'
import { visible } from '../catalogue/catalogue.server.ts'
import { withReader } from '../reader/stub.server.ts'
import { moneyDb } from '../reader/money-db.server.ts'
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
 * The reader's series with a live holding, not hidden (`?` JSON list), latest acquisition first, after the cursor
 * (`?` given three times, then the series id) — `?` of them. Parameters: OWNED_GROUPS_PARAMS.
 */
const OWNED_GROUPS_SQL = `SELECT seriesId, lastAt FROM (
    SELECT o.series_id AS seriesId, max(o.created_at) AS lastAt FROM ownerships o
     WHERE o.user_id = ? AND ${LIVE} AND o.series_id NOT IN (SELECT value FROM json_each(?)) GROUP BY o.series_id) g
   WHERE (? IS NULL OR g.lastAt < ? OR (g.lastAt = ? AND g.seriesId < ?))
   ORDER BY g.lastAt DESC, g.seriesId DESC LIMIT ?`
const OWNED_GROUPS_PARAMS = (userId: number, nowIso: string, hidden: readonly number[], after: Cursor | null, want: number) => [
  userId,
  nowIso,
  JSON.stringify(hidden),
  after?.k ?? null,
  after?.k ?? null,
  after?.k ?? null,
  after?.id ?? 0,
  want,
]

/** A series of the owned shelf as the reader's money rows give it: the latest acquisition and the live holdings. */
type OwnedGroup = { seriesId: SeriesRow['id']; lastAt: OwnershipsRow['created_at']; holdings: Omit<OwnershipRow, 'no' | 'title'>[] }

/**
 * /library/my: the series in which the reader holds a live episode (owned for good, or rented and not yet
 * expired), latest acquisition first, each with its episodes and the rentals' end. A round (shelves.server.ts
 * `pageFromObject`; usually one) is one `moneyDb` batch — the next series of the reader's holdings and their live
 * holdings — and one D1 batch — those series their audience may see, and the titles of the episodes held; before it,
 * 1 call for the series the reader hid.
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
  const money = moneyDb(db, userId)
  const key = (g: OwnedGroup | OwnedSeries) => ({ k: g.lastAt, id: g.seriesId })
  return pageFromObject<OwnedGroup, OwnedSeries>(
    cursor,
    size,
    async (after, want) => {
      const [groupRes, holdingRes] = await money.batch([
        { sql: OWNED_GROUPS_SQL, params: OWNED_GROUPS_PARAMS(userId, nowIso, hidden, after, want) },
        {
          sql: `SELECT o.series_id AS seriesId, o.episode_id AS episodeId, o.kind, o.expires_at AS expiresAt FROM ownerships o
                 WHERE o.user_id = ? AND ${LIVE} AND o.series_id IN (SELECT seriesId FROM (${OWNED_GROUPS_SQL})) LIMIT 5000`,
          params: [userId, nowIso, ...OWNED_GROUPS_PARAMS(userId, nowIso, hidden, after, want)],
        },
      ])
      const holdings = rows<OwnedGroup['holdings'][number]>(holdingRes)
      return rows<Omit<OwnedGroup, 'holdings'>>(groupRes).map((g) => ({
        ...g,
        holdings: holdings.filter((h) => h.seriesId === g.seriesId),
      }))
    },
    (groups) => ownedDetails(db, audience, groups, now),
    { entry: key, item: key },
  )
}

/** The groups the reader's audience may see, in the given order, with their covers and episodes (1 D1 batch). */
async function ownedDetails(db: Db, audience: Audience, groups: readonly OwnedGroup[], now: Date): Promise<OwnedSeries[]> {
  const [seriesRes, episodeRes] = await db.batch([
    {
      sql: `SELECT s.id AS seriesId, s.title, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight,
                   json_extract(g.value, '$.lastAt') AS lastAt
              FROM json_each(?) g JOIN series s ON s.id = json_extract(g.value, '$.seriesId') AND ${visible(audience)}
             ORDER BY g.key`,
      params: [JSON.stringify(groups.map(({ seriesId, lastAt }) => ({ seriesId, lastAt })))],
    },
    {
      sql: `SELECT id, no, title FROM episodes WHERE id IN (SELECT value FROM json_each(?))`,
      params: [JSON.stringify([...new Set(groups.flatMap((g) => g.holdings.map((h) => h.episodeId)))])],
    },
  ])
  const episodes = new Map(rows<Cols<'episodes', 'id' | 'no' | 'title'>>(episodeRes).map((e) => [e.id, e]))
  const held: OwnershipRow[] = groups.flatMap((g) =>
    g.holdings.flatMap((h) => {
      const e = episodes.get(h.episodeId)
      return e ? [{ ...h, no: e.no, title: e.title }] : []
    }),
  )
  const shelves = shelfEpisodes(held, now)
  return rows<Omit<OwnedSeries, 'episodes' | 'nextExpiry'>>(seriesRes).flatMap((s) => {
    const shelf = shelves.get(s.seriesId)
    return shelf ? [{ ...s, episodes: shelf.episodes.slice(0, SHELF_EPISODES), nextExpiry: shelf.nextExpiry }] : []
  })
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
