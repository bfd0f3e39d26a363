/**
 * A batch of statements over the reader's money rows (reader migration 6), run inside the reader's object: one
 * transaction — a statement that fails (a guard's CHECK, a unique key) undoes the whole batch — with results shaped
 * like D1's, so the statements `moneyDb` carries run here unchanged. A refusal comes back as a value with SQLite's
 * text (what lib/server/constraint.ts reads, as on D1), not as an exception thrown across the call.
 */
import type { Db, Statement } from '../../lib/server/db.ts'

/** A statement that changes rows (its `meta.changes` is SQLite's `changes()`; a read's is 0, as on D1). */
const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE)\b/i

/** A batch's outcome: its results, or the text of the error that undid it. */
export type MoneyOutcome = { ok: true; results: D1Result[] } | { ok: false; error: string }

/**
 * `counted`: each write's `meta.changes` and `last_row_id` are read (one more statement each); the `Db` adapters need
 * them, a procedure (procedures.server.ts) reads its rows and `rows_written` instead and saves those statements.
 */
export function runMoneyBatch(storage: DurableObjectStorage, statements: readonly Statement[], counted = true): MoneyOutcome {
  try {
    return { ok: true, results: run(storage, statements, counted) }
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) }
  }
}

function run(storage: DurableObjectStorage, statements: readonly Statement[], counted: boolean): D1Result[] {
  const sql = storage.sql
  return storage.transactionSync(() =>
    statements.map((s) => {
      const cursor = sql.exec(s.sql, ...(s.params ?? []).map((p) => (typeof p === 'boolean' ? Number(p) : p)))
      const results = cursor.toArray()
      // what a write changed, as D1 reports it (a read changes nothing: no statement asked)
      const last =
        counted && WRITE.test(s.sql)
          ? sql.exec<{ changes: number; id: number }>(`SELECT changes() AS changes, last_insert_rowid() AS id`).one()
          : { changes: 0, id: 0 }
      return {
        success: true,
        results,
        meta: {
          changes: last.changes,
          last_row_id: last.id,
          rows_read: cursor.rowsRead,
          rows_written: cursor.rowsWritten,
          changed_db: cursor.rowsWritten > 0,
          duration: 0,
          size_after: 0,
        },
      } as D1Result
    }),
  )
}

/** A `Db` over the object's own SQLite: what the money features' shared code (expiry, retention) runs on inside it. */
export function localDb(storage: DurableObjectStorage): Db {
  let count = 0
  const batch = async (statements: Statement[]) => {
    count++
    const outcome = runMoneyBatch(storage, statements)
    if (!outcome.ok) throw new Error(outcome.error)
    return outcome.results
  }
  const one = async (sql: string, params: unknown[]) => (await batch([{ sql, params }]))[0]!
  return {
    all: async <T>(sql: string, ...params: unknown[]) => (await one(sql, params)).results as T[],
    first: async <T>(sql: string, ...params: unknown[]) => ((await one(sql, params)).results[0] as T | undefined) ?? null,
    run: async (sql, ...params) => (await one(sql, params)).meta.changes ?? 0,
    batch,
    get queryCount() {
      return count
    },
    bookmark: () => null,
  }
}

/**
 * One batch over the reader's money rows, run in one transaction inside their object. Its writes' `meta.changes` and
 * `last_row_id` are not read (0): a procedure decides from its rows and `rows_written` (`counted` above).
 */
export type MoneyRun = (statements: Statement[]) => MoneyOutcome
