/**
 * The move of a reader's money rows from D1 into their object (issue 38 point 5; reader migration 6 holds the same
 * tables with the same columns). Every row is taken with its id, so references between them (a ledger row's lot, a
 * right's purchase, a payment's events) hold as they were, and a move made twice inserts nothing the second time.
 * The move is checked before D1 forgets anything: the object's balance, its ledger replay and its rights must equal
 * what D1 held; when they do not, D1 keeps its rows and the move fails (nothing is lost, the next call tries again).
 */
import type { Statement } from '../../lib/server/db.ts'
import { MONEY_TABLES } from '../../features/reader/money-db.server.ts'

type MoneyTable = (typeof MONEY_TABLES)[number]

/** Rows of one table read from D1 in one statement (the move pages through a heavy reader's ledger). */
const MOVE_PAGE = 1000

/** A payment's events carry no reader: they are the events of the reader's payments. */
const mine = (table: MoneyTable) =>
  table === 'payment_events' ? `payment_id IN (SELECT id FROM payments WHERE user_id = ?1)` : `user_id = ?1`

type Row = Record<string, unknown> & { _rowid: number }
/** What the move took from D1, per table, with the last rowid taken (what D1 forgets afterwards). */
export type TakenMoney = { rows: Map<MoneyTable, Row[]>; last: Map<MoneyTable, number> }

/** Reads every money row of `readerId` from D1, a page at a time. */
export async function takeMoney(d1: D1Database, readerId: number): Promise<TakenMoney> {
  const rows = new Map<MoneyTable, Row[]>(MONEY_TABLES.map((t) => [t, []]))
  const last = new Map<MoneyTable, number>(MONEY_TABLES.map((t) => [t, 0]))
  let open: MoneyTable[] = [...MONEY_TABLES]
  while (open.length > 0) {
    const pages = await d1.batch(
      open.map((t) =>
        d1
          .prepare(`SELECT rowid AS _rowid, * FROM ${t} WHERE ${mine(t)} AND rowid > ?2 ORDER BY rowid LIMIT ${MOVE_PAGE}`)
          .bind(readerId, last.get(t)),
      ),
    )
    open = open.filter((t, i) => {
      const page = pages[i]!.results as Row[]
      rows.get(t)!.push(...page)
      if (page.length > 0) last.set(t, page[page.length - 1]!._rowid)
      return page.length === MOVE_PAGE
    })
  }
  return { rows, last }
}

/** The figures a move must keep: balance, ledger replay, rights and payments. */
type MoneyFigures = { lots: number; ledger: number; rights: number; payments: number }

const FIGURES = `SELECT (SELECT coalesce(sum(remaining), 0) FROM coin_lots) AS lots, (SELECT coalesce(sum(amount), 0) FROM coin_ledger) AS ledger,
  (SELECT count(*) FROM ownerships) AS rights, (SELECT count(*) FROM payments) AS payments`

/** What one row adds to the figures. */
function figuresOf(table: MoneyTable, row: Record<string, unknown>): MoneyFigures {
  return {
    lots: table === 'coin_lots' ? Number(row.remaining) : 0,
    ledger: table === 'coin_ledger' ? Number(row.amount) : 0,
    rights: table === 'ownerships' ? 1 : 0,
    payments: table === 'payments' ? 1 : 0,
  }
}

/**
 * Writes the taken rows into the object's SQLite (in the caller's transaction) and checks the figures: the object's
 * after the move must be its own before plus those of the rows written (a row the object holds already stays as it
 * is: the object is the truth once a row has moved). Throws when they differ, which undoes the transaction.
 */
export function mergeMoney(sql: SqlStorage, taken: TakenMoney): number {
  // what moves was counted on the shared side when it was made (the ranking, the coupon counters): the triggers' events
  // are not sent
  const outboxBefore = sql.exec<{ seq: number }>(`SELECT coalesce(max(seq), 0) AS seq FROM outbox`).one().seq
  const expected = sql.exec<MoneyFigures>(FIGURES).one()
  let written = 0
  for (const table of MONEY_TABLES) {
    for (const { _rowid, ...row } of taken.rows.get(table)!) {
      const columns = Object.keys(row)
      sql.exec(
        `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        ...columns.map((c) => row[c] as SqlStorageValue),
      )
      if (sql.exec<{ n: number }>(`SELECT changes() AS n`).one().n === 0) continue
      written++
      const added = figuresOf(table, row)
      for (const k of Object.keys(expected) as (keyof MoneyFigures)[]) expected[k] += added[k]
    }
  }
  sql.exec(`DELETE FROM outbox WHERE seq > ?`, outboxBefore)
  const after = sql.exec<MoneyFigures>(FIGURES).one()
  if ((Object.keys(expected) as (keyof MoneyFigures)[]).some((k) => after[k] !== expected[k]))
    throw new Error(`money move differs: object ${JSON.stringify(after)}, expected ${JSON.stringify(expected)}`)
  return written
}

/**
 * The statements that make D1 forget what the move took (rows written there since stay for the next move): one batch,
 * the ledger's deletes allowed for its length (migrations/0001_init.sql `ledger_maintenance`). Children first.
 */
export function forgetMoney(readerId: number, taken: TakenMoney): Statement[] {
  const deletes = [...MONEY_TABLES].reverse().map((t) => ({
    sql: `DELETE FROM ${t} WHERE ${mine(t)} AND rowid <= ?2`,
    params: [readerId, taken.last.get(t)],
  }))
  return [
    { sql: `INSERT OR REPLACE INTO meta (key, value) VALUES ('ledger_maintenance', 'move')`, params: [] },
    ...deletes,
    { sql: `DELETE FROM meta WHERE key = 'ledger_maintenance' AND value = 'move'`, params: [] },
  ]
}
