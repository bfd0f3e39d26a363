/**
 * A reader's money rows as the worker tests read and write them directly (issue 38): coin lots and ledger,
 * purchases and rights, wait-until-free tickets, automatic unlocks, idempotency keys, payments with their events and
 * reversals, gifts, coupon redemptions, event tickets and entries. These tables move into each reader's object with
 * the same columns (`user_id` included), so a test names the reader whose rows a statement touches and goes through
 * here: the move changes this file, not the tests. Today the rows are in D1.
 *
 * A statement here touches these tables only (a join with the catalogue or the accounts is two statements): each
 * call checks it, so a test cannot lean on a join the move will take away.
 */
import { env } from 'cloudflare:workers'
import { createDb, type Statement } from '../../src/lib/server/db.ts'

const db = createDb(env.DB)

const READER_TABLES = new Set([
  'coin_lots',
  'coin_ledger',
  'purchases',
  'ownerships',
  'wuf_tickets',
  'auto_unlock',
  'idempotency_keys',
  'payments',
  'payment_events',
  'payment_reversals',
  'gifts',
  'coupon_redemptions',
  'event_tickets',
  'event_entries',
  'json_each', // a parameter's list, not a table
])

/** Throws when `sql` names a table that stays on the shared side (`SET`: an upsert's `DO UPDATE SET`). */
function readerOnly(sql: string): string {
  for (const [, table] of sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)/gi)) {
    if (READER_TABLES.has(table!.toLowerCase()) || table!.toUpperCase() === 'SET') continue
    throw new Error(`reader-rows: ${table} is not one of a reader's money tables: ${sql}`)
  }
  return sql
}

export const readerRows = {
  /** Rows of one statement over reader `_readerId`'s money tables. */
  all: <T = Record<string, unknown>>(_readerId: number, sql: string, ...params: unknown[]) => db.all<T>(readerOnly(sql), ...params),
  /** The first row of one statement, or null. */
  first: <T = Record<string, unknown>>(_readerId: number, sql: string, ...params: unknown[]) => db.first<T>(readerOnly(sql), ...params),
  /** One write; the number of changed rows. */
  run: (_readerId: number, sql: string, ...params: unknown[]) => db.run(readerOnly(sql), ...params),
  /** Several statements in one transaction. */
  batch: (_readerId: number, statements: Statement[]) => db.batch(statements.map((s) => ({ ...s, sql: readerOnly(s.sql) }))),
}
