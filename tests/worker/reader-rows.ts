/**
 * A reader's money rows as the worker tests read and write them directly (issue 38): coin lots and ledger,
 * purchases and rights, wait-until-free tickets, automatic unlocks, idempotency keys, payments with their events and
 * reversals, gifts, coupon redemptions, event tickets and entries. These tables move into each reader's object with
 * the same columns (`user_id` included), so a test names the reader whose rows a statement touches and goes through
 * here: the statements run in that reader's object, as the service's do (`moneyDb`).
 *
 * A statement here touches these tables only (a join with the catalogue or the accounts is two statements): each
 * call checks it, so a test cannot lean on a join the move will take away.
 */
import { env } from 'cloudflare:workers'
import { createDb, type Statement } from '../../src/lib/server/db.ts'
import { moneyDb } from '../../src/features/reader/money-db.server.ts'

const db = createDb(env.DB)
const of = (readerId: number) => moneyDb(db, readerId)

export const readerRows = {
  /** Rows of one statement over reader `readerId`'s money tables. */
  all: <T = Record<string, unknown>>(readerId: number, sql: string, ...params: unknown[]) => of(readerId).all<T>(sql, ...params),
  /** The first row of one statement, or null. */
  first: <T = Record<string, unknown>>(readerId: number, sql: string, ...params: unknown[]) => of(readerId).first<T>(sql, ...params),
  /** One write; the number of changed rows. */
  run: (readerId: number, sql: string, ...params: unknown[]) => of(readerId).run(sql, ...params),
  /** Several statements in one transaction. */
  batch: (readerId: number, statements: Statement[]) => of(readerId).batch(statements),
}
