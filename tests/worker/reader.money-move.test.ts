/**
 * The move of a reader's money rows from D1 into their object (issue 38 point 5; docs/ARCHITECTURE.md "Reader
 * objects", src/objects/reader/money-move.server.ts), on a state written by the code before the objects: rows
 * straight into D1's money tables, as that code wrote them. On first use and in the background: balance, ledger
 * replay, rights, payments and their events, gifts and keys equal before and after, ids kept; D1 forgets what moved;
 * a move made twice, or of rows the object holds already, adds nothing; the ranking counts nothing twice.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { db, expectInvariant, newSeries } from './purchase.helpers.ts'
import { readerObject } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { moveWaitingReaders } from '../../src/objects/reader/move.server.ts'

const TABLES = ['coin_lots', 'coin_ledger', 'purchases', 'ownerships', 'payments', 'idempotency_keys', 'gifts'] as const

let seq = 0
/** An account that never made a call since the objects came (no sign-in: its object was never used). */
async function legacyReader(): Promise<number> {
  const row = await db.first<{ id: number }>(`INSERT INTO users (email) VALUES (?) RETURNING id`, `move-${Date.now()}-${++seq}@example.com`)
  return row!.id
}

/** A paid top-up, a bonus, an episode bought with 4 of its coins, a gift and a stored answer: in D1, as before. */
async function legacyMoney(userId: number, seriesId: number, episodeId: number) {
  const payment = `pay_move_${userId}`
  await db.batch([
    {
      sql: `INSERT INTO payments (id, user_id, state, provider, amount, currency, idempotency_key, paid_at) VALUES (?, ?, 'PAID', 'sandbox', 499, 'EUR', ?, ?)`,
      params: [payment, userId, `${payment}-key`, new Date().toISOString()],
    },
    {
      sql: `INSERT INTO payment_events (provider, event_id, payment_id, type) VALUES ('sandbox', ?, ?, 'checkout.paid')`,
      params: [`ev_${payment}`, payment],
    },
  ])
  const [coin, bonus] = [
    await db.first<{ id: number }>(
      `INSERT INTO coin_lots (user_id, type, amount, remaining, source, payment_id) VALUES (?, 'COIN', 30, 26, 'PAYMENT', ?) RETURNING id`,
      userId,
      payment,
    ),
    await db.first<{ id: number }>(
      `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, 'BONUS', 5, 5, ?, 'EVENT') RETURNING id`,
      userId,
      new Date(Date.now() + 30 * 86_400_000).toISOString(),
    ),
  ]
  const purchase = await db.first<{ id: number }>(
    `INSERT INTO purchases (user_id, series_id, episode_id, type, coins) VALUES (?, ?, ?, 'POSSESSION', 4) RETURNING id`,
    userId,
    seriesId,
    episodeId,
  )
  await db.batch([
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, ref) VALUES (?, 'CHARGE', ?, 'COIN', 'PAYMENT', 30, ?)`,
      params: [userId, coin!.id, payment],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', ?, 'BONUS', 'EVENT', 5)`,
      params: [userId, bonus!.id],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, purchase_id) VALUES (?, 'USE', ?, 'COIN', 'PAYMENT', -4, ?)`,
      params: [userId, coin!.id, purchase!.id],
    },
    {
      sql: `INSERT INTO ownerships (user_id, series_id, episode_id, kind, purchase_id) VALUES (?, ?, ?, 'POSSESSION', ?)`,
      params: [userId, seriesId, episodeId, purchase!.id],
    },
    {
      sql: `INSERT INTO idempotency_keys (user_id, key, scope, request_hash, response_status, response_body) VALUES (?, 'k1', 'POST /purchase', 'h', 200, '{}')`,
      params: [userId],
    },
    { sql: `INSERT INTO gifts (user_id, kind, episode_id, title) VALUES (?, 'RENT', ?, 'Cadeau')`, params: [userId, episodeId] },
  ])
  return { lots: [coin!.id, bonus!.id], purchase: purchase!.id }
}

/** Rows of `userId` per money table in D1 (what the move has not taken). */
const leftInD1 = async (userId: number) =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (t) => [t, (await db.first<{ n: number }>(`SELECT count(*) AS n FROM ${t} WHERE user_id = ?`, userId))!.n] as const),
    ),
  )
const none = Object.fromEntries(TABLES.map((t) => [t, 0]))

/** The figures a move keeps, read in the reader's object. */
const figures = (userId: number) =>
  readerRows.first(
    userId,
    `SELECT (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1) AS coins,
            (SELECT coalesce(sum(amount), 0) FROM coin_ledger WHERE user_id = ?1) AS ledger,
            (SELECT count(*) FROM ownerships WHERE user_id = ?1) AS rights,
            (SELECT count(*) FROM payments WHERE user_id = ?1) AS payments,
            (SELECT count(*) FROM payment_events WHERE payment_id IN (SELECT id FROM payments WHERE user_id = ?1)) AS events,
            (SELECT count(*) FROM gifts WHERE user_id = ?1) AS gifts,
            (SELECT count(*) FROM idempotency_keys WHERE user_id = ?1) AS keys`,
    userId,
  )

const purchasesCounted = async (seriesId: number) =>
  (await db.first<{ n: number }>(`SELECT coalesce(sum(purchases), 0) AS n FROM series_daily WHERE series_id = ?`, seriesId))!.n

describe("the move of a reader's money into their object", () => {
  it('takes every row on first use with its id, checked; D1 forgets them; the ranking counts nothing twice', async () => {
    const s = await newSeries({ episodes: 2 })
    const userId = await legacyReader()
    const ids = await legacyMoney(userId, s.seriesId, s.episodeIds[1]!)
    const counted = await purchasesCounted(s.seriesId)
    expect(counted).toBe(1) // D1's own trigger counted the purchase when it was written

    // first use: any call to the object (here a read of the rows)
    expect(await figures(userId)).toEqual({ coins: 31, ledger: 31, rights: 1, payments: 1, events: 1, gifts: 1, keys: 1 })
    expect(await leftInD1(userId)).toEqual(none)
    expect((await readerRows.all<{ id: number }>(userId, `SELECT id FROM coin_lots ORDER BY id`)).map((r) => r.id)).toEqual(ids.lots)
    expect(await readerRows.first(userId, `SELECT purchase_id AS p FROM ownerships`)).toEqual({ p: ids.purchase })
    await expectInvariant(userId)
    // the purchase's trigger in the object made no event: the ranking still counts it once
    await new Promise((r) => setTimeout(r, 300))
    expect(await purchasesCounted(s.seriesId)).toBe(counted)
    // a move made again finds nothing to take
    expect(await readerObject(userId).moveIn(userId)).toBe(0)
    expect(await figures(userId)).toMatchObject({ coins: 31, ledger: 31, rights: 1 })
  })

  it('moves readers who make no call in the background, then rows written in D1 since; a row the object holds stays', async () => {
    const s = await newSeries({ episodes: 2 })
    const userIds = [await legacyReader(), await legacyReader()]
    for (const id of userIds) await legacyMoney(id, s.seriesId, s.episodeIds[1]!)
    // the cron's runs until no reader is waiting (other tests' readers may wait too)
    let moved = 0
    for (let round = 0; round < 10; round++) {
      const run = await moveWaitingReaders(db, env.READER)
      moved += run.rows
      if (run.rows === 0) break
    }
    expect(moved).toBeGreaterThanOrEqual(2)
    for (const id of userIds) expect(await leftInD1(id)).toEqual(none)
    for (const id of userIds)
      expect(await figures(id)).toEqual({ coins: 31, ledger: 31, rights: 1, payments: 1, events: 1, gifts: 1, keys: 1 })

    // D1 written again after the move (a seed on an old state): a new lot moves in; a lot with an id the object holds
    // already stays as the object has it (the object is the truth once a row has moved)
    const [userId] = userIds as [number]
    const held = (await readerRows.first<{ id: number }>(userId, `SELECT min(id) AS id FROM coin_lots`))!.id
    await db.batch([
      {
        sql: `INSERT INTO coin_lots (id, user_id, type, amount, remaining, source) VALUES (?, ?, 'COIN', 99, 99, 'ADMIN')`,
        params: [held, userId],
      },
      { sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, source) VALUES (?, 'FREE_COIN', 3, 3, 'ADMIN')`, params: [userId] },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), 'FREE_COIN', 'ADMIN', 3)`,
        params: [userId],
      },
    ])
    expect(await readerObject(userId).moveIn(userId)).toBeGreaterThanOrEqual(2)
    expect(await leftInD1(userId)).toEqual(none)
    expect(await figures(userId)).toMatchObject({ coins: 34, ledger: 34 })
    expect(await readerRows.first(userId, `SELECT amount, remaining FROM coin_lots WHERE id = ?`, held)).toEqual({
      amount: 30,
      remaining: 26,
    })
    await expectInvariant(userId)
  })
})
