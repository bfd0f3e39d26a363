/**
 * Wallet rules without I/O (spec §3 coin types and sources, §4 "bonus coins are spent before regular coins",
 * docs/ARCHITECTURE.md "Money: the wallet"): which lots a spend draws from, and what a balance is.
 *
 * A balance is never stored: it is derived from the user's lots (one lot per grant of coins), and every
 * movement of a lot's `remaining` is one append-only ledger row (`wallet.server.ts`).
 */
import { DAY_MS, isoAfter } from '../../lib/time.ts'
import { b64urlToText, textToB64url } from '../../lib/b64url.ts'

/** Spec §3 coin types. MILEAGE is points: exchanged for coins (spec §5, §9), never spent on episodes. */
export const COIN_TYPES = ['COIN', 'FREE_COIN', 'BONUS', 'MILEAGE'] as const
export type CoinType = (typeof COIN_TYPES)[number]

/** Spec §3 coin sources: where a lot came from. ADMIN is an operator's charge (spec §6, docs/API.md operator API). */
export type CoinSource = 'PAYMENT' | 'COUPON' | 'MILEAGE' | 'REWARD' | 'EVENT' | 'ADMIN' | 'OFFERWALL'

/** Spec §3 coin history kinds: the `kind` of a ledger row. */
const LEDGER_KINDS = ['CHARGE', 'USE', 'EXPIRE', 'CANCEL', 'REFUND_PURCHASE'] as const
export type LedgerKind = (typeof LEDGER_KINDS)[number]

/**
 * Spec §4: bonus coins are spent before regular coins. Gifted free coins go next (they expire too), paid
 * coins last (docs/ARCHITECTURE.md "Money": bonus, then free, then paid). MILEAGE is absent: it is never spent
 * on episodes, only exchanged.
 */
export const SPEND_ORDER = ['BONUS', 'FREE_COIN', 'COIN'] as const satisfies readonly CoinType[]

/** The coin types a reader can spend on episodes (the "coins" balance). */
export type SpendableType = (typeof SPEND_ORDER)[number]

/** A lot as the rules see it. `expiresAt` is an ISO-8601 instant; null never expires. */
export type Lot = {
  id: number
  type: CoinType
  remaining: number
  expiresAt: string | null
}

/** One lot drawn down by a spend: `take` coins (> 0) from lot `lotId`. */
export type SpendStep = { lotId: number; take: number }

/** True when the lot can no longer be spent at `now` (expiry instant reached). */
function isExpired(lot: Pick<Lot, 'expiresAt'>, now: Date): boolean {
  return lot.expiresAt !== null && Date.parse(lot.expiresAt) <= now.getTime()
}

/**
 * Orders lots the way a spend draws them: by `order` of type, then earliest expiry first (never-expiring
 * lots last), then oldest lot (lowest id) first. Spec §4 and docs/ARCHITECTURE.md "Money: the wallet".
 */
function compareForSpend(order: readonly CoinType[]): (a: Lot, b: Lot) => number {
  return (a, b) => {
    const byType = order.indexOf(a.type) - order.indexOf(b.type)
    if (byType !== 0) return byType
    const ea = a.expiresAt === null ? Infinity : Date.parse(a.expiresAt)
    const eb = b.expiresAt === null ? Infinity : Date.parse(b.expiresAt)
    if (ea !== eb) return ea < eb ? -1 : 1
    return a.id - b.id
  }
}

/**
 * Which lots a spend of `amount` draws from, and how much from each.
 *
 * Spec §4: bonus coins are spent before regular coins — lots are drawn in `order` (default `SPEND_ORDER`:
 * BONUS, FREE_COIN, COIN), within a type earliest expiry first and never-expiring lots last. Expired and
 * empty lots, and lots of a type outside `order` (MILEAGE for an episode), are skipped. Each lot is drained
 * before the next is touched, so at most the last step leaves coins in its lot.
 *
 * Returns null when the spendable balance is lower than `amount` (the caller answers COIN_INSUFFICIENT);
 * `[]` for an amount of 0. An operator deduction of one type passes `order = [type]`.
 */
export function planSpend(lots: readonly Lot[], amount: number, now: Date, order: readonly CoinType[] = SPEND_ORDER): SpendStep[] | null {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`amount must be a non-negative integer, got ${amount}`)
  const usable = lots.filter((l) => order.includes(l.type) && l.remaining > 0 && !isExpired(l, now)).sort(compareForSpend(order))
  const steps: SpendStep[] = []
  let left = amount
  for (const lot of usable) {
    if (left === 0) break
    const take = Math.min(lot.remaining, left)
    steps.push({ lotId: lot.id, take })
    left -= take
  }
  return left === 0 ? steps : null
}

/** An upcoming expiry: `amount` coins of `type` stop being spendable at `expiresAt`. */
type Expiry = { type: CoinType; amount: number; expiresAt: string }

/**
 * A derived balance (docs/ARCHITECTURE.md: balances are derived, never stored). Each type counts its lots'
 * `remaining` that are not yet expired at `now`; `total` is what can be spent on episodes
 * (BONUS + FREE_COIN + COIN, spec §4) — mileage is points, shown apart. `nextExpiries` lists the upcoming
 * expiries, soonest first, one entry per type and instant.
 */
export type Balances = Record<CoinType, number> & { total: number; nextExpiries: Expiry[] }

/** The balances of a user's lots at `now` (expired lots no longer count, even before the expiry job ran). */
export function balances(lots: readonly Lot[], now: Date): Balances {
  const out: Balances = { COIN: 0, FREE_COIN: 0, BONUS: 0, MILEAGE: 0, total: 0, nextExpiries: [] }
  const expiries = new Map<string, Expiry>()
  for (const lot of lots) {
    if (lot.remaining <= 0 || isExpired(lot, now)) continue
    out[lot.type] += lot.remaining
    if (lot.expiresAt !== null) {
      const instant = new Date(Date.parse(lot.expiresAt)).toISOString()
      const key = `${lot.type} ${instant}`
      const e = expiries.get(key)
      if (e) e.amount += lot.remaining
      else expiries.set(key, { type: lot.type, amount: lot.remaining, expiresAt: instant })
    }
  }
  out.total = SPEND_ORDER.reduce((sum, t) => sum + out[t], 0)
  out.nextExpiries = [...expiries.values()].sort(
    (a, b) => a.expiresAt.localeCompare(b.expiresAt) || COIN_TYPES.indexOf(a.type) - COIN_TYPES.indexOf(b.type),
  )
  return out
}

/** Operator adjustments are bounded (docs/API.md operator API): a typo cannot mint or wipe millions. */
export const MAX_ADMIN_ADJUST = 1_000_000

/** Ledger rows `GET /api/ops/coins` shows: `?limit=` 1 to 200, default 20. */
export const MAX_WALLET_REPORT_ROWS = 200

/**
 * The instant a lot granted with `expiresAt` stops being spendable: a bare date means through the end of
 * that day (UTC), an ISO instant is taken as is. Returns null for "never"; throws RangeError when invalid.
 */
export function expiryInstant(expiresAt: string | undefined | null): string | null {
  if (expiresAt === undefined || expiresAt === null) return null
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(expiresAt) ? Date.parse(`${expiresAt}T23:59:59.999Z`) : Date.parse(expiresAt)
  if (Number.isNaN(ms)) throw new RangeError(`not a date: ${expiresAt}`)
  return new Date(ms).toISOString()
}

/** How many upcoming expiries `GET /coin` lists ("12 bonus coins expire on 03.12.2026"), soonest first. */
export const MAX_EXPIRING = 5

/**
 * The wire shape of a balance (docs/API.md `GET /api/v1/coin`, also `coin` in the purchase answer; `/user/me` and the
 * session show it without `expiring`): spendable types apart, mileage apart, `total` = what can be spent on
 * episodes, and the next expiries.
 */
export type CoinSummary = {
  coin: number
  freeCoin: number
  bonus: number
  mileage: number
  total: number
  expiring: Expiry[]
}

/**
 * Spec §3 coin history kinds grouped into the three history pages (spec §2 /history/charge, /history/use,
 * /history/mileage) and their windows (spec §9: charge 90 days, use 90, mileage 180).
 * - CHARGE: coins received and charges taken back (CHARGE, CANCEL, and REFUND_PURCHASE: a coin purchase
 *   refunded within 7 days, spec §9 — its coins leave the wallet, amount < 0) of the spendable types.
 * - USE: coins leaving the wallet for episodes or by expiry (USE, EXPIRE).
 * - MILEAGE: every movement of mileage points.
 */
export const HISTORY_PAGES = {
  CHARGE: { days: 90, kinds: ['CHARGE', 'CANCEL', 'REFUND_PURCHASE'], mileage: false },
  USE: { days: 90, kinds: ['USE', 'EXPIRE'], mileage: false },
  MILEAGE: { days: 180, kinds: LEDGER_KINDS, mileage: true },
} as const satisfies Record<string, { days: number; kinds: readonly LedgerKind[]; mileage: boolean }>
export type HistoryPage = keyof typeof HISTORY_PAGES

/** Rows per history page. */
export const HISTORY_PAGE_SIZE = 20

/** Where a history page continues: the last row shown (rows are ordered newest first by time, then id). */
export type HistoryCursor = { createdAt: string; id: number }

/** Opaque cursor text (base64url of `createdAt~id`). */
export function encodeHistoryCursor(c: HistoryCursor): string {
  return textToB64url(`${c.createdAt}~${c.id}`)
}

/** The cursor a client sent back, or null when it is not one of ours (the caller answers INVALID_PARAMETER). */
export function decodeHistoryCursor(text: string): HistoryCursor | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(text)) return null
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z)~(\d{1,15})$/.exec(b64urlToText(text) ?? '')
  if (!m || Number.isNaN(Date.parse(m[1]!))) return null
  return { createdAt: m[1]!, id: Number(m[2]) }
}

/** The oldest instant a history page shows at `now` (spec §9 windows). */
export function historySince(page: HistoryPage, now: Date): string {
  return isoAfter(now, -HISTORY_PAGES[page].days * DAY_MS)
}
