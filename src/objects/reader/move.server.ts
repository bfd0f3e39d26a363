/**
 * The background move of reading progress, favourites, hidden series, sessions, addresses, alarms and money into readers' objects (issue 38
 * point 5), run by the cron of functions/worker.ts: readers whose rows are still in D1 `reading_progress`, `favorites`,
 * `hidden_series`, (live) `refresh_tokens`, `addresses`, `alarms` or a money table (who made no call since the move began, or whose rows the demo seed wrote) are moved MOVE_BATCH at a time, each by their own object (`Reader.moveIn`,
 * which deletes what it took), within the run's budget (src/lib/server/sweep.ts).
 */
import type { Db } from '../../lib/server/db.ts'
import { cronBudget, sweep, type SweepBudget, type SweepResult } from '../../lib/server/sweep.ts'
import { LIVE_TOKENS, type Reader } from './reader.server.ts'

/** The readers with money rows still in D1 (reader migration 6), five terms at most per compound SELECT. */
const MONEY_READERS = `SELECT user_id FROM coin_lots UNION SELECT user_id FROM coin_ledger UNION SELECT user_id FROM purchases
  UNION SELECT user_id FROM ownerships UNION SELECT user_id FROM (
    SELECT user_id FROM payments UNION SELECT user_id FROM payment_reversals UNION SELECT user_id FROM idempotency_keys
    UNION SELECT user_id FROM wuf_tickets UNION SELECT user_id FROM (
      SELECT user_id FROM auto_unlock UNION SELECT user_id FROM gifts UNION SELECT user_id FROM coupon_redemptions
      UNION SELECT user_id FROM event_tickets UNION SELECT user_id FROM event_entries))`

/** Readers moved per batch (one object call each, in parallel). */
const MOVE_BATCH = 20

export async function moveWaitingReaders(
  db: Db,
  readers: DurableObjectNamespace<Reader>,
  budget: SweepBudget = cronBudget(),
): Promise<SweepResult> {
  const [result] = await sweep(
    [
      async () => {
        const waiting = await db.all<{ userId: number }>(
          // D1 takes at most 5 terms in one compound SELECT
          `SELECT user_id AS userId FROM reading_progress UNION SELECT user_id FROM favorites UNION SELECT user_id FROM hidden_series
           UNION SELECT user_id FROM (SELECT user_id FROM refresh_tokens WHERE ${LIVE_TOKENS} UNION SELECT user_id FROM addresses
                                      UNION SELECT user_id FROM alarms)
           UNION SELECT user_id FROM (${MONEY_READERS}) LIMIT ?`,
          new Date().toISOString(),
          MOVE_BATCH,
        )
        await Promise.all(waiting.map(({ userId }) => readers.getByName(String(userId)).moveIn(userId)))
        return waiting.length
      },
    ],
    MOVE_BATCH,
    budget,
  )
  return result!
}
