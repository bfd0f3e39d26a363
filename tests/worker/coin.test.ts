/**
 * GET /api/v1/coin and /coin/history on real workerd + D1 (docs/API.md, spec §2 history pages, §9 windows):
 * balances per type with the next expiries, the three history pages with their kinds and windows, cursor
 * paging, and nothing of another reader's wallet.
 */
import { describe, expect, it } from 'vitest'
import { buy, db, expectError, get, give, newReader, newSeries, read } from './purchase.helpers.ts'
import { adminAdjust, coinOf, userBalances } from '../../src/features/wallet/wallet.server.ts'
import { encodeHistoryCursor, HISTORY_PAGE_SIZE } from '../../src/features/wallet/wallet.ts'
import { coinSummary } from '../unit/wallet-model.ts'
import { readerRows } from './reader-rows.ts'

const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString()

/** A ledger row written `ago` days back (history windows), with its lot. */
async function oldCharge(userId: number, type: string, amount: number, ago: number) {
  await readerRows.batch(userId, [
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, source, created_at) VALUES (?, ?, ?, ?, 'EVENT', ?)`,
      params: [userId, type, amount, amount, days(-ago)],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, created_at) VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'EVENT', ?, ?)`,
      params: [userId, type, amount, days(-ago)],
    },
  ])
}

describe('GET /api/v1/coin', () => {
  it('shows each type, the spendable total and the next expiries, soonest first', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 100)
    await give(reader.id, 'BONUS', 12, 3)
    await give(reader.id, 'FREE_COIN', 5, 1)
    await give(reader.id, 'MILEAGE', 3000, 100)
    const res = await get(reader, '/api/v1/coin')
    expect(res.headers.get('cache-control')).toContain('no-store')
    const { data } = await read(res)
    expect(data).toMatchObject({ coin: 100, freeCoin: 5, bonus: 12, mileage: 3000, total: 117 })
    expect(data.expiring.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ['FREE_COIN', 5],
      ['BONUS', 12],
      ['MILEAGE', 3000],
    ])
    // the SQL answer and the rule of wallet.ts agree
    expect(data).toEqual(coinSummary(await userBalances(db, reader.id)))
  })

  it('agrees with the rule for the demo-like mix of many lots, expired ones left out', async () => {
    const reader = await newReader()
    for (let i = 1; i <= 8; i++) await give(reader.id, i % 2 ? 'BONUS' : 'FREE_COIN', i, i)
    await readerRows.batch(reader.id, [
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, 'BONUS', 9, 9, '2000-01-01T00:00:00.000Z', 'EVENT')`,
        params: [reader.id],
      },
    ])
    const summary = await coinOf(db, reader.id)
    expect(summary).toEqual(coinSummary(await userBalances(db, reader.id)))
    expect(summary.expiring).toHaveLength(5)
    expect(summary.bonus).toBe(1 + 3 + 5 + 7)
  })

  it('is the balance GET /user/me shows, there without the expiry list', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 40)
    await give(reader.id, 'BONUS', 6, 2)
    await give(reader.id, 'MILEAGE', 250, 30)
    await readerRows.run(
      reader.id,
      `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, 'FREE_COIN', 9, 9, '2000-01-01T00:00:00.000Z', 'EVENT')`,
      reader.id,
    )
    const { expiring, ...balance } = (await read(await get(reader, '/api/v1/coin'))).data
    expect(expiring).toHaveLength(2)
    const { coin } = (await read(await get(reader, '/api/v1/user/me'))).data
    expect(coin).toEqual(balance)
    expect(coin).toEqual({ coin: 40, freeCoin: 0, bonus: 6, mileage: 250, total: 46 })
  })

  it('answers NOT_LOGIN_USER to a guest', async () => {
    await expectError(await get(null, '/api/v1/coin'), 401, 'NOT_LOGIN_USER')
    await expectError(await get(null, '/api/v1/coin/history?kind=CHARGE'), 401, 'NOT_LOGIN_USER')
  })
})

describe('GET /api/v1/coin/history', () => {
  it('groups kinds into charge, use and mileage pages within 90, 90 and 180 days', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 10, undefined, 'PAYMENT')
    await give(reader.id, 'MILEAGE', 4000)
    await oldCharge(reader.id, 'COIN', 7, 89)
    await oldCharge(reader.id, 'COIN', 8, 91) // outside the charge window
    await oldCharge(reader.id, 'MILEAGE', 300, 170)
    await oldCharge(reader.id, 'MILEAGE', 400, 181) // outside the mileage window
    const { episodeIds } = await newSeries({ episodes: 1 })
    expect((await buy(reader, { episodeIds, kind: 'RENT' })).status).toBe(200)

    const page = async (kind: string) => (await read(await get(reader, `/api/v1/coin/history?kind=${kind}`))).data
    const charge = await page('CHARGE')
    expect(charge.items.map((i: any) => [i.kind, i.type, i.amount])).toEqual([
      ['CHARGE', 'COIN', 10],
      ['CHARGE', 'COIN', 7],
    ])
    expect(charge.items[0]).toMatchObject({ source: 'PAYMENT', expiresAt: null })
    expect(charge.next).toBeNull()
    const use = await page('USE')
    expect(use.items).toHaveLength(1)
    expect(use.items[0]).toMatchObject({
      kind: 'USE',
      type: 'COIN',
      amount: -2,
      productKind: 'EPISODE',
      episodeId: episodeIds[0],
      episodeNo: 1,
    })
    expect(use.items[0].seriesTitle).toMatch(/^Série test/)
    const mileage = await page('MILEAGE')
    expect(mileage.items.map((i: any) => i.amount)).toEqual([4000, 300])
    await expectError(await get(reader, '/api/v1/coin/history?kind=EXPIRE'), 400, 'INVALID_PARAMETER')
    await expectError(await get(reader, '/api/v1/coin/history'), 400, 'INVALID_PARAMETER')
    await expectError(await get(reader, '/api/v1/coin/history?kind=USE&cursor=nope!'), 400, 'INVALID_PARAMETER')
  })

  it('pages by cursor, newest first, without gaps or repeats', async () => {
    const reader = await newReader()
    const total = HISTORY_PAGE_SIZE * 2 + 5
    for (let i = 0; i < total; i++) await give(reader.id, 'FREE_COIN', i + 1)
    const seen: number[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res = await get(reader, `/api/v1/coin/history?kind=CHARGE${cursor ? `&cursor=${cursor}` : ''}`)
      const { data } = await read(res)
      seen.push(...data.items.map((i: any) => i.amount))
      cursor = data.next
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => total - i))
  })

  it("carries an operator's reason on their charge and deduction (issue 39 point 5), and no other row's description", async () => {
    const me = await newReader()
    const { email } = (await db.first<{ email: string }>(`SELECT email FROM users WHERE id = ?`, me.id))!
    await give(me.id, 'COIN', 10)
    await adminAdjust(db, { email, type: 'BONUS', amount: 5, reason: 'Compensation for the outage of 2 December' })
    await adminAdjust(db, { email, type: 'COIN', amount: -3, reason: 'Double credit corrected' })
    const { items } = (await read(await get(me, '/api/v1/coin/history?kind=CHARGE'))).data as {
      items: { kind: string; source: string; amount: number; reason: string | null }[]
    }
    expect(items.map(({ kind, source, amount, reason }) => ({ kind, source, amount, reason }))).toEqual([
      { kind: 'CANCEL', source: 'ADMIN', amount: -3, reason: 'Double credit corrected' },
      { kind: 'CHARGE', source: 'ADMIN', amount: 5, reason: 'Compensation for the outage of 2 December' },
      { kind: 'CHARGE', source: 'EVENT', amount: 10, reason: null },
    ])
  })

  it('shows another account nothing of mine', async () => {
    const me = await newReader()
    const other = await newReader()
    await give(me.id, 'COIN', 10)
    const { episodeIds } = await newSeries({ episodes: 1 })
    expect((await buy(me, { episodeIds, kind: 'RENT' })).status).toBe(200)
    for (const kind of ['CHARGE', 'USE', 'MILEAGE']) {
      expect((await read(await get(other, `/api/v1/coin/history?kind=${kind}`))).data).toEqual({ items: [], next: null })
      // a cursor made from my rows does not reach into my wallet either
      const cursor = encodeHistoryCursor({ createdAt: days(1), id: 2 ** 40 })
      expect((await read(await get(other, `/api/v1/coin/history?kind=${kind}&cursor=${cursor}`))).data).toEqual({ items: [], next: null })
    }
    expect((await read(await get(other, '/api/v1/coin'))).data).toMatchObject({ total: 0, mileage: 0, expiring: [] })
    expect((await read(await get(me, '/api/v1/coin/history?kind=USE'))).data.items).toHaveLength(1)
  })
})
