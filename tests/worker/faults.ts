import type { Db } from '../../src/lib/server/db.ts'

/**
 * `db` whose first writing batch fails at statement `at`: that statement is swapped for one that fails while
 * running (not while compiling), after the statements before it have run, so D1 must roll the batch back.
 * `inspect` sees the batch first.
 */
export function failingAt(db: Db, at: number, inspect?: (statements: Parameters<Db['batch']>[0]) => void): Db {
  let writes = 0
  return {
    ...db,
    async batch(statements) {
      if (statements.some((s) => /^\s*(INSERT|UPDATE|DELETE)/.test(s.sql)) && writes++ === 0) {
        inspect?.(statements)
        statements = statements.map((s, i) => (i === at ? { sql: `INSERT INTO meta (key, value) VALUES ('fault', json('{'))` } : s))
      }
      return db.batch(statements)
    },
    get queryCount() {
      return db.queryCount
    },
  }
}
