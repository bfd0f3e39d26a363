/** Library reads and writes in D1 for one reader: ownerships of a series, favourite, reading progress. */
import type { Db } from '../../lib/server/db.ts'
import type { EpisodesRow, ReadingProgressRow, SeriesRow } from '../../lib/server/db-types.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { encodeCursor, type Audience, type Cursor } from '../catalogue/catalogue.ts'
import { visible } from '../catalogue/catalogue.server.ts'
import { ownershipsByEpisode, type Ownership, type SeriesMe } from './library.ts'
import { currentTicket } from '../freetime/freetime.ts'
import { hiddenBy } from './hidden.server.ts'

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
 * The personal part of a published series for one reader (2 queries: the series with favourite, progress and
 * the last use of its wait-until-free ticket, and the ownerships), or null when the series is unknown or unpublished.
 */
export async function seriesMe(db: Db, userId: number, seriesId: number, now = new Date()): Promise<SeriesMe | null> {
  const [row, owned] = await Promise.all([
    db.first<{
      favorite: Flag
      episodeId: ReadingProgressRow['episode_id'] | null
      no: EpisodesRow['no'] | null
      position: ReadingProgressRow['position'] | null
      wufHours: number | null
      lastUsedAt: string | null
    }>(
      `SELECT EXISTS (SELECT 1 FROM favorites f WHERE f.user_id = ?1 AND f.series_id = s.id) AS favorite,
         rp.episode_id AS episodeId, e.no, rp.position, s.wuf_hours AS wufHours,
         (SELECT max(w.used_at) FROM wuf_tickets w WHERE w.user_id = ?1 AND w.series_id = s.id) AS lastUsedAt
       FROM series s
       LEFT JOIN reading_progress rp ON rp.user_id = ?1 AND rp.series_id = s.id
       LEFT JOIN episodes e ON e.id = rp.episode_id AND e.series_id = s.id
       WHERE s.id = ?2 AND s.is_published = 1`,
      userId,
      seriesId,
    ),
    seriesOwnerships(db, userId, seriesId, now),
  ])
  if (!row) return null
  const ticket = row.wufHours === null ? null : currentTicket(row.wufHours, row.lastUsedAt, now)
  return {
    seriesId,
    favorite: flag(row.favorite),
    continueReading:
      row.episodeId !== null && row.no !== null ? { episodeId: row.episodeId, no: row.no, position: row.position ?? 0 } : null,
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

/**
 * The reader's recently read series, newest first (1 query, paginated by `(updatedAt, seriesId)`): progress is
 * stored server-side per reader, so every device shows the same list. Unpublished series and those the reader hid
 * (hidden.server.ts) are left out.
 */
export async function recentReads(
  db: Db,
  userId: number,
  audience: Audience,
  cursor: Cursor | null,
  size = RECENT_PAGE,
  now = new Date(),
): Promise<{ items: RecentRead[]; next: string | null }> {
  const rows: RecentRead[] = await db.all<
    Cols<'reading_progress', 'position' | 'updated_at'> & { seriesId: SeriesRow['id']; seriesTitle: SeriesRow['title'] } & Cols<
        'series',
        'cover_key' | 'cover_width' | 'cover_height'
      > & {
        episodeId: EpisodesRow['id']
        episodeNo: EpisodesRow['no']
        episodeTitle: EpisodesRow['title']
        nextEpisodeId: EpisodesRow['id'] | null
      }
  >(
    `SELECT s.id AS seriesId, s.title AS seriesTitle, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight,
            e.id AS episodeId, e.no AS episodeNo, e.title AS episodeTitle, rp.position, rp.updated_at AS updatedAt,
            (SELECT x.id FROM episodes x WHERE x.series_id = s.id AND x.no > e.no AND x.published_at <= ?2 ORDER BY x.no LIMIT 1) AS nextEpisodeId
       FROM reading_progress rp
       JOIN series s ON s.id = rp.series_id AND ${visible(audience)}
       JOIN episodes e ON e.id = rp.episode_id
      WHERE rp.user_id = ?1 AND NOT ${hiddenBy('rp.user_id', 'rp.series_id')} AND (?3 IS NULL OR rp.updated_at < ?3 OR (rp.updated_at = ?3 AND rp.series_id < ?4))
      ORDER BY rp.updated_at DESC, rp.series_id DESC LIMIT ?5`,
    userId,
    now.toISOString(),
    cursor?.k ?? null,
    cursor?.id ?? 0,
    size + 1,
  )
  const items = rows.slice(0, size)
  const last = items[items.length - 1]
  return { items, next: rows.length > size && last ? encodeCursor({ k: last.updatedAt, id: last.seriesId }) : null }
}
