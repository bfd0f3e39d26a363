/**
 * Refund of unused paid coins within 7 days (spec §9, issue 4 §2) and the expiry sweep (issue 4 §1) on real
 * workerd + D1: REFUND_PURCHASE rows take the paid coins and the rest of the bonus out, once; spent coins,
 * late or foreign refunds are refused and move nothing; a D1 failure at any statement leaves nothing behind;
 * the sweep writes one EXPIRE row per expired lot and keeps Σ lots = Σ ledger.
 */
import { describe, expect, it } from 'vitest'
import {
  app,
  buy,
  db,
  expectError,
  expectInvariant,
  get,
  give,
  grantLot,
  newReader,
  newSeries,
  read,
  snapshot,
  type Reader,
} from './purchase.helpers.ts'
import { request } from './app.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { refundPayment } from '../../src/features/payment/payment.server.ts'
import { readerObject } from './reader.helpers.ts'
import { withMoneyFaultAt } from './faults.ts'
import { readerRows } from './reader-rows.ts'

function refund(reader: Pick<Reader, 'headers'>, body: unknown, key: string | null = crypto.randomUUID()) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, '/api/v1/payment/refund', { method: 'POST', headers, body: JSON.stringify(body) })
}

async function paidCharge(reader: Reader, coins = 100, bonus = 15) {
  const paymentId = await paymentFor(reader, await newProduct({ coins, bonus }))
  expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
  return paymentId
}

describe('POST /api/v1/payment/refund', () => {
  it('refunds an unused charge: the paid coins and the rest of its bonus leave as REFUND_PURCHASE rows, once', async () => {
    const reader = await newReader()
    await give(reader.id, 'FREE_COIN', 10, 10)
    const paymentId = await paidCharge(reader)
    const res = await refund(reader, { paymentId }, 'r1')
    const body = await read(res)
    expect(res.status).toBe(200)
    expect(body.data).toMatchObject({ paymentId, refunded: { coin: 100, bonus: 15 } })
    expect(body.data.coin).toMatchObject({ coin: 0, bonus: 0, freeCoin: 10, total: 10 })
    expect(
      await readerRows.first(reader.id, `SELECT state, refunded_at IS NOT NULL AS done FROM payments WHERE id = ?`, paymentId),
    ).toEqual({
      state: 'REFUNDED',
      done: 1,
    })
    expect(
      await readerRows.all(
        reader.id,
        `SELECT kind, type, amount FROM coin_ledger WHERE user_id = ? AND ref = ? ORDER BY id`,
        reader.id,
        paymentId,
      ),
    ).toEqual([
      { kind: 'CHARGE', type: 'COIN', amount: 100 },
      { kind: 'CHARGE', type: 'BONUS', amount: 15 },
      { kind: 'REFUND_PURCHASE', type: 'COIN', amount: -100 },
      { kind: 'REFUND_PURCHASE', type: 'BONUS', amount: -15 },
    ])
    await expectInvariant(reader.id)
    // the replay answers the first response; a second refund under another key is refused
    const replay = await refund(reader, { paymentId }, 'r1')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(await read(replay)).toEqual(body)
    await expectError(await refund(reader, { paymentId }), 400, 'INVALID_PARAMETER')
    // the charge history shows the refund
    const history = (await read(await get(reader, '/api/v1/coin/history?kind=CHARGE'))).data.items
    expect(history.filter((i: { kind: string }) => i.kind === 'REFUND_PURCHASE')).toHaveLength(2)
  })

  it('takes back everything the payment brought: spent bonus makes it NOT_REFUNDABLE, nothing moves', async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader, 50, 10)
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 4 })
    expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' })).status).toBe(200) // 4 bonus coins
    const before = await snapshot(reader.id)
    await expectError(await refund(reader, { paymentId }), 400, 'INVALID_PARAMETER')
    expect(await snapshot(reader.id)).toEqual(before)
    await expectInvariant(reader.id)
  })

  it("the probe of issue 20: a top-up coupon's reward leaves with the refund of the payment that earned it, in the same batch", async () => {
    // as minor@example.com did: download a coupon (20 bonus on a top-up of at least 799), buy 50 coins + 7 bonus for 799
    const reader = await newReader()
    const coupon = await db.first<{ id: number }>(
      `INSERT INTO coupons (code, title, type, minimum_amount, starts_at, expires_at, reward_type, reward_amount, reward_lot_type, reward_expires_days, is_downloadable)
       VALUES (NULL, 'Bonus recharge', 'DISCOUNT', 799, ?, ?, 'COIN', 20, 'BONUS', 30, 1) RETURNING id`,
      new Date(Date.now() - 86_400_000).toISOString(),
      new Date(Date.now() + 30 * 86_400_000).toISOString(),
    )
    expect((await request(app, `/api/v1/coupon/download/${coupon!.id}`, { method: 'POST', headers: reader.headers })).status).toBe(200)
    const paymentId = await paymentFor(reader, await newProduct({ price: 799, coins: 50, bonus: 7 }))
    expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
    expect((await read(await get(reader, '/api/v1/coin'))).data).toMatchObject({ coin: 50, bonus: 27, total: 77 })

    const res = await refund(reader, { paymentId })
    expect(res.status).toBe(200)
    expect((await read(res)).data).toMatchObject({
      refunded: { coin: 50, bonus: 27, freeCoin: 0, mileage: 0 },
      coin: { coin: 0, bonus: 0, total: 0 },
    })
    expect(
      await readerRows.all(
        reader.id,
        `SELECT type, source, amount FROM coin_ledger WHERE user_id = ? AND kind = 'REFUND_PURCHASE' ORDER BY id`,
        reader.id,
      ),
    ).toEqual([
      { type: 'COIN', source: 'PAYMENT', amount: -50 },
      { type: 'BONUS', source: 'PAYMENT', amount: -7 },
      { type: 'BONUS', source: 'COUPON', amount: -20 },
    ])
    // all three rows were written by one batch (one idempotency key, one instant)
    expect(
      await readerRows.first(
        reader.id,
        `SELECT count(DISTINCT created_at) AS instants, count(DISTINCT idempotency_key) AS keys FROM coin_ledger WHERE user_id = ? AND kind = 'REFUND_PURCHASE'`,
        reader.id,
      ),
    ).toEqual({ instants: 1, keys: 1 })
    await expectInvariant(reader.id)
  })

  it('a spent coupon reward makes the payment that earned it NOT_REFUNDABLE, nothing moves', async () => {
    const reader = await newReader()
    const coupon = await db.first<{ id: number }>(
      `INSERT INTO coupons (code, title, type, minimum_amount, starts_at, expires_at, reward_type, reward_amount, reward_lot_type, reward_expires_days, is_downloadable)
       VALUES (NULL, 'Bonus recharge', 'DISCOUNT', 799, ?, ?, 'COIN', 20, 'FREE_COIN', 30, 1) RETURNING id`,
      new Date(Date.now() - 86_400_000).toISOString(),
      new Date(Date.now() + 30 * 86_400_000).toISOString(),
    )
    expect((await request(app, `/api/v1/coupon/download/${coupon!.id}`, { method: 'POST', headers: reader.headers })).status).toBe(200)
    const paymentId = await paymentFor(reader, await newProduct({ price: 799, coins: 50, bonus: 0 }))
    expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
    expect((await read(await get(reader, '/api/v1/coin'))).data).toMatchObject({ coin: 50, freeCoin: 20 })
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 3 })
    expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' })).status).toBe(200) // free coins go before paid ones
    const before = await snapshot(reader.id)
    await expectError(await refund(reader, { paymentId }), 400, 'INVALID_PARAMETER')
    expect(await snapshot(reader.id)).toEqual(before)
  })

  it('refuses spent, late, unpaid, foreign and unknown payments and moves nothing', async () => {
    const reader = await newReader()
    const other = await newReader()
    const spent = await paidCharge(reader, 10, 0)
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 3 })
    expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' })).status).toBe(200)
    const late = await paidCharge(reader)
    await readerRows.run(
      reader.id,
      `UPDATE payments SET paid_at = ? WHERE id = ?`,
      new Date(Date.now() - 8 * 86_400_000).toISOString(),
      late,
    )
    const unpaid = await paymentFor(reader, await newProduct())
    const foreign = await paidCharge(other)
    const before = await snapshot(reader.id)
    for (const paymentId of [spent, late, unpaid]) await expectError(await refund(reader, { paymentId }), 400, 'INVALID_PARAMETER')
    await expectError(await refund(reader, { paymentId: foreign }), 404, 'NOT_EXIST')
    await expectError(await refund(reader, { paymentId: 'pay_nothere' }), 404, 'NOT_EXIST')
    for (const bad of [{}, { paymentId: 12 }, { paymentId: 'x' }, { paymentId: `pay_${'a'.repeat(80)}` }])
      await expectError(await refund(reader, bad), 400, 'INVALID_PARAMETER')
    await expectError(await refund({ headers: {} }, { paymentId: spent }), 401, 'NOT_LOGIN_USER')
    await expectError(await refund(reader, { paymentId: spent }, null), 400, 'INVALID_PARAMETER')
    expect(await snapshot(reader.id)).toEqual(before)
    expect(await readerRows.first(other.id, `SELECT state FROM payments WHERE id = ?`, foreign)).toEqual({ state: 'PAID' })
  })

  it('10 concurrent refunds of one payment under different keys: one refunds', async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader)
    const responses = await Promise.all(Array.from({ length: 10 }, () => refund(reader, { paymentId })))
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1)
    expect(responses.filter((r) => r.status === 400)).toHaveLength(9)
    expect((await expectInvariant(reader.id)).lots).toBe(0)
  })

  it('a failure injected at each statement of the refund leaves no partial state', async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader)
    const before = await snapshot(reader.id)
    const state = () => readerRows.first(reader.id, `SELECT state FROM payments WHERE id = ?`, paymentId)
    for (let at = 0; at < 6; at++) {
      const claim = { userId: reader.id, key: `fault-${at}`, scope: 'test', requestHash: 'h' }
      await expect(withMoneyFaultAt(at, () => refundPayment(db, { userId: reader.id, paymentId, claim }))).rejects.toThrow()
      expect(await snapshot(reader.id), `statement ${at}`).toEqual(before)
      expect(await state()).toEqual({ state: 'PAID' })
    }
  })
})

describe("expiry in the reader's object", () => {
  it('empties expired lots with one EXPIRE row each, leaves live lots alone, and is a no-op when it wakes again', async () => {
    const reader = await newReader()
    const live = await give(reader.id, 'BONUS', 7, 5)
    const soon = new Date(Date.now() + 1000).toISOString()
    const a = await grantLot(reader.id, { type: 'BONUS', amount: 12, source: 'EVENT', reason: 't', expiresAt: soon })
    const b = await grantLot(reader.id, { type: 'FREE_COIN', amount: 3, source: 'COUPON', reason: 't', expiresAt: soon })
    const later = new Date(Date.now() + 60_000)
    await readerObject(reader.id).wake(reader.id, later.toISOString())
    const rows = await readerRows.all<{ lot_id: number; amount: number; type: string; source: string }>(
      reader.id,
      `SELECT lot_id, amount, type, source FROM coin_ledger WHERE user_id = ? AND kind = 'EXPIRE' ORDER BY lot_id`,
      reader.id,
    )
    expect(rows).toEqual([
      { lot_id: a.lotId, amount: -12, type: 'BONUS', source: 'EVENT' },
      { lot_id: b.lotId, amount: -3, type: 'FREE_COIN', source: 'COUPON' },
    ])
    expect(await readerRows.first(reader.id, `SELECT remaining FROM coin_lots WHERE id = ?`, live.lotId)).toEqual({ remaining: 7 })
    expect((await expectInvariant(reader.id)).lots).toBe(7)
    await readerObject(reader.id).wake(reader.id, later.toISOString())
    expect(
      await readerRows.first(reader.id, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ? AND kind = 'EXPIRE'`, reader.id),
    ).toEqual({ n: 2 })
    const use = (await read(await get(reader, '/api/v1/coin/history?kind=USE'))).data.items
    expect(use.map((i: { kind: string }) => i.kind).filter((k: string) => k === 'EXPIRE')).toHaveLength(2)
  })
})
