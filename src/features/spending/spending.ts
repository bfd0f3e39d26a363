/**
 * The monthly spending limit a reader sets (issue 37 point 5; docs/API.md `/user/spending-limit`): at most `coins` coins a
 * calendar month of the edition's time zone on episodes — purchases, rentals and automatic unlocks, every coin type —,
 * decided by the reader's object in the sale's own turn (`sell`). A lower limit applies at once; a higher one, or none,
 * only 24 hours after it was asked for, so a moment's impulse cannot lift it. Pure rules, no I/O.
 */
import { z } from 'zod'
import { DAY_MS, isoAfter, localMonth } from '../../lib/time.ts'

/** How long a raise (or lifting the limit) waits before it applies. */
const RAISE_DELAY_MS = DAY_MS
/** The largest limit a reader may set (about 2,000 episodes at the highest price). */
export const MAX_LIMIT = 1_000_000

/** What the reader's object keeps: the limit in force (null: none) and a raise waiting until `nextAt`. */
export type LimitState = { coins: number | null; nextCoins: number | null; nextAt: string | null }
export const NO_LIMIT: LimitState = { coins: null, nextCoins: null, nextAt: null }

/** The state at `now`: a raise whose day has passed is in force. */
export function limitAt(state: LimitState, now: Date): LimitState {
  return state.nextAt !== null && state.nextAt <= now.toISOString() ? { coins: state.nextCoins, nextCoins: null, nextAt: null } : state
}

/**
 * The state after the reader asks for limit `wanted` (null: none) at `now`. At or below the limit in force it applies at
 * once and drops a waiting raise (asking for the current limit cancels one); above it, or lifting it, it waits
 * RAISE_DELAY_MS from this request (a new raise starts the wait again).
 */
export function changeLimit(state: LimitState, wanted: number | null, now: Date): LimitState {
  const { coins } = limitAt(state, now)
  const lower = wanted !== null && (coins === null || wanted <= coins)
  return lower ? { coins: wanted, nextCoins: null, nextAt: null } : { coins, nextCoins: wanted, nextAt: isoAfter(now, RAISE_DELAY_MS) }
}

/** Whether spending `cost` more coins on top of `spent` this month passes limit `coins`. */
export const pastLimit = (coins: number | null, spent: number, cost: number): boolean => coins !== null && spent + cost > coins

/** The month a limit counts over, in the edition's time zone: since when, and when it resets (ISO 8601). */
export type SpendingMonth = { since: string; resetsAt: string }
export function spendingMonth(now: Date, timeZone: string): SpendingMonth {
  const { start, next } = localMonth(now, timeZone)
  return { since: start.toISOString(), resetsAt: next.toISOString() }
}

/** `PUT /api/v1/user/spending-limit`: the limit in coins, null for none. */
export const SpendingLimitBody = z.object({ coins: z.number().int().min(0).max(MAX_LIMIT).nullable() }).strict()

/** The /setting form: `coins` as typed, empty for none (a number of digits only). */
export const SpendingLimitForm = z.object({
  coins: z
    .string()
    .trim()
    .max(12)
    .regex(/^\d*$/)
    .transform((v) => (v === '' ? null : Number(v)))
    .pipe(z.number().int().min(0).max(MAX_LIMIT).nullable()),
})
