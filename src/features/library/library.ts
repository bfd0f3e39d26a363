/**
 * Library rules without I/O (spec §2 detail "owned, rented until …", §3 ownership kinds): which of a
 * reader's holdings of an episode is the one to show, and the shape of the personal part of a series.
 */
import { FOREVER_KINDS, TIMED_KINDS, type Holding } from '../viewer/viewer.ts'

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

const isForever = (k: string) => (FOREVER_KINDS as readonly string[]).includes(k)
const isTimed = (k: string) => (TIMED_KINDS as readonly string[]).includes(k)

/**
 * The holding that opens an episode at `now` (same rule as the viewer): one kept for good wins, else the
 * unexpired timed one that lasts longest; an expired rental (or a timed one without an end) is nothing.
 */
export function ownershipOf(holdings: readonly Holding[], now: Date): Ownership | null {
  const t = now.getTime()
  const live = (h: Holding) => h.expiresAt !== null && Date.parse(h.expiresAt) > t
  const forever = holdings.find((h) => isForever(h.kind) && (h.expiresAt === null || live(h)))
  if (forever) return { kind: forever.kind, expiresAt: forever.expiresAt }
  const timed = holdings.filter((h) => isTimed(h.kind) && live(h)).sort((a, b) => Date.parse(b.expiresAt!) - Date.parse(a.expiresAt!))[0]
  return timed ? { kind: timed.kind, expiresAt: timed.expiresAt } : null
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
