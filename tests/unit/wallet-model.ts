/**
 * Reference rules the wallet's SQL is checked against (src/features/wallet/wallet.ts `balances` is the shared part):
 * `coinSummary`, what `COIN_SUMMARY_SQL` (wallet.server.ts) must answer for the same lots, and `planExpiry`, which
 * lots the expiry sweep (`expireLots`) empties. Used by the unit tests of the wallet and the worker tests of the API.
 */
import { MAX_EXPIRING, type Balances, type CoinSummary, type Lot } from '../../src/features/wallet/wallet.ts'

/** A derived balance as the API shows it (the first `MAX_EXPIRING` expiries). */
export function coinSummary(b: Balances): CoinSummary {
  return {
    coin: b.COIN,
    freeCoin: b.FREE_COIN,
    bonus: b.BONUS,
    mileage: b.MILEAGE,
    total: b.total,
    expiring: b.nextExpiries.slice(0, MAX_EXPIRING),
  }
}

/** One lot run out by the expiry sweep: `amount` coins (> 0) leave lot `lotId` as an EXPIRE ledger row. */
type ExpiryStep = { lotId: number; amount: number }

/**
 * Which lots the expiry sweep empties at `now`: every lot past its expiry (an expiry at `now` is past) that still
 * holds coins.
 */
export function planExpiry(lots: readonly Lot[], now: Date): ExpiryStep[] {
  return lots
    .filter((l) => l.remaining > 0 && l.expiresAt !== null && Date.parse(l.expiresAt) <= now.getTime())
    .map((l) => ({ lotId: l.id, amount: l.remaining }))
}
