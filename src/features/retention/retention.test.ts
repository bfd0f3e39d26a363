import { readdirSync, readFileSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../lib/server/db.ts'
import { sweep } from '../../lib/server/sweep.ts'
import { DAY_MS } from '../../lib/time.ts'
import { RETENTION_RULES, retentionCutoff } from './retention.ts'
import { purgeExpired } from './retention.server.ts'

const NOW = new Date('2026-11-25T12:00:00.000Z')

describe('RETENTION_RULES', () => {
  it('counts each age back from now', () => {
    expect(retentionCutoff({ keepMs: DAY_MS }, NOW)).toBe('2026-11-24T12:00:00.000Z')
    expect(retentionCutoff({ keepMs: 0 }, NOW)).toBe(NOW.toISOString())
  })

  it('names no table of the money record, and only never-paid payments', () => {
    const tables = RETENTION_RULES.map((r) => r.table)
    for (const money of ['coin_ledger', 'coin_lots', 'purchases', 'payment_reversals', 'conversion_events'])
      expect(tables).not.toContain(money)
    expect(RETENTION_RULES.find((r) => r.table === 'payments')?.only).toEqual({ column: 'state', values: ['UNPAID', 'CANCELLED'] })
    expect(new Set(tables).size).toBe(tables.length)
  })

  it('keeps idempotency keys 24 h and rotated refresh tokens until their own expiry', () => {
    expect(RETENTION_RULES.find((r) => r.table === 'idempotency_keys')).toMatchObject({ since: 'created_at', keepMs: DAY_MS })
    expect(RETENTION_RULES.find((r) => r.table === 'refresh_tokens')).toMatchObject({ since: 'expires_at', keepMs: 0 })
  })
})

/** The Db helper over an in-memory SQLite with every migration applied; `statements` collects the SQL run. */
function sqliteDb(): { db: Db; statements: string[] } {
  const sqlite = new DatabaseSync(':memory:')
  for (const f of readdirSync('migrations').sort()) sqlite.exec(readFileSync(`migrations/${f}`, 'utf8'))
  const statements: string[] = []
  const run = (sql: string, params: unknown[]) => {
    statements.push(sql)
    return Number(sqlite.prepare(sql).run(...(params as never[])).changes)
  }
  const db: Db = {
    all: async () => [],
    first: async () => null,
    bookmark: () => null,
    run: async (sql, ...params) => run(sql, params),
    batch: async (list) =>
      list.map((s) => ({ results: [], success: true, meta: { changes: run(s.sql, s.params ?? []) } }) as unknown as D1Result),
    queryCount: 0,
  }
  return { db, statements }
}

describe('purgeExpired', () => {
  it('walks an index in every statement: no statement scans a whole table', async () => {
    const { db, statements } = sqliteDb()
    await purgeExpired(db, NOW)
    expect(statements.length).toBeGreaterThanOrEqual(RETENTION_RULES.length)
    const explain = new DatabaseSync(':memory:')
    for (const f of readdirSync('migrations').sort()) explain.exec(readFileSync(`migrations/${f}`, 'utf8'))
    for (const sql of statements) {
      const plan = explain
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all('2026-01-01T00:00:00.000Z', 500)
        .map((r) => String(r.detail))
      expect(
        plan.filter((line) => line.startsWith('SCAN')),
        `${sql}\n${plan.join('\n')}`,
      ).toEqual([])
    }
  })
})

describe('sweep', () => {
  const budget = (batches: number) => {
    let calls = 0
    return { deadline: batches, clock: () => calls++ }
  }
  /** A job with `rows` to take, `size` per batch; `log` records which job ran. */
  const job = (name: string, rows: number, size: number, log: string[]) => {
    let left = rows
    return async () => {
      log.push(name)
      const n = Math.min(size, left)
      left -= n
      return n
    }
  }

  it('takes turns, one batch per job per round, until each job takes less than a full batch', async () => {
    const log: string[] = []
    const results = await sweep([job('a', 25, 10, log), job('b', 5, 10, log)], 10, budget(100))
    expect(log).toEqual(['a', 'b', 'a', 'a'])
    expect(results).toEqual([
      { rows: 25, batches: 3, done: true },
      { rows: 5, batches: 1, done: true },
    ])
  })

  it('starts no batch once the budget is spent and says which jobs are not done', async () => {
    const log: string[] = []
    const results = await sweep([job('a', 25, 10, log), job('b', 30, 10, log)], 10, budget(3))
    expect(log).toEqual(['a', 'b', 'a'])
    expect(results).toEqual([
      { rows: 20, batches: 2, done: false },
      { rows: 10, batches: 1, done: false },
    ])
  })
})
