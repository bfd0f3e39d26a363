/**
 * Whether a reader holds an episode (spec §3 ownership kinds; §4 "a rental cannot be bought again while time
 * remains"): the one rule the viewer, the library, purchases, gifts and wait-until-free unlocks read, here without
 * I/O; holding.server.ts writes the same rule as SQL for the writes that must decide it themselves.
 */

/** Ownership kinds that keep an episode open for good. */
export const FOREVER_KINDS = ['POSSESSION', 'ALL_POSSESSION', 'PERMANENT'] as const
/** Ownership kinds that open an episode until `expiresAt` (a rental, a wait-until-free unlock). */
export const TIMED_KINDS = ['RENT', 'ALL_RENT', 'FREETIME'] as const
export type OwnershipKind = (typeof FOREVER_KINDS)[number] | (typeof TIMED_KINDS)[number]

/** What the reader holds of an episode (an `ownerships` row): `expiresAt` null is forever; `paid` the coins it cost (absent: 0). */
export type Holding = { kind: string; expiresAt: string | null; paid?: number }
/** A holding of one of several episodes. */
export type EpisodeHolding = Holding & { episodeId: number }

/**
 * What holds at `now`: `forever` (kept), `running` (a rental or unlock with time left) or nothing. `running` also
 * says how many of its coins a purchase for good deducts (`credit`: what that rental cost; 0 for a wait-until-free
 * unlock or a gift) and how many timed holdings run (`runningCount`, the upgrade's write guard).
 */
export type Held = { state: 'forever' | 'running'; kind: OwnershipKind; expiresAt: string | null; credit: number; runningCount: number }

const isForever = (kind: string): kind is (typeof FOREVER_KINDS)[number] => (FOREVER_KINDS as readonly string[]).includes(kind)
const isTimed = (kind: string): kind is (typeof TIMED_KINDS)[number] => (TIMED_KINDS as readonly string[]).includes(kind)

/**
 * The holding of one episode that opens it at `now`: one kept for good wins, else the running timed one that lasts
 * longest. A timed holding without an end, an ended one, or a kind of no list holds nothing.
 */
export function heldNow(holdings: readonly Holding[], now: Date): Held | null {
  const t = now.getTime()
  const kept = holdings.find((h) => isForever(h.kind) && (h.expiresAt === null || Date.parse(h.expiresAt) > t))
  if (kept) return { state: 'forever', kind: kept.kind as OwnershipKind, expiresAt: kept.expiresAt, credit: 0, runningCount: 0 }
  const runs = holdings
    .filter((h) => isTimed(h.kind) && h.expiresAt !== null && Date.parse(h.expiresAt) > t)
    .sort((a, b) => Date.parse(b.expiresAt!) - Date.parse(a.expiresAt!))
  const running = runs[0]
  return running
    ? {
        state: 'running',
        kind: running.kind as OwnershipKind,
        expiresAt: running.expiresAt,
        credit: running.paid ?? 0,
        runningCount: runs.length,
      }
    : null
}

/** `heldNow` for episode `episodeId` among holdings of several episodes. */
export function holdingState(holdings: readonly EpisodeHolding[], episodeId: number, now: Date): Held | null {
  return heldNow(
    holdings.filter((h) => h.episodeId === episodeId),
    now,
  )
}
