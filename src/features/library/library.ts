/**
 * Library rules without I/O (spec §2 detail "owned, rented until …", §3 ownership kinds): which of a
 * reader's holdings of an episode is the one to show, and the shape of the personal part of a series.
 */
import { heldNow, type Holding } from '../ownership/holding.ts'

/** What the reader holds of one episode, as shown: `expiresAt` null means forever. */
export type Ownership = { kind: string; expiresAt: string | null }

/** The personal part of a series detail (`GET /api/v1/contents/{id}/me`). */
export type SeriesMe = {
  seriesId: number
  favorite: boolean
  continueReading: { episodeId: number; no: number; position: number } | null
  ownerships: ({ episodeId: number } & Ownership)[]
  /** The reader's wait-until-free ticket of the series (spec §4), null when the series has none: ready now, or when. */
  freetime: { hours: number; available: boolean; availableAt: string | null } | null
}

/** The holding that opens an episode at `now` (the viewer's rule, `heldNow`), as shown. */
export function ownershipOf(holdings: readonly Holding[], now: Date): Ownership | null {
  const held = heldNow(holdings, now)
  return held && { kind: held.kind, expiresAt: held.expiresAt }
}

/** Ownerships per episode from a reader's ownership rows of one series (rows of other episodes ignored). */
export function ownershipsByEpisode(rows: readonly ({ episodeId: number } & Holding)[], now: Date): Map<number, Ownership> {
  const grouped = new Map<number, Holding[]>()
  for (const r of rows) grouped.set(r.episodeId, [...(grouped.get(r.episodeId) ?? []), { kind: r.kind, expiresAt: r.expiresAt }])
  const out = new Map<number, Ownership>()
  for (const [id, hs] of grouped) {
    const o = ownershipOf(hs, now)
    if (o) out.set(id, o)
  }
  return out
}

/** Whether the reader follows a creator (issue 37 point 2: `/api/v1/contents/creators/{id}/me` and `…/follow`). */
export type Following = { creatorId: number; following: boolean }
