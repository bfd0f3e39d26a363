import type { Db, Statement } from '../../src/lib/server/db.ts'
import { Reader } from '../../src/objects/reader/reader.server.ts'
import type { MoneyOutcome } from '../../src/features/reader/money-store.server.ts'

const WRITE = /^\s*(INSERT|UPDATE|DELETE)/i
const FAILING = { sql: `SELECT json('{')`, params: [] } // fails while running, not while compiling

/**
 * `db` whose first writing batch on D1 fails at statement `at`: that statement is swapped for one that fails while
 * running, after the statements before it have run, so D1 must roll the batch back. `inspect` sees the batch first.
 */
export function failingAt(db: Db, at: number, inspect?: (statements: Statement[]) => void): Db {
  let writes = 0
  return {
    ...db,
    async batch(statements) {
      if (statements.some((s) => WRITE.test(s.sql)) && writes++ === 0) {
        inspect?.(statements)
        statements = statements.map((s, i) => (i === at ? FAILING : s))
      }
      return db.batch(statements)
    },
    get queryCount() {
      return db.queryCount
    },
  }
}

/** `db` whose claim of a coupon's unit (the conditional `used_count + 1` UPDATE on D1) fails while running. */
export function claimFailing(db: Db): Db {
  return { ...db, run: (sql, ...params) => (sql.includes('used_count + 1') ? db.run(FAILING.sql) : db.run(sql, ...params)) }
}

type MoneyCall = (statements: Statement[]) => MoneyOutcome

/**
 * What `work` gives while every batch over a reader's money (run in the reader's object, one transaction:
 * docs/ARCHITECTURE.md "Reader objects") goes through `hook`, with the object's own run as `next`. The objects run in
 * the tests' isolate, so the hook is the class's (its private `transact`, where every money batch of a call runs).
 */
export async function throughMoney<T>(
  hook: (statements: Statement[], next: MoneyCall) => MoneyOutcome,
  work: () => Promise<T>,
): Promise<T> {
  const proto = Reader.prototype as unknown as { transact: MoneyCall }
  const transact = proto.transact
  proto.transact = function (this: Reader, statements: Statement[]) {
    return hook(statements, (s) => transact.call(this, s))
  }
  try {
    return await work()
  } finally {
    proto.transact = transact
  }
}

/**
 * What `work` gives when the first writing batch over a reader's money fails at statement `at`, swapped as in
 * `failingAt`: the object must roll the batch back. `inspect` sees the batch first.
 */
export function withMoneyFaultAt<T>(at: number, work: () => Promise<T>, inspect?: (statements: Statement[]) => void): Promise<T> {
  let writes = 0
  return throughMoney((statements, next) => {
    if (statements.some((s) => WRITE.test(s.sql)) && writes++ === 0) {
      inspect?.(statements)
      return next(statements.map((s, i) => (i === at ? FAILING : s)))
    }
    return next(statements)
  }, work)
}
