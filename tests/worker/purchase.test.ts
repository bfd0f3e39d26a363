/**
 * POST /api/v1/purchase on real workerd + D1 (docs/API.md, spec §4/§8, docs/ARCHITECTURE.md "Money"): renting and
 * buying draw bonus → free → paid coins, write one USE row per lot and episode, the ownership and the
 * purchase; every refusal of §8 answers its code and moves nothing; a D1 failure at any statement of the
 * batch leaves nothing behind.
 */
import { describe, expect, it } from 'vitest'
import { buy, db, expectError, expectInvariant, get, give, newReader, newSeries, read, snapshot } from './purchase.helpers.ts'
import { purchaseEpisodes } from '../../src/features/purchase/purchase.server.ts'
import { coinOf, userBalances } from '../../src/features/wallet/wallet.server.ts'
import { coinSummary } from '../unit/wallet-model.ts'
import { withMoneyFaultAt } from './faults.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { env } from 'cloudflare:workers'
import { frEdition } from './app.ts'
import { readerRows } from './reader-rows.ts'
import { EPISODE_UNPUBLISHED_AT } from '../../src/features/catalogue/catalogue-ops.ts'

describe('POST /api/v1/purchase', () => {
  it('rents one episode and buys two: bonus first, then free, then paid coins; the answer shows the new balance', async () => {
    const reader = await newReader()
    const bonus = await give(reader.id, 'BONUS', 3, 5)
    const free = await give(reader.id, 'FREE_COIN', 4, 10)
    const paid = await give(reader.id, 'COIN', 20, undefined, 'PAYMENT')
    const { seriesId, episodeIds } = await newSeries({ episodes: 5, priceRent: 2, priceBuy: 4 })
    const [e1, e2, e3] = episodeIds as [number, number, number]

    const before = Date.now()
    const rent = await buy(reader, { episodeIds: [e1], kind: 'RENT' })
    expect(rent.status).toBe(200)
    const rented = await read(rent)
    expect(rented.result).toBe('SUCCESS')
    expect(rented.data.purchases).toHaveLength(1)
    expect(rented.data.purchases[0]).toMatchObject({ episodeId: e1, kind: 'RENT' })
    const until = Date.parse(rented.data.purchases[0].expiresAt) - before
    expect(until).toBeGreaterThanOrEqual(72 * 3_600_000 - 1000) // fr edition: rentalHours 72
    expect(until).toBeLessThanOrEqual(72 * 3_600_000 + 60_000)
    expect(rented.data.coin).toMatchObject({ bonus: 1, freeCoin: 4, coin: 20, total: 25, mileage: 0 })

    const bought = await read(await buy(reader, { episodeIds: [e2, e3], kind: 'POSSESSION' }))
    expect(bought.data.purchases).toEqual([
      { episodeId: e2, kind: 'POSSESSION', expiresAt: null },
      { episodeId: e3, kind: 'POSSESSION', expiresAt: null },
    ])
    // e2 takes the last bonus coin and 3 free coins, e3 the last free coin and 3 paid coins
    expect(bought.data.coin).toMatchObject({ bonus: 0, freeCoin: 0, coin: 17, total: 17 })
    expect(bought.data.coin).toEqual(await coinOf(db, reader.id))
    expect(bought.data.coin).toEqual(coinSummary(await userBalances(db, reader.id)))
    const shown = await read(await get(reader, '/api/v1/coin'))
    expect(shown.data).toEqual(bought.data.coin)

    const uses = await readerRows.all<{
      lot_id: number
      amount: number
      episode_id: number
      series_id: number
      purchase_id: number
      product_kind: string
      source: string
    }>(
      reader.id,
      `SELECT lot_id, amount, episode_id, series_id, purchase_id, product_kind, source FROM coin_ledger WHERE user_id = ? AND kind = 'USE' ORDER BY id`,
      reader.id,
    )
    expect(uses.map((u) => [u.lot_id, u.amount, u.episode_id])).toEqual([
      [bonus.lotId, -2, e1],
      [bonus.lotId, -1, e2],
      [free.lotId, -3, e2],
      [free.lotId, -1, e3],
      [paid.lotId, -3, e3],
    ])
    expect(uses.every((u) => u.series_id === seriesId && u.product_kind === 'EPISODE' && u.purchase_id > 0)).toBe(true)
    expect(uses[4]!.source).toBe('PAYMENT')
    const owns = await readerRows.all<{ episode_id: number; kind: string; purchase_id: number; coins: number; type: string }>(
      reader.id,
      `SELECT o.episode_id, o.kind, o.purchase_id, p.coins, p.type FROM ownerships o JOIN purchases p ON p.id = o.purchase_id WHERE o.user_id = ? ORDER BY o.id`,
      reader.id,
    )
    expect(owns.map((o) => [o.episode_id, o.kind, o.type, o.coins])).toEqual([
      [e1, 'RENT', 'RENT', 2],
      [e2, 'POSSESSION', 'POSSESSION', 4],
      [e3, 'POSSESSION', 'POSSESSION', 4],
    ])
    // the profile counts the three episodes sold (from the reader's purchases, in their object)
    expect((await read(await get(reader, '/api/v1/user/me'))).data.user.purchaseCount).toBe(3)
    const t = await expectInvariant(reader.id)
    expect(t.lots).toBe(17)
  })

  it('answers every refusal of spec §8 with its code and moves nothing', async () => {
    const reader = await newReader()
    const minor = await newReader({ adult: false })
    await give(reader.id, 'COIN', 30)
    await give(minor.id, 'COIN', 30)
    const plain = await newSeries({ episodes: 4, priceRent: 2, priceBuy: 4, free: 1 })
    const buyOnly = await newSeries({ episodes: 1, priceRent: null, priceBuy: 4 })
    const rentOnly = await newSeries({ episodes: 1, priceRent: 2, priceBuy: null })
    const adult = await newSeries({ episodes: 1, adult: true })
    const [freeEp, e1, e2, e3] = plain.episodeIds as [number, number, number, number]
    expect((await buy(reader, { episodeIds: [e1], kind: 'POSSESSION' })).status).toBe(200)
    expect((await buy(reader, { episodeIds: [e2], kind: 'RENT' })).status).toBe(200)
    const before = await snapshot(reader.id)
    const minorBefore = await snapshot(minor.id)

    const cases: [unknown, number, string][] = [
      [{ episodeIds: [999_999_999], kind: 'RENT' }, 404, 'NOT_FOUND_EPISODE'],
      [{ episodeIds: [e3, 999_999_999], kind: 'POSSESSION' }, 404, 'NOT_FOUND_EPISODE'],
      [{ episodeIds: buyOnly.episodeIds, kind: 'RENT' }, 409, 'UN_MATCHED_RENT_SALE_TYPE'],
      [{ episodeIds: rentOnly.episodeIds, kind: 'POSSESSION' }, 409, 'UN_MATCHED_POSSESSION_SALE_TYPE'],
      [{ episodeIds: [freeEp], kind: 'RENT' }, 409, 'UN_MATCHED_RENT_SALE_TYPE'],
      [{ episodeIds: [freeEp], kind: 'POSSESSION' }, 409, 'UN_MATCHED_POSSESSION_SALE_TYPE'],
      [{ episodeIds: [e1], kind: 'POSSESSION' }, 409, 'EXIST_LIBRARY'],
      [{ episodeIds: [e3, e1], kind: 'RENT' }, 409, 'EXIST_LIBRARY'],
      [{ episodeIds: [e2], kind: 'RENT' }, 409, 'RENT_PURCHASE_IMPOSSIBLE'],
      [{ episodeIds: [], kind: 'RENT' }, 400, 'INVALID_PARAMETER'],
      [{ episodeIds: [e3, e3], kind: 'RENT' }, 400, 'INVALID_PARAMETER'],
      [{ episodeIds: [e3], kind: 'PERMANENT' }, 400, 'INVALID_PARAMETER'],
      [{ episodeIds: [-e3], kind: 'RENT' }, 400, 'INVALID_PARAMETER'],
      [{ episodeIds: [e3 + 0.5], kind: 'RENT' }, 400, 'INVALID_PARAMETER'],
      [{ episodeIds: Array.from({ length: 101 }, (_, i) => i + 1), kind: 'RENT' }, 400, 'INVALID_PARAMETER'],
      ['{"episodeIds":[1', 400, 'INVALID_PARAMETER'],
    ]
    for (const [body, status, code] of cases) await expectError(await buy(reader, body), status, code)
    // the Idempotency-Key header: required, 1–255 visible characters
    for (const key of [null, '', 'x'.repeat(256), 'has space'])
      await expectError(await buy(reader, { episodeIds: [e3], kind: 'RENT' }, key), 400, 'INVALID_PARAMETER')
    // no session
    await expectError(await buy({ headers: {} }, { episodeIds: [e3], kind: 'RENT' }), 401, 'NOT_LOGIN_USER')
    await expectError(
      await buy({ headers: { authorization: 'Bearer nonsense' } }, { episodeIds: [e3], kind: 'RENT' }),
      401,
      'NOT_LOGIN_USER',
    )
    // adult series: a reader under 18 gets the age popup; the adult reader may buy
    await expectError(await buy(minor, { episodeIds: adult.episodeIds, kind: 'RENT' }), 403, 'ADULT_ONLY_CONTENTS')
    // an adult check older than a year has lapsed (spec §4): the popup again, nothing bought
    const lapsed = await newReader()
    await db.run(`UPDATE users SET adult_verified_at = ? WHERE id = ?`, new Date(Date.now() - 366 * 86_400_000).toISOString(), lapsed.id)
    await give(lapsed.id, 'COIN', 30)
    const lapsedBefore = await snapshot(lapsed.id)
    await expectError(await buy(lapsed, { episodeIds: adult.episodeIds, kind: 'RENT' }), 403, 'ADULT_ONLY_CONTENTS')
    expect(await snapshot(lapsed.id)).toEqual(lapsedBefore)
    // short of coins: 402 to the shop
    const all = await newSeries({ episodes: 10, priceBuy: 4 })
    await expectError(await buy(minor, { episodeIds: all.episodeIds, kind: 'POSSESSION' }), 402, 'COIN_INSUFFICIENT')

    expect(await snapshot(reader.id)).toEqual(before)
    expect(await snapshot(minor.id)).toEqual(minorBefore)
    expect((await buy(reader, { episodeIds: adult.episodeIds, kind: 'RENT' })).status).toBe(200)
    await expectInvariant(reader.id)
    await expectInvariant(minor.id)
  })

  it('rents again once the rental has ended, and buys it then', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 20)
    const { episodeIds } = await newSeries({ episodes: 1 })
    expect((await buy(reader, { episodeIds, kind: 'RENT' })).status).toBe(200)
    await readerRows.run(
      reader.id,
      `UPDATE ownerships SET expires_at = ? WHERE user_id = ?`,
      new Date(Date.now() - 1000).toISOString(),
      reader.id,
    )
    const again = await buy(reader, { episodeIds, kind: 'RENT' })
    expect(again.status).toBe(200)
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM ownerships WHERE user_id = ?`, reader.id)).toEqual({ n: 1 })
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM purchases WHERE user_id = ?`, reader.id)).toEqual({ n: 2 })
    await readerRows.run(
      reader.id,
      `UPDATE ownerships SET expires_at = ? WHERE user_id = ?`,
      new Date(Date.now() - 1000).toISOString(),
      reader.id,
    )
    expect((await buy(reader, { episodeIds, kind: 'POSSESSION' })).status).toBe(200)
    expect((await read(await get(reader, '/api/v1/coin'))).data.coin).toBe(12)
    await expectInvariant(reader.id)
  })

  it('never draws expired lots nor mileage', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 5000)
    await readerRows.batch(reader.id, [
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, 'BONUS', 50, 50, '2000-01-01T00:00:00.000Z', 'EVENT')`,
        params: [reader.id],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), 'BONUS', 'EVENT', 50)`,
        params: [reader.id],
      },
    ])
    const { episodeIds } = await newSeries({ episodes: 1 })
    await expectError(await buy(reader, { episodeIds, kind: 'RENT' }), 402, 'COIN_INSUFFICIENT')
    await give(reader.id, 'COIN', 2)
    const ok = await read(await buy(reader, { episodeIds, kind: 'RENT' }))
    expect(ok.data.coin).toMatchObject({ coin: 0, bonus: 0, mileage: 5000, total: 0 })
    await expectInvariant(reader.id)
  })

  it("a failure at any statement of the purchase's batch in the reader's object leaves nothing half-done", async () => {
    const reader = await newReader()
    await give(reader.id, 'BONUS', 3, 3)
    await give(reader.id, 'COIN', 30)
    const { episodeIds } = await newSeries({ episodes: 2, priceBuy: 4 })
    const request = { episodeIds, kind: 'POSSESSION' as const }
    const buying = (userId: number, key: string) =>
      purchaseEpisodes(db, {
        userId,
        request,
        claim: { userId, key, scope: 'test', requestHash: 'h' },
        rentalHours: 72,
        ageRules: frEdition,
        timeZone: frEdition.timeZone,
      })
    // count the statements of the real batch (a probe reader's, failing at a statement past the end: none)
    const probe = await newReader()
    await give(probe.id, 'BONUS', 3, 3)
    await give(probe.id, 'COIN', 30)
    let size = 0
    await withMoneyFaultAt(
      1e6,
      () => buying(probe.id, 'probe'),
      (statements) => (size = statements.length),
    )
    expect(size).toBeGreaterThanOrEqual(9)

    const before = await snapshot(reader.id)
    for (let at = 0; at < size; at++) {
      const err = await withMoneyFaultAt(at, () => buying(reader.id, `fault-${at}`)).then(
        () => null,
        (e: unknown) => e,
      )
      expect(err, `statement ${at}`).toBeInstanceOf(Error)
      expect(await snapshot(reader.id), `statement ${at}`).toEqual(before)
    }
    await expectInvariant(reader.id)
  })

  it("prices from the catalogue as its pages show it: the same episode's buyers within 60 s make no D1 query, an early episode sells at its own price from its publication", async () => {
    const t0 = Date.now()
    const at = (ms: number) => new Date(t0 + ms)
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 2, priceBuy: 4 })
    const [e1, e2] = episodeIds as [number, number]
    // e2 open early at rent 3 / buy 5 until its publication 30 s from now
    await db.run(
      `UPDATE episodes SET published_at = ?, early_at = ?, early_rent = 3, early_buy = 5 WHERE id = ?`,
      at(30_000).toISOString(),
      at(-60_000).toISOString(),
      e2,
    )
    /** A new reader with 20 coins buys `id` for good at `when`: the coins it cost and the D1 queries it made. */
    const sale = async (id: number, when: Date) => {
      const reader = await newReader()
      await give(reader.id, 'COIN', 20)
      const sales = createDb(env.DB)
      const key = crypto.randomUUID()
      const sold = await purchaseEpisodes(
        sales,
        {
          userId: reader.id,
          request: { episodeIds: [id], kind: 'POSSESSION' },
          claim: { userId: reader.id, key, scope: 'test', requestHash: 'h' },
          rentalHours: 72,
          ageRules: frEdition,
          timeZone: frEdition.timeZone,
        },
        when,
      )
      return { coins: 20 - sold.coin.total, queries: sales.queryCount }
    }
    expect(await sale(e1, at(0))).toEqual({ coins: 4, queries: 1 })
    expect(await sale(e1, at(59_000))).toEqual({ coins: 4, queries: 0 })
    expect(await sale(e1, at(61_000))).toEqual({ coins: 4, queries: 1 }) // read again past 60 s
    expect(await sale(e2, at(0))).toEqual({ coins: 5, queries: 1 }) // early
    expect(await sale(e2, at(29_000))).toEqual({ coins: 5, queries: 0 })
    expect(await sale(e2, at(30_000))).toEqual({ coins: 4, queries: 1 }) // published: its own price, read at once
    expect(await sale(e2, at(40_000))).toEqual({ coins: 4, queries: 0 })
    // an episode not for sale is read each time (never kept): a withdrawn one is refused at once
    await db.run(`UPDATE episodes SET published_at = ?, early_at = NULL WHERE id = ?`, EPISODE_UNPUBLISHED_AT, e2)
    await expect(sale(e2, at(120_000))).rejects.toMatchObject({ code: 'NOT_FOUND_EPISODE' })
  })
})
