/** Library reads and writes for one reader: ownerships of a series and favourite in D1, reading progress from their object. */
import type { Db } from '../../lib/server/db.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { encodeCursor, type Audience, type Cursor } from '../catalogue/catalogue.ts'
import { visible } from '../catalogue/catalogue.server.ts'
import { ownershipsByEpisode, type Ownership, type SeriesMe } from './library.ts'
import { currentTicket } from '../freetime/freetime.ts'
import { hiddenBy } from './hidden.server.ts'
import { withReader } from '../reader/stub.server.ts'
import type { StoredProgress } from '../viewer/progress-store.server.ts'

type OwnershipRow = Cols<'ownerships', 'episode_id' | 'kind' | 'expires_at'>

/** The reader's current ownership of each episode of a series (1 query; expired rentals dropped). */
export async function seriesOwnerships(db: Db, userId: number, seriesId: number, now = new Date()): Promise<Map<number, Ownership>> {
  const rows = await db.all<OwnershipRow>(
    `SELECT episode_id AS episodeId, kind, expires_at AS expiresAt FROM ownerships WHERE user_id = ? AND series_id = ? LIMIT 5000`,
    userId,
    seriesId,
  )
  return ownershipsByEpisode(rows, now)
}

/**
 * The personal part of a published series for one reader (2 queries: the series with favourite and the last use of
 * its wait-until-free ticket, and the ownerships; the place they stopped at from their object), or null when the series is unknown or unpublished.
 */
export async function seriesMe(db: Db, userId: number, seriesId: number, now = new Date()): Promise<SeriesMe | null> {
  const [row, owned, place] = await Promise.all([
    db.first<{ favorite: Flag; wufHours: number | null; lastUsedAt: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = ?1 AND f.series_id = s.id) AS favorite, s.wuf_hours AS wufHours,
         (SELECT max(w.used_at) FROM wuf_tickets w WHERE w.user_id = ?1 AND w.series_id = s.id) AS lastUsedAt
       FROM series s WHERE s.id = ?2 AND s.is_published = 1`,
      userId,
      seriesId,
    ),
    seriesOwnerships(db, userId, seriesId, now),
    withReader(userId, (r) => r.progressIn(userId, seriesId)),
  ])
  if (!row) return null
  const ticket = row.wufHours === null ? null : currentTicket(row.wufHours, row.lastUsedAt, now)
  return {
    seriesId,
    favorite: flag(row.favorite),
    continueReading: place && { episodeId: place.episodeId, no: place.episodeNo, position: place.position },
    ownerships: [...owned].map(([episodeId, o]) => ({ episodeId, ...o })).sort((a, b) => a.episodeId - b.episodeId),
    freetime: ticket && { hours: row.wufHours!, available: ticket.available, availableAt: ticket.availableAt },
  }
}

/** Adds or removes a published series from the reader's favourites; false when the series is unknown. */
export async function setFavorite(db: Db, userId: number, seriesId: number, on: boolean): Promise<boolean> {
  if (!on) {
    const [, exists] = await db.batch([
      { sql: `DELETE FROM favorites WHERE user_id = ? AND series_id = ?`, params: [userId, seriesId] },
      { sql: `SELECT 1 AS x FROM series WHERE id = ? AND is_published = 1`, params: [seriesId] },
    ])
    return (exists?.results.length ?? 0) > 0
  }
  const changed = await db.run(
    `INSERT INTO favorites (user_id, series_id) SELECT ?, id FROM series WHERE id = ? AND is_published = 1 ON CONFLICT (user_id, series_id) DO NOTHING`,
    userId,
    seriesId,
  )
  if (changed > 0) return true
  return (await db.first(`SELECT 1 AS x FROM series WHERE id = ? AND is_published = 1`, seriesId)) !== null
}

/** One series the reader read lately (spec §2 /library/recent): where they stopped, and what comes next. */
export type RecentRead = {
  seriesId: number
  seriesTitle: string
  coverKey: string | null
  coverWidth: number | null
  coverHeight: number | null
  episodeId: number
  episodeNo: number
  episodeTitle: string
  /** Position in that episode, 0 (top) to 1 (end). */
  position: number
  /** The following published episode, if any (offered once the episode is finished). */
  nextEpisodeId: number | null
  updatedAt: string
}

/** Page size of the recent list. */
const RECENT_PAGE = 20

/** Rounds of the recent list's fill: a page of a reader who hid or can no longer see many series ends short. */
const RECENT_ROUNDS = 5

/**
 * The reader's recently read series, newest first, paginated by `(updatedAt, seriesId)`: their object lists their
 * places (one call), D1 keeps the series they may see — published for their audience, not hidden (hidden.server.ts) —
 * with their covers and next episodes (one query). Usually one round; a round that left series out asks for more.
 */
export async function recentReads(
  db: Db,
  userId: number,
  audience: Audience,
  cursor: Cursor | null,
  size = RECENT_PAGE,
  now = new Date(),
): Promise<{ items: RecentRead[]; next: string | null }> {
  const items: RecentRead[] = []
  let after = cursor ? { updatedAt: String(cursor.k), seriesId: cursor.id } : null
  let more = true
  for (let round = 0; round < RECENT_ROUNDS && more && items.length <= size; round++) {
    const want = size + 1 - items.length
    const places = await withReader(userId, (r) => r.recentProgress(userId, after, want))
    more = places.length === want
    const last = places[places.length - 1]
    if (!last) break
    after = { updatedAt: last.updatedAt, seriesId: last.seriesId }
    items.push(...(await recentDetails(db, userId, audience, places, now)))
  }
  const page = items.slice(0, size)
  const end = items.length > size ? page[page.length - 1] : more ? after : null
  return { items: page, next: end ? encodeCursor({ k: end.updatedAt, id: end.seriesId }) : null }
}

/** The places the reader may see, in the given order, with what the list shows of their series and episodes. */
async function recentDetails(db: Db, userId: number, audience: Audience, places: readonly StoredProgress[], now: Date) {
  return db.all<RecentRead>(
    `SELECT s.id AS seriesId, s.title AS seriesTitle, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight,
            e.id AS episodeId, e.no AS episodeNo, e.title AS episodeTitle,
            json_extract(p.value, '$.position') AS position, json_extract(p.value, '$.updatedAt') AS updatedAt,
            (SELECT x.id FROM episodes x WHERE x.series_id = s.id AND x.no > e.no AND x.published_at <= ?2 ORDER BY x.no LIMIT 1) AS nextEpisodeId
       FROM json_each(?3) p
       JOIN series s ON s.id = json_extract(p.value, '$.seriesId') AND ${visible(audience)}
       JOIN episodes e ON e.id = json_extract(p.value, '$.episodeId') AND e.series_id = s.id
      WHERE NOT ${hiddenBy('?1', 's.id')}
      ORDER BY p.key`,
    userId,
    now.toISOString(),
    JSON.stringify(places),
  )
}
