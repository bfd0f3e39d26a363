/**
 * The exchange rate rules without imports of their own (spec §5 "mileage exchange in units of 200, minimum 3000",
 * §9 "exchanged coins last 30 days"): the server's `planExchange` and the exchange popup's live preview both use
 * them, so the popup's script carries no schema library.
 */
import { DAY_MS, isoAfter } from '../../lib/time.ts'

/** Spec §9: exchanged coins last 30 days. */
const EXCHANGED_COIN_DAYS = 30

/** The edition's rate (`mileagePerCoin`: the step of an exchange and the points one coin costs; `mileageMinimum`). */
export type ExchangeRate = { mileagePerCoin: number; mileageMinimum: number }

/**
 * The coins `amount` points give, or null when that amount cannot be exchanged (not a whole number, under
 * `mileageMinimum`, or not a multiple of `mileagePerCoin`: EXCHANGE_MILEAGE_INSUFFICIENT).
 */
export function exchangeCoins(amount: number, rate: ExchangeRate): number | null {
  if (!Number.isSafeInteger(amount) || amount < rate.mileageMinimum || amount % rate.mileagePerCoin !== 0) return null
  return amount / rate.mileagePerCoin
}

/** When coins exchanged at `now` stop being spendable. */
export function exchangedCoinsExpiry(now: Date): string {
  return isoAfter(now, EXCHANGED_COIN_DAYS * DAY_MS)
}

/** The amount the popup proposes for a balance: the most it can exchange, else the minimum (which the server refuses). */
export function proposedAmount(mileage: number, rate: ExchangeRate): number {
  return Math.max(rate.mileageMinimum, mileage - (mileage % rate.mileagePerCoin))
}
