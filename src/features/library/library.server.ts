/**
 * Library reads and writes for one reader: ownerships of a series and ticket uses among their money rows (`moneyDb`,
 * src/features/reader/money-db.server.ts), the series from D1; reading progress, favourites and hidden series from
 * their object.
 */
import type { Db } from '../../lib/server/db.ts'
import { firstRow, rows, type Cols } from '../../lib/server/rows.ts'
import type { Audience, Cursor } from '../catalogue/catalogue.ts'
import { visible } from '../catalogue/catalogue.server.ts'
import { ownershipsByEpisode, type Ownership, type SeriesMe } from './library.ts'
import { currentTicket } from '../freetime/freetime.ts'
import { withReader } from '../reader/stub.server.ts'
import type { Mark } from './marks.server.ts'
import { pageFromObject } from './shelves.server.ts'
import type { StoredProgress } from '../viewer/progress-store.server.ts'
import { moneyDb, moneyStatements } from '../reader/money-db.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import type { Reader, SessionEnded } from '../../objects/reader/reader.server.ts'
import { AppError } from '../../lib/errors/catalogue.ts'

type OwnershipRow = Cols<'ownerships', 'episode_id' | 'kind' | 'expires_at'>

/** The reader's ownerships in series `?` (parameters: reader, series). */
const SERIES_OWNERSHIPS_SQL = `SELECT episode_id AS episodeId, kind, expires_at AS expiresAt FROM ownerships WHERE user_id = ? AND series_id = ? LIMIT 5000`

/** The reader's current ownership of each episode of a series (1 query, `moneyDb`; expired rentals dropped). */
export async function seriesOwnerships(db: Db, userId: number, seriesId: number, now = new Date()): Promise<Map<number, Ownership>> {
  const held = await moneyDb(db, userId).all<OwnershipRow>(SERIES_OWNERSHIPS_SQL, userId, seriesId)
  return ownershipsByEpisode(held, now)
}

/** The personal part of a published series for one reader, or null when the series is unknown or unpublished (`seriesPart`). */
export async function seriesMe(db: Db, userId: number, seriesId: number, now = new Date()): Promise<SeriesMe | null> {
  return (await seriesPart(db, userId, seriesId, now)).series
}

type ReaderSeriesPart = Exclude<Awaited<ReturnType<Reader['seriesPart']>>, SessionEnded>

/**
 * A series' reader part: the series from D1 (1 query) beside one call to the reader's object, their ownerships in it
 * with the last use of its wait-until-free ticket, the place they stopped at and the favourite (`series`: null when the
 * series is unknown or unpublished). With `session` (SeriesMe.astro), that call also answers the header's part (`me`,
 * `userMe`'s data with the unread alarms), the session checked first (NEED_TO_REFRESH when it ended).
 */
export async function seriesPart(db: Db, userId: number, seriesId: number, now: Date, session?: SessionClaim) {
  const money = moneyStatements([
    { sql: SERIES_OWNERSHIPS_SQL, params: [userId, seriesId] },
    { sql: `SELECT max(used_at) AS lastUsedAt FROM wuf_tickets WHERE user_id = ? AND series_id = ?`, params: [userId, seriesId] },
  ])
  const header = session && { claim: session, input: { userId, now: now.toISOString(), alarms: true } }
  const [row, mine] = await Promise.all([
    db.first<{ wufHours: number | null }>(`SELECT wuf_hours AS wufHours FROM series WHERE id = ? AND is_published = 1`, seriesId),
    withReader<unknown>(userId, (r) => r.seriesPart(userId, seriesId, money, header)) as Promise<ReaderSeriesPart | SessionEnded>,
  ])
  if ('sessionEnded' in mine) throw new AppError('NEED_TO_REFRESH')
  if (!mine.money.ok) throw new Error(mine.money.error)
  if (!row) return { series: null, me: mine.me }
  const [ownedRes, wufRes] = mine.money.results
  const owned = ownershipsByEpisode(rows<OwnershipRow>(ownedRes!), now)
  const lastUsedAt = firstRow<{ lastUsedAt: string | null }>(wufRes!)?.lastUsedAt ?? null
  const place = mine.progress
  const ticket = row.wufHours === null ? null : currentTicket(row.wufHours, lastUsedAt, now)
  const series: SeriesMe = {
    seriesId,
    favorite: mine.favorite,
    continueReading: place && { episodeId: place.episodeId, no: place.episodeNo, position: place.position },
    ownerships: [...owned].map(([episodeId, o]) => ({ episodeId, ...o })).sort((a, b) => a.episodeId - b.episodeId),
    freetime: ticket && { hours: row.wufHours!, available: ticket.available, availableAt: ticket.availableAt },
  }
  return { series, me: mine.me }
}

/** The published episode after episode number `no` of a series (what a finished episode offers next), as a subquery. */
const nextEpisode = (series: string, no: string, now: string) =>
  `(SELECT x.id FROM episodes x WHERE x.series_id = ${series} AND x.no > ${no} AND x.published_at <= ${now} ORDER BY x.no LIMIT 1)`

/** The series' published episode after number `no`, or null (1 D1 query). */
export async function nextEpisodeAfter(db: Db, seriesId: number, no: number, now = new Date()): Promise<number | null> {
  const row = await db.first<{ id: number | null }>(`SELECT ${nextEpisode('?1', '?2', '?3')} AS id`, seriesId, no, now.toISOString())
  return row?.id ?? null
}

/**
 * Sets or clears a reader's favourite or hidden mark on a published series (repeatable; 1 query and 1 call to their
 * object); false when the series is unknown or unpublished. Hiding touches nothing else: holdings, progress and
 * favourites stay.
 */
export async function markSeries(db: Db, userId: number, seriesId: number, mark: Mark, on: boolean): Promise<boolean> {
  if ((await db.first(`SELECT 1 AS x FROM series WHERE id = ? AND is_published = 1`, seriesId)) === null) return false
  await withReader(userId, (r) => r.mark(userId, seriesId, mark, on))
  return true
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
 * The reader's recently read series, newest first, paginated by `(updatedAt, seriesId)`: their object lists their
 * places in the series they did not hide, D1 keeps those they may see — published for their audience — with their
 * covers and next episodes (shelves.server.ts `pageFromObject`).
 */
export function recentReads(
  db: Db,
  userId: number,
  audience: Audience,
  cursor: Cursor | null,
  size = RECENT_PAGE,
  now = new Date(),
): Promise<{ items: RecentRead[]; next: string | null }> {
  const key = (p: StoredProgress | RecentRead) => ({ k: p.updatedAt, id: p.seriesId })
  return pageFromObject<StoredProgress, RecentRead>(
    cursor,
    size,
    (after, want) => withReader(userId, (r) => r.recentProgress(userId, after && { updatedAt: String(after.k), seriesId: after.id }, want)),
    (places) => recentDetails(db, audience, places, now),
    { entry: key, item: key },
  )
}

/** The places the reader may see, in the given order, with what the list shows of their series and episodes. */
async function recentDetails(db: Db, audience: Audience, places: readonly StoredProgress[], now: Date) {
  return db.all<RecentRead>(
    `SELECT s.id AS seriesId, s.title AS seriesTitle, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight,
            e.id AS episodeId, e.no AS episodeNo, e.title AS episodeTitle,
            json_extract(p.value, '$.position') AS position, json_extract(p.value, '$.updatedAt') AS updatedAt,
            ${nextEpisode('s.id', 'e.no', '?1')} AS nextEpisodeId
       FROM json_each(?2) p
       JOIN series s ON s.id = json_extract(p.value, '$.seriesId') AND ${visible(audience)}
       JOIN episodes e ON e.id = json_extract(p.value, '$.episodeId') AND e.series_id = s.id
      ORDER BY p.key`,
    now.toISOString(),
    JSON.stringify(places),
  )
}
