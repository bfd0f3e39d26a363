/**
 * A reader's money rows (issue 38; docs/ARCHITECTURE.md "Reader objects"): coin lots and ledger, purchases and rights,
 * wait-until-free tickets, automatic unlocks, idempotency keys, payments with their events and reversals, gifts,
 * coupon redemptions, event tickets and entries. They move into each reader's object with the same columns
 * (`user_id` kept), so every statement over them goes through `moneyDb(db, readerId)`: it names the one reader whose
 * rows it touches, and refuses SQL that names any other table (a join with the catalogue or the accounts is two
 * statements: the shared facts are read first and passed as parameters). They run in the reader's object, one
 * transaction per batch (money-store.server.ts); rows still in D1 move in at the object's first call (money-move.server.ts).
 */
import type { Db, Statement } from '../../lib/server/db.ts'
import { withReader } from './stub.server.ts'
import type { MoneyOutcome } from './money-store.server.ts'
import type { SessionEnded } from '../../objects/reader/reader.server.ts'
import type { SessionClaim } from './session-claim.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { ProcedureInput, ProcedureName, ProcedureOutcome } from '../../objects/reader/procedures.server.ts'

/** The tables that belong to one reader's money, parents first (a row's references land before it: the move from D1). */
export const MONEY_TABLES = [
  'payments',
  'payment_events',
  'payment_reversals',
  'coin_lots',
  'coin_ledger',
  'purchases',
  'ownerships',
  'wuf_tickets',
  'auto_unlock',
  'idempotency_keys',
  'gifts',
  'coupon_redemptions',
  'event_tickets',
  'event_entries',
] as const
/** What a statement over them may name (`json_each` is a parameter's list, not a table). */
const MONEY_NAMES = new Set<string>([...MONEY_TABLES, 'json_each'])

/** `sql`, or an error when it names a table outside a reader's money (`SET`: an upsert's `DO UPDATE SET`). */
function moneyOnly(sql: string): string {
  for (const [, table] of sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)/gi)) {
    if (MONEY_NAMES.has(table!.toLowerCase()) || table!.toUpperCase() === 'SET') continue
    throw new Error(`money-db: ${table} is not one of a reader's money tables: ${sql}`)
  }
  return sql
}

/** `statements`, each checked to name a reader's money tables only, for a batch run in a reader's object. */
export const moneyStatements = (statements: Statement[]): Statement[] => statements.map((s) => ({ ...s, sql: moneyOnly(s.sql) }))

/**
 * The results of a batch run in reader `readerId`'s object, or a throw with the refusal's text (as D1's); given an
 * access token's claim, NEED_TO_REFRESH when the object found its session ended.
 */
async function inReaderOf(readerId: number, statements: Statement[], session?: SessionClaim): Promise<D1Result[]> {
  const outcome = (await withReader<unknown>(readerId, (reader) => reader.money(readerId, statements, session))) as
    MoneyOutcome | SessionEnded
  if ('sessionEnded' in outcome) throw new AppError('NEED_TO_REFRESH')
  if ('error' in outcome) throw new Error(outcome.error)
  return outcome.results
}

/**
 * The statements over reader `readerId`'s money rows, run in the reader's object. A batch is one transaction; it
 * touches this reader's rows only (the object holds no other reader's). `session`: the access token's claim, which the
 * object checks before each batch (ASVS 7.4.1/7.4.3: NEED_TO_REFRESH), in the same call.
 */
export function moneyDb(db: Db, readerId: number, session?: SessionClaim): Db {
  const inReader = (statements: Statement[]) => inReaderOf(readerId, statements, session)
  const one = async (sql: string, params: unknown[]) => (await inReader([{ sql: moneyOnly(sql), params }]))[0]!
  return {
    all: async <T>(sql: string, ...params: unknown[]) => (await one(sql, params)).results as T[],
    first: async <T>(sql: string, ...params: unknown[]) => ((await one(sql, params)).results[0] as T | undefined) ?? null,
    run: async (sql, ...params) => (await one(sql, params)).meta.changes ?? 0,
    batch: (statements: Statement[]) => inReader(moneyStatements(statements)),
    get queryCount() {
      return db.queryCount
    },
    bookmark: () => db.bookmark(),
  }
}

/**
 * Runs the money procedure `name` (procedures.server.ts) in reader `readerId`'s object: one call. `by.session`: the
 * access token's claim, checked there first (NEED_TO_REFRESH); `by.account`: the procedure is given the account card.
 */
export async function decide<K extends ProcedureName>(
  readerId: number,
  name: K,
  input: ProcedureInput<K>,
  by: { session?: SessionClaim; account?: boolean } = {},
): Promise<ProcedureOutcome<K>> {
  const outcome = (await withReader<unknown>(readerId, (reader) => reader.decide(readerId, name, input, by))) as
    ProcedureOutcome<K> | SessionEnded
  if (outcome !== null && typeof outcome === 'object' && 'sessionEnded' in outcome) throw new AppError('NEED_TO_REFRESH')
  return outcome
}
