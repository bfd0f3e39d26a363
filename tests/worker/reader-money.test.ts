/**
 * The reader object's money batches (issue 38; src/features/reader/money-store.server.ts): the statements the money
 * features send through `moneyDb` run in the reader's own SQLite with D1's meaning — one transaction per batch,
 * `changes()` and `last_insert_rowid()` between statements, a guard's CHECK or a taken key undoing everything and
 * recognised by its text (lib/server/constraint.ts), results shaped like D1's.
 */
import { describe, expect, it } from 'vitest'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { alarmsIn, execInReader, readerObject } from './reader.helpers.ts'
import { isConstraint } from '../../src/lib/server/constraint.ts'
import type { Statement } from '../../src/lib/server/db.ts'
import type { MoneyOutcome } from '../../src/features/reader/money-store.server.ts'
import { nextMoneyDue } from '../../src/objects/reader/money-time.server.ts'
import { app, buy, give, newReader, newSeries } from './purchase.helpers.ts'
import { request } from './app.ts'

let next = 900_000
const reader = () => ++next
/** The batch's results, or a throw with the refusal's text (as `moneyDb` will do on the worker's side). */
const money = async (id: number, statements: Statement[]) => {
  const outcome = (await readerObject(id).money(id, statements)) as MoneyOutcome
  if ('error' in outcome) throw new Error(outcome.error)
  return outcome.results
}
const grant = (id: number, amount: number): Statement[] => [
  {
    sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, source) VALUES (?, 'COIN', ?, ?, 'ADMIN')`,
    params: [id, amount, amount],
  },
  {
    sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), 'COIN', 'ADMIN', ?)
          RETURNING lot_id AS lotId, amount`,
    params: [id, amount],
  },
]
/** A spend of `take` from lot `lotId`, guarded as the purchase's: the ledger row's amount is 0 when the update changed nothing. */
const spend = (id: number, lotId: number, take: number): Statement[] => [
  {
    sql: `UPDATE coin_lots SET remaining = remaining - ? WHERE id = ? AND user_id = ? AND remaining >= ?`,
    params: [take, lotId, id, take],
  },
  {
    sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'USE', ?, 'COIN', 'ADMIN', CASE WHEN changes() = 1 THEN ? ELSE 0 END)`,
    params: [id, lotId, -take],
  },
]
const totals = async (id: number) => {
  const [res] = await money(id, [
    {
      sql: `SELECT (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1) AS lots,
                   (SELECT coalesce(sum(amount), 0) FROM coin_ledger WHERE user_id = ?1) AS ledger,
                   (SELECT count(*) FROM idempotency_keys WHERE user_id = ?1) AS keys`,
      params: [id],
    },
  ])
  return res!.results[0] as { lots: number; ledger: number; keys: number }
}
const key = (id: number, k: string): Statement => ({
  sql: `INSERT INTO idempotency_keys (user_id, key, request_hash, response_status, response_body) VALUES (?, ?, 'h', 200, '{}')`,
  params: [id, k],
})

describe("a reader object's money batch", () => {
  it('runs with D1 meaning: rowids and changes between statements, RETURNING rows, write counts', async () => {
    const id = reader()
    const [lot, ledger] = await money(id, grant(id, 100))
    expect(lot!.meta.changes).toBe(1)
    expect(ledger!.results).toEqual([{ lotId: lot!.meta.last_row_id, amount: 100 }])
    const [update, use] = await money(id, spend(id, lot!.meta.last_row_id as number, 30))
    expect([update!.meta.changes, use!.meta.changes]).toEqual([1, 1])
    expect(await totals(id)).toEqual({ lots: 70, ledger: 70, keys: 0 })
  })

  it('undoes the whole batch when a guard fires, and the error reads as a CHECK', async () => {
    const id = reader()
    const [lot] = await money(id, grant(id, 10))
    const lotId = lot!.meta.last_row_id as number
    // an idempotency row first, then a spend past the lot: the ledger's CHECK (amount <> 0) refuses the batch
    const refused = await money(id, [key(id, 'k1'), ...spend(id, lotId, 11)]).catch((e: unknown) => e)
    expect(isConstraint(refused, 'CHECK')).toBe(true)
    expect(await totals(id)).toEqual({ lots: 10, ledger: 10, keys: 0 })
  })

  it('refuses a key stored before, as a UNIQUE failure on idempotency_keys, writing nothing', async () => {
    const id = reader()
    await money(id, [key(id, 'k1')])
    const [lot] = await money(id, grant(id, 5))
    const refused = await money(id, [...spend(id, lot!.meta.last_row_id as number, 5), key(id, 'k1')]).catch((e: unknown) => e)
    expect(isConstraint(refused, 'UNIQUE', 'idempotency_keys.')).toBe(true)
    expect(await totals(id)).toEqual({ lots: 5, ledger: 5, keys: 1 })
  })

  it('keeps the ledger append-only', async () => {
    const id = reader()
    await money(id, grant(id, 5))
    await expect(money(id, [{ sql: `UPDATE coin_ledger SET amount = 1 WHERE user_id = ?`, params: [id] }])).rejects.toThrow(/append-only/)
    await expect(money(id, [{ sql: `DELETE FROM coin_ledger WHERE user_id = ?`, params: [id] }])).rejects.toThrow(/append-only/)
    expect(await totals(id)).toEqual({ lots: 5, ledger: 5, keys: 0 })
  })

  it('serves 40 spends at once without a coin spent twice', async () => {
    const id = reader()
    const [lot] = await money(id, grant(id, 25))
    const lotId = lot!.meta.last_row_id as number
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => money(id, spend(id, lotId, 1))))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(25)
    expect(await totals(id)).toEqual({ lots: 0, ledger: 0, keys: 0 })
  })
})

describe("a reader object's money alarm", () => {
  const hour = 3_600_000
  const lot = (id: number, amount: number, expiresAt: string, type = 'BONUS') => [
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, ?, ?, ?, ?, 'ADMIN')`,
      params: [id, type, amount, amount, expiresAt],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'ADMIN', ?)`,
      params: [id, type, amount],
    },
  ]

  it('expires a lot past its expiry, tells of one expiring within a week once, and wakes for the next', async () => {
    const id = reader()
    const soon = new Date(Date.now() + 3 * 24 * hour).toISOString()
    // a lot granted earlier that expired an hour ago (written as it stood before its expiry), one expiring in 3 days
    await money(id, [...lot(id, 7, new Date(Date.now() - hour).toISOString()), ...lot(id, 5, soon)])
    const stub = readerObject(id)
    // the batch set the alarm: the expired lot is due at once
    const set = await runInDurableObject(stub, (_o, state) => state.storage.getAlarm())
    expect(set).not.toBeNull()
    expect(set!).toBeLessThanOrEqual(Date.now() + 2000)
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    expect(await totals(id)).toEqual({ lots: 5, ledger: 5, keys: 0 })
    const expired = await money(id, [{ sql: `SELECT amount FROM coin_ledger WHERE kind = 'EXPIRE'` }])
    expect(expired[0]!.results).toEqual([{ amount: -7 }])
    const [notices] = await money(id, [{ sql: `SELECT title, body FROM alarms` }])
    expect((notices!.results as { title: string; body: string }[]).map((a) => [a.title, JSON.parse(a.body)])).toEqual([
      ['alarm.text.coinsExpiring', { amount: 5, date: soon }],
    ])
    // woken again, it tells nothing twice and expires nothing more; the next wake is the notice-free lot's expiry
    await runInDurableObject(stub, (_o, state) => state.storage.setAlarm(Date.now()))
    await runDurableObjectAlarm(stub)
    expect(await alarmsIn(id)).toHaveLength(1)
    expect(await totals(id)).toEqual({ lots: 5, ledger: 5, keys: 0 })
    expect(await runInDurableObject(stub, (_o, state) => state.storage.getAlarm())).toBe(Date.parse(soon))
  })
})

describe("the reader object's next wake", () => {
  it('is found by one statement through indexes after every money batch, never by reading the whole history', async () => {
    const stub = readerObject(2_000_000_123)
    await stub.positionAt(2_000_000_123, 0) // the object exists, migrated
    // each statement it runs, with SQLite's plan for it
    const plans = await runInDurableObject(stub, (_o, state) => {
      const sql = state.storage.sql
      const seen: string[] = []
      const watched = {
        exec: (query: string, ...params: SqlStorageValue[]) => {
          seen.push(
            sql
              .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...params)
              .toArray()
              .map((r) => r.detail)
              .join('; '),
          )
          return sql.exec(query, ...params)
        },
      }
      nextMoneyDue(watched as unknown as SqlStorage, new Date())
      return seen
    })
    // one statement; each of its 8 subqueries searches its money table through an index, none scans one (a gift's
    // notice looks at the reader's few unused gifts, then at their alarms by key)
    expect(plans).toHaveLength(1)
    const steps = plans[0]!.split('; ')
    expect(steps.filter((s) => s.startsWith('SCAN'))).toEqual(['SCAN CONSTANT ROW'])
    expect(steps.filter((s) => /^SEARCH \w+ USING (COVERING )?INDEX/.test(s))).toHaveLength(9)
  })
})

/** Rows a reader's object reads for `work`: each statement it runs is counted (SQLite's rows read, `cursor.rowsRead`). */
async function rowsReadBy(userId: number, work: () => Promise<void>): Promise<number> {
  const stub = readerObject(userId)
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = []
  let plain: SqlStorage['exec'] | null = null
  // the object runs in this isolate (the Workers test pool): its SQL storage is watched from here
  await runInDurableObject(stub, (_o, state) => {
    const sql = state.storage.sql
    const exec = (plain = sql.exec.bind(sql))
    sql.exec = ((query: string, ...params: SqlStorageValue[]) => {
      const cursor = exec(query, ...params)
      cursors.push(cursor)
      return cursor
    }) as SqlStorage['exec']
  })
  try {
    await work()
  } finally {
    await runInDurableObject(stub, (_o, state) => {
      state.storage.sql.exec = plain!
    })
  }
  return cursors.reduce((n, c) => n + c.rowsRead, 0)
}

describe("a sale in the reader's object", () => {
  it('reads as many rows for a reader with a long history as for a new one (indexes, not whole tables)', async () => {
    const { episodeIds } = await newSeries({ episodes: 4, priceRent: 1, priceBuy: 2 })
    const sale = async (history: number) => {
      const reader = await newReader()
      await give(reader.id, 'COIN', 50)
      expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'POSSESSION' })).status).toBe(200)
      // last year's sales: `history` rows in each table a sale touches (episodes of other series)
      const past = `WITH RECURSIVE n(i) AS (SELECT 1 WHERE ${history} > 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${history})`
      await execInReader(
        reader.id,
        `${past} INSERT INTO purchases (user_id, series_id, episode_id, type, coins, created_at)
        SELECT ?1, 0, -i, 'POSSESSION', 1, '2025-06-01T00:00:00.000Z' FROM n`,
        reader.id,
      )
      await execInReader(
        reader.id,
        `${past} INSERT INTO ownerships (user_id, series_id, episode_id, kind, purchase_id, created_at)
        SELECT ?1, 0, -i, 'POSSESSION', NULL, '2025-06-01T00:00:00.000Z' FROM n`,
        reader.id,
      )
      await execInReader(
        reader.id,
        `${past} INSERT INTO coin_ledger (user_id, kind, type, source, amount, product_kind, series_id, episode_id, created_at)
        SELECT ?1, 'USE', 'COIN', 'ADMIN', -1, 'EPISODE', 0, -i, '2025-06-01T00:00:00.000Z' FROM n`,
        reader.id,
      )
      await execInReader(reader.id, `DELETE FROM outbox`) // last year's sales were told to the shared side long ago
      return rowsReadBy(reader.id, async () => {
        expect((await buy(reader, { episodeIds: [episodeIds[1]], kind: 'RENT' })).status).toBe(200)
        expect((await buy(reader, { episodeIds: [episodeIds[2]], kind: 'POSSESSION' })).status).toBe(200)
        expect((await request(app, '/api/v1/user/spending-limit', { headers: reader.headers })).status).toBe(200)
      })
    }
    const fresh = await sale(0)
    // before, the month's spending was summed over the whole ledger: 6,103 rows read here where a new reader's read 103
    expect(await sale(2000)).toBeLessThanOrEqual(fresh + 5)
  })
})
