/**
 * Idempotency rows on D1 (docs/API.md Idempotency-Key, docs/ARCHITECTURE.md "Money": the idempotency row is part of
 * the purchase batch). A write never stores its key on its own: the row is one statement of the same D1
 * batch that moves the coins, so either both commit or neither does. Two requests racing with one key both
 * run their batch; the primary key (user_id, key) lets exactly one commit, the other fails as a whole and
 * answers with the row the winner stored. Idempotency rows are the reader's money rows (issue 38): the batch that
 * holds one goes through `moneyDb` with the rest of the movement.
 */
import { AppError, type ErrorCode } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { IdempotencyKeysRow } from '../../lib/server/db-types.ts'
import { firstRow, type Cols } from '../../lib/server/rows.ts'
import { idempotencyOutcome, type IdempotencyClaim, type IdempotencyOutcome } from './idempotency.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { moneyDb } from '../reader/money-db.server.ts'

/** What the stored row says about a claim (the claiming reader's money rows, moneyDb). */
export async function lookupIdempotency(db: Db, claim: IdempotencyClaim): Promise<IdempotencyOutcome> {
  const row = await moneyDb(db, claim.userId).first<
    Cols<'idempotency_keys', 'scope' | 'request_hash'> & {
      status: IdempotencyKeysRow['response_status']
      body: IdempotencyKeysRow['response_body']
    }
  >(
    `SELECT scope, request_hash AS requestHash, response_status AS status, response_body AS body FROM idempotency_keys WHERE user_id = ? AND key = ?`,
    claim.userId,
    claim.key,
  )
  return idempotencyOutcome(claim, row)
}

/** The statement, first in a procedure's read, whose one row says the claim's key is stored already (`taken`). */
export const keyTaken = (claim: IdempotencyClaim) => ({
  sql: `SELECT 1 AS taken FROM idempotency_keys WHERE user_id = ? AND key = ?`,
  params: [claim.userId, claim.key],
})

/**
 * The statement that stores the first answer, to put last in a money batch: `bodySql` is an SQL expression
 * (with `bodyParams`) evaluated inside the batch, after its writes, so the stored body describes exactly
 * what the batch did. RETURNING gives the body back: the first answer and every replay are the same text.
 */
export function storeResponseStatement(claim: IdempotencyClaim, status: number, bodySql: string, bodyParams: unknown[]) {
  return {
    sql: `INSERT INTO idempotency_keys (user_id, key, scope, request_hash, response_status, response_body)
          VALUES (?, ?, ?, ?, ?, ${bodySql}) RETURNING response_body AS body`,
    params: [claim.userId, claim.key, claim.scope, claim.requestHash, status, ...bodyParams],
  }
}

/**
 * The `data` of the answer a committed money batch stored: its last statement is `storeResponseStatement`, whose
 * RETURNING gives the body (`{ result, data }`) back.
 */
export function storedData<T>(results: D1Result[]): T {
  const row = firstRow<{ body: IdempotencyKeysRow['response_body'] }>(results[results.length - 1])!
  return (JSON.parse(row.body) as { data: T }).data
}

/** True when a batch failed because another request stored its row under the same key first. */
export function isKeyTaken(e: unknown): boolean {
  return isConstraint(e, 'UNIQUE', 'idempotency_keys.')
}

/**
 * Thrown by a write whose batch lost the race for its key: nothing of it was written. Its code is the
 * catalogue's 409 so that without the idempotency middleware it still answers sensibly; the middleware
 * answers with the stored response instead when the bodies match.
 */
export class IdempotencyKeyTaken extends AppError {
  constructor() {
    super('IDEMPOTENCY_KEY_REUSED')
  }
}

/**
 * What a money procedure decided in the reader's object answers (src/objects/reader/procedures.server.ts): its result,
 * a refusal (a catalogue code and its details), its key stored before (`taken`), or the text of a batch that failed.
 */
export type Decision<T> =
  { result: T } | { refused: ErrorCode; details?: Record<string, unknown> } | { taken: true } | { ok: false; error: string }

/**
 * The result of a decision, or the throw of its refusal (an AppError), of its stored key (IdempotencyKeyTaken: the
 * middleware answers with the stored response) or of a failed batch.
 */
export function settled<T>(outcome: Decision<T>): T {
  if ('error' in outcome) throw new Error(outcome.error)
  if ('taken' in outcome) throw new IdempotencyKeyTaken()
  if ('refused' in outcome) throw new AppError(outcome.refused, outcome.details)
  return outcome.result
}
