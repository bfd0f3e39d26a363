/**
 * Mileage exchange rules without I/O (spec §5 "mileage exchange in units of 200, minimum 3000", §9 "mileage
 * per coin 200, minimum 3000 (one text says 20P per coin)", "exchanged coins last 30 days"; docs/API.md
 * `POST /api/v1/payment/mileage`).
 *
 * The spec's conflict (200 points per coin vs "20P per coin") is decided by the edition config:
 * `mileagePerCoin` (default 200 in every edition) is both the step of an exchange and the points one coin
 * costs; `mileageMinimum` (default 3000) the smallest exchange. 3000 points thus give 15 coins.
 */
import { z } from 'zod'
import { planSpend, type CoinType, type Lot, type SpendStep } from '../wallet/wallet.ts'
import { exchangeCoins, exchangedCoinsExpiry, type ExchangeRate } from './exchange.ts'

/**
 * The type of the coins an exchange grants: FREE_COIN. Not COIN — that is the paid type, refundable within
 * 7 days (spec §9) and spent last; exchanged coins were never paid for and expire. Not BONUS — that is the
 * top-up and event bonus (spec §4). FREE_COIN is the type of granted, expiring coins.
 */
export const EXCHANGE_COIN_TYPE: CoinType = 'FREE_COIN'

/** Largest exchange accepted in one request (far above any real balance; keeps arithmetic exact). */
const MAX_EXCHANGE = 100_000_000

/** docs/API.md body `{amount}`: whole points. Range and step are the rule's (EXCHANGE_MILEAGE_INSUFFICIENT). */
export const MileageExchangeRequest = z.object({ amount: z.number().int().min(-MAX_EXCHANGE).max(MAX_EXCHANGE) })
export type MileageExchangeRequest = z.infer<typeof MileageExchangeRequest>

/** The pages that hold the exchange popup (spec §2 /my and /history/mileage); its plain form returns to the one it was sent from. */
export const ExchangePage = z.enum(['/my', '/history/mileage'])
export type ExchangePage = z.infer<typeof ExchangePage>

export type ExchangePlan = { steps: SpendStep[]; coins: number; expiresAt: string }

/**
 * Plans exchanging `amount` points at `now`: EXCHANGE_MILEAGE_INSUFFICIENT unless `amount` is at least
 * `mileageMinimum` and a multiple of `mileagePerCoin`; MILEAGE_INSUFFICIENT when the reader's unexpired
 * mileage is short. Otherwise the mileage lots drawn (earliest expiry first), `amount / mileagePerCoin`
 * coins and their expiry (`EXCHANGED_COIN_DAYS` later).
 */
export function planExchange(
  lots: readonly Lot[],
  amount: number,
  rate: ExchangeRate,
  now: Date,
): { ok: true; plan: ExchangePlan } | { ok: false; code: 'EXCHANGE_MILEAGE_INSUFFICIENT' | 'MILEAGE_INSUFFICIENT' } {
  const coins = exchangeCoins(amount, rate)
  if (coins === null) return { ok: false, code: 'EXCHANGE_MILEAGE_INSUFFICIENT' }
  const steps = planSpend(lots, amount, now, ['MILEAGE'])
  if (!steps) return { ok: false, code: 'MILEAGE_INSUFFICIENT' }
  return { ok: true, plan: { steps, coins, expiresAt: exchangedCoinsExpiry(now) } }
}
