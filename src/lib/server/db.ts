/**
 * The one D1 access helper: every statement goes through it so a request's query count is known
 * (docs/QUALITY.md: ≤ 5 D1 queries per edge-rendered page; reported in the `X-D1-Queries` header).
 */
export type Db = {
  /** Rows of one statement. */
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>
  /** First row of one statement, or null. */
  first<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | null>
  /** Runs one write statement; returns the number of changed rows. */
  run(sql: string, ...params: unknown[]): Promise<number>
  /** Several statements in one atomic D1 batch (counted as one round trip). */
  batch(statements: { sql: string; params?: unknown[] }[]): Promise<D1Result[]>
  /** Statements run so far through this helper. */
  readonly queryCount: number
}

export function createDb(d1: D1Database): Db {
  let count = 0
  const prepare = (sql: string, params: unknown[]) => d1.prepare(sql).bind(...params)
  return {
    async all<T>(sql: string, ...params: unknown[]) {
      count++
      return (await prepare(sql, params).all<T>()).results
    },
    async first<T>(sql: string, ...params: unknown[]) {
      count++
      return (await prepare(sql, params).first<T>()) ?? null
    },
    async run(sql: string, ...params: unknown[]) {
      count++
      return (await prepare(sql, params).run()).meta.changes ?? 0
    },
    async batch(statements) {
      count++
      return d1.batch(statements.map((s) => prepare(s.sql, s.params ?? [])))
    },
    get queryCount() {
      return count
    },
  }
}
