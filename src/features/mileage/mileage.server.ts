/**
 * Mileage exchange (docs/API.md `POST /api/v1/payment/mileage`, spec §5/§9; docs/ARCHITECTURE.md "Money": one
 * batch of guarded lot updates, ledger rows, the new lot and the idempotency row). It touches only the reader's
 * money rows, so every statement goes through `moneyDb` (issue 38).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { rows } from '../../lib/server/rows.ts'
import type { CoinSummary } from '../wallet/wallet.ts'
import { COIN_SUMMARY_SQL, coinSummaryParams, type SpendableLotRow } from '../wallet/wallet.server.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { IdempotencyKeyTaken, isKeyTaken, storedData, storeResponseStatement } from '../wallet/idempotency.server.ts'
import { EXCHANGE_COIN_TYPE, planExchange } from './mileage.ts'
import type { ExchangeRate } from './exchange.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { moneyDb } from '../reader/money-db.server.ts'

/** Re-plans after a concurrent change refused the batch (each refusal is another request's commit). */
const EXCHANGE_ATTEMPTS = 20

export type ExchangeInput = { userId: number; amount: number; rate: ExchangeRate; claim: IdempotencyClaim }
export type ExchangeResult = { coin: CoinSummary }

/** Ledger description of both sides of an exchange (the history shows source MILEAGE). */
const DESCRIPTION = 'mileage exchange'

/**
 * Exchanges `amount` mileage points for coins (rules: `planExchange`). One batch:
 * - per mileage lot drawn, earliest expiry first: a conditional update (`remaining >= take`, not expired) and
 *   its USE ledger row (source MILEAGE) whose amount is `-take` only when the update changed one row — else
 *   0, which the ledger's CHECK (amount <> 0) refuses, failing the whole batch (the guard of `adminAdjust`);
 * - a FREE_COIN lot of `amount / mileagePerCoin` coins, source MILEAGE, expiring in 30 days, and its CHARGE row;
 * - the idempotency row holding the answer `{coin}`, computed after the writes.
 * A refused batch wrote nothing and is planned again from fresh lots; a lost race for the key throws
 * IdempotencyKeyTaken (the middleware answers with the winner's stored response).
 */
export async function exchangeMileage(db: Db, input: ExchangeInput, now = new Date()): Promise<ExchangeResult> {
  const { userId, amount, rate, claim } = input
  const nowIso = now.toISOString()
  const money = moneyDb(db, userId)
  for (let attempt = 1; ; attempt++) {
    const [keyRow, lotRows] = await money.batch([
      { sql: `SELECT 1 AS taken FROM idempotency_keys WHERE user_id = ? AND key = ?`, params: [userId, claim.key] },
      {
        sql: `SELECT id, type, remaining, expires_at AS expiresAt FROM coin_lots WHERE user_id = ? AND type = 'MILEAGE' AND remaining > 0`,
        params: [userId],
      },
    ])
    if (keyRow!.results.length > 0) throw new IdempotencyKeyTaken()
    const planned = planExchange(rows<SpendableLotRow>(lotRows), amount, rate, now)
    if (!planned.ok) throw new AppError(planned.code)
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
    try {
      const results = await money.batch(statements)
      return storedData<ExchangeResult>(results)
    } catch (e) {
      if (isKeyTaken(e)) throw new IdempotencyKeyTaken()
      if (!isConstraint(e, 'CHECK')) throw e
      if (attempt >= EXCHANGE_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
  }
}
