/**
 * Library shelves without I/O (spec §2 /library/my and /library/favorite, §3 ownership kinds): the episodes a
 * reader owns or rents, grouped by series, with the rental's end; and the query both shelves accept.
 */
import { z } from 'zod'
import { ownershipOf } from './library.ts'
import type { Holding } from '../ownership/holding.ts'

/** Series per page on both shelves (docs/QUALITY.md: every list paginated). */
export const SHELF_PAGE = 20
/** Episodes listed per series on /library/my (the rest is one click away on the series page). */
export const SHELF_EPISODES = 50

/** `?cursor=` of `GET /library/my` and `GET /library/favorite` (the cursor itself is checked by `decodeCursor`). */
export const ShelfQuery = z.object({ cursor: z.string().min(1).max(200).optional() }).strict()

export type ShelfEpisode = { episodeId: number; no: number; title: string; kind: string; expiresAt: string | null }
export type OwnedSeries = {
  seriesId: number
  title: string
  coverKey: string | null
  coverWidth: number | null
  coverHeight: number | null
  /** Latest acquisition in this series (the shelf's order, newest first). */
  lastAt: string
  episodes: ShelfEpisode[]
  /** The soonest end among the rentals shown (null: everything is kept for good). */
  nextExpiry: string | null
}

export type OwnershipRow = { seriesId: number; episodeId: number; no: number; title: string } & Holding

/**
 * One shelf entry per series: each episode once, with the holding that opens it now (`ownershipOf`: kept for
 * good beats rented, an expired rental is gone), in episode order; series without a live episode drop out.
 */
export function shelfEpisodes(
  rows: readonly OwnershipRow[],
  now: Date,
): Map<number, { episodes: ShelfEpisode[]; nextExpiry: string | null }> {
  const byEpisode = new Map<number, { row: OwnershipRow; holdings: Holding[] }>()
  for (const r of rows) {
    const got = byEpisode.get(r.episodeId)
    if (got) got.holdings.push({ kind: r.kind, expiresAt: r.expiresAt })
    else byEpisode.set(r.episodeId, { row: r, holdings: [{ kind: r.kind, expiresAt: r.expiresAt }] })
  }
  const out = new Map<number, { episodes: ShelfEpisode[]; nextExpiry: string | null }>()
  for (const { row, holdings } of byEpisode.values()) {
    const o = ownershipOf(holdings, now)
    if (!o) continue
    const shelf = out.get(row.seriesId) ?? { episodes: [], nextExpiry: null }
    shelf.episodes.push({ episodeId: row.episodeId, no: row.no, title: row.title, kind: o.kind, expiresAt: o.expiresAt })
    if (o.expiresAt !== null && (shelf.nextExpiry === null || o.expiresAt < shelf.nextExpiry)) shelf.nextExpiry = o.expiresAt
    out.set(row.seriesId, shelf)
  }
  for (const shelf of out.values()) shelf.episodes.sort((a, b) => a.no - b.no)
  return out
}
