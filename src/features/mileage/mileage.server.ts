/**
 * Mileage exchange (docs/API.md `POST /api/v1/payment/mileage`, spec §5/§9; docs/ARCHITECTURE.md "Money": one
 * batch of guarded lot updates, ledger rows, the new lot and the idempotency row). It touches only the reader's
 * money rows: one call to their object decides and writes it (`exchange`, src/objects/reader/procedures.server.ts).
 */
import { rows } from '../../lib/server/rows.ts'
import type { CoinSummary } from '../wallet/wallet.ts'
import { COIN_SUMMARY_SQL, coinSummaryParams, type SpendableLotRow } from '../wallet/wallet.server.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { keyTaken, settled, storedData, storeResponseStatement, type Decision } from '../wallet/idempotency.server.ts'
import { EXCHANGE_COIN_TYPE, planExchange } from './mileage.ts'
import type { ExchangeRate } from './exchange.ts'
import { decide } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'

export type ExchangeInput = { userId: number; amount: number; rate: ExchangeRate; claim: IdempotencyClaim }
export type ExchangeResult = { coin: CoinSummary }

/** Ledger description of both sides of an exchange (the history shows source MILEAGE). */
const DESCRIPTION = 'mileage exchange'

/**
 * Exchanges `amount` mileage points for coins (rules: `planExchange`): one call to the reader's object (`exchange`),
 * which first checks the access token's `session` when given (NEED_TO_REFRESH). A stored key throws
 * IdempotencyKeyTaken (the middleware answers with the stored response).
 */
export async function exchangeMileage(input: ExchangeInput, session?: SessionClaim, now = new Date()): Promise<ExchangeResult> {
  return settled(await decide(input.userId, 'exchange', { ...input, now: now.toISOString() }, { session }))
}

/**
 * An exchange inside the reader's object (procedures.server.ts): reads the key and the mileage lots, plans, then writes
 * one batch, with nothing in between:
 * - per mileage lot drawn, earliest expiry first: a conditional update (`remaining >= take`, not expired) and
 *   its USE ledger row (source MILEAGE) whose amount is `-take` only when the update changed one row — else
 *   0, which the ledger's CHECK (amount <> 0) refuses, failing the whole batch (the guard of `adminAdjust`);
 * - a FREE_COIN lot of `amount / mileagePerCoin` coins, source MILEAGE, expiring in 30 days, and its CHARGE row;
 * - the idempotency row holding the answer `{coin}`, computed after the writes.
 */
export function exchange(run: MoneyRun, order: ExchangeInput & { now: string }): Decision<ExchangeResult> {
  const { userId, amount, rate, claim, now: nowIso } = order
  const read = run([
    keyTaken(claim),
    {
      sql: `SELECT id, type, remaining, expires_at AS expiresAt FROM coin_lots WHERE user_id = ? AND type = 'MILEAGE' AND remaining > 0`,
      params: [userId],
    },
  ])
  if (!read.ok) return read
  const [keyRow, lotRows] = read.results
  if (keyRow!.results.length > 0) return { taken: true }
  const planned = planExchange(rows<SpendableLotRow>(lotRows), amount, rate, new Date(nowIso))
  if (!planned.ok) return { refused: planned.code }
  const { steps, coins, expiresAt } = planned.plan
  const statements: { sql: string; params: unknown[] }[] = steps.flatMap((step) => [
    {
      sql: `UPDATE coin_lots SET remaining = remaining - ? WHERE id = ? AND user_id = ? AND type = 'MILEAGE' AND remaining >= ? AND (expires_at IS NULL OR expires_at > ?)`,
      params: [step.take, step.lotId, userId, step.take, nowIso],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, description, idempotency_key, created_at)
            VALUES (?, 'USE', ?, 'MILEAGE', 'MILEAGE', CASE WHEN changes() = 1 THEN ? ELSE 0 END, ?, ?, ?)`,
      params: [userId, step.lotId, -step.take, DESCRIPTION, claim.key, nowIso],
    },
  ])
  statements.push(
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, created_at) VALUES (?, ?, ?, ?, ?, 'MILEAGE', ?, ?)`,
      params: [userId, EXCHANGE_COIN_TYPE, coins, coins, expiresAt, `mileage:${amount}`, nowIso],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, description, idempotency_key, created_at)
            VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'MILEAGE', ?, ?, ?, ?)`,
      params: [userId, EXCHANGE_COIN_TYPE, coins, DESCRIPTION, claim.key, nowIso],
    },
    storeResponseStatement(
      claim,
      200,
      `json_object('result', 'SUCCESS', 'data', json_object('coin', json(${COIN_SUMMARY_SQL})))`,
      coinSummaryParams(userId, nowIso),
    ),
  )
  const written = run(statements)
  return written.ok ? { result: storedData<ExchangeResult>(written.results) } : written
}
