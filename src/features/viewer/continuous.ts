/**
 * Continuous reading rules without I/O (spec §1 "continuous reading with automatic coin deduction", §2 viewer
 * "binge reading"): which episode of the chain the reader is in, and whether the next locked episode may be
 * unlocked automatically. Browser-safe (no zod): the viewer island imports it.
 */
import { withinBudget } from '../purchase/budget.ts'

/** Purchase kinds an automatic unlock may use (docs/API.md `POST /api/v1/purchase`). */
export type AutoUnlockKind = 'RENT' | 'POSSESSION'

/** Budgets offered when a reader opts in (coins); the cap is per series. */
export const AUTO_UNLOCK_BUDGETS = [10, 20, 50, 100, 200] as const
export const DEFAULT_AUTO_UNLOCK_BUDGET = 20

/** The reader's opt-in for one series, as `GET /api/v1/viewer/auto-unlock/{seriesId}` answers it. */
export type AutoUnlockState = {
  seriesId: number
  enabled: boolean
  /** Coin cap of automatic unlocks in this series (null when not enabled). */
  budget: number | null
  kind: AutoUnlockKind
  /** Coins spent by automatic unlocks since the reader opted in (kept by the server, `auto_unlock.spent`). */
  spent: number
}

/** What the viewer may do about a locked next episode. */
export type AutoUnlockDecision =
  | { action: 'buy'; kind: AutoUnlockKind; price: number }
  /** Not opted in: the reader is asked (the first time needs a confirmation). */
  | { action: 'ask' }
  /** Opted in, but this purchase would pass the cap, or the episode is not sold the wanted way. */
  | { action: 'stop'; reason: 'BUDGET' | 'NOT_SOLD' }

/** Prices of the locked episode in coins (null: not sold that way). */
export type EpisodePrice = { priceRent: number | null; priceBuy: number | null }

/**
 * Spec §1 continuous reading: only with the reader's opt-in for the series; the wanted kind (else the other
 * one when the episode is sold only that way); never past the coin cap (`spent + price ≤ budget`). The
 * balance is checked by the purchase itself (COIN_INSUFFICIENT moves nothing and stops the automation).
 */
export function autoUnlockDecision(state: AutoUnlockState | null, episode: EpisodePrice): AutoUnlockDecision {
  if (!state || !state.enabled || state.budget === null) return { action: 'ask' }
  const price = (k: AutoUnlockKind) => (k === 'RENT' ? episode.priceRent : episode.priceBuy)
  const other: AutoUnlockKind = state.kind === 'RENT' ? 'POSSESSION' : 'RENT'
  const kind = price(state.kind) !== null ? state.kind : price(other) !== null ? other : null
  if (kind === null) return { action: 'stop', reason: 'NOT_SOLD' }
  const cost = price(kind)!
  if (!withinBudget(state, cost)) return { action: 'stop', reason: 'BUDGET' }
  return { action: 'buy', kind, price: cost }
}

/** Prefix of the Idempotency-Key of automatic unlocks. */
const AUTO_UNLOCK_KEY_PREFIX = 'viewer-auto:'

/**
 * Idempotency-Key of the automatic unlock of one episode for one reader: the same for every attempt, every
 * tab and every device, so coins move at most once per episode (docs/API.md: same key + same body → first answer).
 */
export function autoUnlockKey(userId: number, episodeId: number): string {
  return `${AUTO_UNLOCK_KEY_PREFIX}${userId}:${episodeId}`
}

/**
 * Index of the episode the reader is in: the last section whose top has passed the reading line (a third
 * of the viewport down), or 0. `tops` are the sections' top edges relative to the viewport, in order.
 */
export function currentSection(tops: readonly number[], viewportHeight: number): number {
  const line = viewportHeight / 3
  let current = 0
  tops.forEach((top, i) => {
    if (top <= line) current = i
  })
  return current
}
