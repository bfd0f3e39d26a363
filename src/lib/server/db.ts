/**
 * The one D1 access helper: every statement goes through it so a request's query count is known
 * (docs/QUALITY.md: ≤ 5 D1 queries per edge-rendered page; reported in the `X-D1-Queries` header). Its statements
 * run in one D1 session (Sessions API, docs/ARCHITECTURE.md "Read replicas"): sequentially consistent, and free
 * to read from a read replica when created with `first-unconstrained` or a reader's bookmark.
 */
/** One statement of a batch. */
export type Statement = { sql: string; params?: unknown[] }

export type Db = {
  /** Rows of one statement. */
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>
  /** First row of one statement, or null. */
  first<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | null>
  /** Runs one write statement; returns the number of changed rows. */
  run(sql: string, ...params: unknown[]): Promise<number>
  /** Several statements in one atomic D1 batch (counted as one round trip). */
  batch(statements: Statement[]): Promise<D1Result[]>
  /** Statements run so far through this helper. */
  readonly queryCount: number
  /** The session's bookmark after its last statement (null before any): a later session from it sees these writes. */
  bookmark(): string | null
}

/**
 * Where a session starts: `first-primary` (the default: the cron, the queues, operators, anything that decides on
 * what it reads without a conditional write), `first-unconstrained` (any replica) or a bookmark.
 */
export type DbStart = 'first-primary' | 'first-unconstrained' | (string & {})

/** What a request's statements cost D1 (result meta), reported in headers for `npm run capacity` (docs/SCALE.md). */
export type D1Usage = { statements: number; rowsRead: number; rowsWritten: number }

export function createDb(d1: D1Database, start: DbStart = 'first-primary'): Db & { readonly usage: D1Usage } {
  // opened at the first statement: most of a reader's requests make none (a session cost 2 % of a sale's worker time)
  let opened: D1DatabaseSession | undefined
  const session = () => (opened ??= d1.withSession(start))
  let count = 0
  const usage: D1Usage = { statements: 0, rowsRead: 0, rowsWritten: 0 }
  const meter = <R extends D1Result>(result: R): R => {
    usage.statements++
    usage.rowsRead += result.meta.rows_read ?? 0
    usage.rowsWritten += result.meta.rows_written ?? 0
    return result
  }
  const prepare = (sql: string, params: unknown[]) =>
    session()
      .prepare(sql)
      .bind(...params)
  return {
    async all<T>(sql: string, ...params: unknown[]) {
      count++
      return meter(await prepare(sql, params).all<T>()).results
    },
    async first<T>(sql: string, ...params: unknown[]) {
      count++
      return meter(await prepare(sql, params).all<T>()).results[0] ?? null
    },
    async run(sql: string, ...params: unknown[]) {
      count++
      return meter(await prepare(sql, params).run()).meta.changes ?? 0
    },
    async batch(statements) {
      count++
      return (await session().batch(statements.map((s) => prepare(s.sql, s.params ?? [])))).map(meter)
    },
    bookmark: () => opened?.getBookmark() ?? null,
    get queryCount() {
      return count
    },
    usage,
  }
}
