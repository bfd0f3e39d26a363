/**
 * The spending limit inside the reader's own object (issue 37 point 5; docs/ARCHITECTURE.md "Reader objects"): one row
 * at most (reader migration 11), beside the coin ledger it counts. The sale (`sell`) reads both in its own turn; the
 * object (src/objects/reader/reader.server.ts) answers the reader's pages through `spendingIn` and changes the limit
 * through `writeLimit`.
 */
import { changeLimit, limitAt, NO_LIMIT, type LimitState } from './spending.ts'

/** The limit row (none: no limit), for a sale's read batch. */
export const LIMIT_SQL = `SELECT coins, next_coins AS nextCoins, next_at AS nextAt FROM spending_limit`
/**
 * Reader `?1`'s USE rows on episodes since `?2` (purchases, rentals and automatic unlocks). The reader's id leads, so the
 * ledger's index (user_id, kind, created_at) reads this month's rows only. Without it, every sale and every look at the
 * spending page read the reader's whole ledger: with 2,000 rows of last year, two sales and the page read 6,103 rows
 * where a new reader's read 103 (tests/worker/reader-money.test.ts).
 */
const MONTH_USE = `FROM coin_ledger WHERE user_id = ?1 AND kind = 'USE' AND product_kind = 'EPISODE' AND created_at >= ?2`
/** The coins reader `?1` spent on episodes since `?2`. */
export const MONTH_SPENT_SQL = `SELECT coalesce(-sum(amount), 0) AS spent ${MONTH_USE}`

/** What the reader spent since a month's start, in all and by series (most first). */
export type MonthSpent = { spent: number; bySeries: { seriesId: number; coins: number }[] }

const readLimit = (sql: SqlStorage): LimitState => sql.exec<LimitState>(LIMIT_SQL).toArray()[0] ?? NO_LIMIT

/** The limit at `now` and what reader `readerId` spent since `since`. */
export function spendingIn(sql: SqlStorage, readerId: number, since: string, now: Date): MonthSpent & { limit: LimitState } {
  const bySeries = sql
    .exec<{ seriesId: number; coins: number }>(
      `SELECT series_id AS seriesId, -sum(amount) AS coins ${MONTH_USE} GROUP BY series_id HAVING coins > 0 ORDER BY coins DESC, series_id`,
      readerId,
      since,
    )
    .toArray()
  return { limit: limitAt(readLimit(sql), now), spent: bySeries.reduce((sum, s) => sum + s.coins, 0), bySeries }
}

/** The reader asks for limit `wanted` (null: none) at `now` (rule: `changeLimit`); answers the state it leaves. */
export function writeLimit(sql: SqlStorage, wanted: number | null, now: Date): LimitState {
  const next = changeLimit(readLimit(sql), wanted, now)
  sql.exec(
    `INSERT INTO spending_limit (id, coins, next_coins, next_at, set_at) VALUES (1, ?1, ?2, ?3, ?4)
     ON CONFLICT (id) DO UPDATE SET coins = ?1, next_coins = ?2, next_at = ?3, set_at = ?4`,
    next.coins,
    next.nextCoins,
    next.nextAt,
    now.toISOString(),
  )
  return next
}
