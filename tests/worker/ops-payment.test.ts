/**
 * Refunds and provider events from the operator API (issue 39 point 8; docs/API.md "Operator API":
 * `GET /api/ops/payments/{id}`, `POST /api/ops/payments/{id}/refund`; `npm run ops -- payment show|refund`) on the real
 * edge app and D1: a payment with its lots, provider events and reversals; a refund through the reader's own guarded
 * path with its audit row in the coins' batch; refused in one line (INVALID_PARAMETER, reason NOT_REFUNDABLE) when its
 * coins were used, it was refunded, it is not paid or too old, nothing moved; 40 concurrent refunds of one payment
 * refund it once; 1,000 generated bad bodies answer no 5xx and change nothing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { OPS, expectBadBodiesRefused } from './ops.helpers.ts'
import { app, buy, db, expectError, expectInvariant, newReader, newSeries, read, snapshot, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { readerRows } from './reader-rows.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'

function ops(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { ...OPS.headers }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return request(app, `/api/ops${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}

async function paidCharge(reader: Reader, coins = 100, bonus = 15) {
  const paymentId = await paymentFor(reader, await newProduct({ coins, bonus }))
  expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
  return paymentId
}

const auditRows = (paymentId: string) =>
  db.all<{ operator: string; action: string; reason: string; before_json: string; after_json: string }>(
    `SELECT operator, action, reason, before_json, after_json FROM ops_audit WHERE target = ? ORDER BY id`,
    `payment:${paymentId}`,
  )

describe('GET /api/ops/payments/{id} (payment show)', () => {
  it("a payment: its reader, lots, the provider's events, reversals and whether the refund rule takes it", async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader)
    const res = await ops('GET', `/payments/${paymentId}`)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const { data } = await read(res)
    expect(data.payment).toMatchObject({ id: paymentId, userId: reader.id, state: 'PAID', coins: 100, bonus: 15, provider: 'sandbox' })
    expect(data.lots.map((l: { type: string; amount: number; remaining: number }) => [l.type, l.amount, l.remaining])).toEqual([
      ['COIN', 100, 100],
      ['BONUS', 15, 15],
    ])
    expect(data.events).toEqual([
      expect.objectContaining({ provider: 'sandbox', type: 'checkout.completed', receivedAt: expect.any(String) }),
    ])
    expect(data.reversals).toEqual([])
    expect(data.refusal).toBeNull()
    await expectError(await ops('GET', '/payments/pay_nothere'), 404, 'NOT_EXIST')
    for (const bad of ['x', 'pay_', 'pay_ABC', `pay_${'a'.repeat(65)}`])
      await expectError(await ops('GET', `/payments/${bad}`), 400, 'INVALID_PARAMETER')
  })
})

describe('POST /api/ops/payments/{id}/refund (payment refund)', () => {
  it("refunds through the reader's path: the coins leave, the payment is REFUNDED and confirmed, the audit row is the batch's", async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader)
    const res = await ops('POST', `/payments/${paymentId}/refund`, { reason: 'double charge, ticket 88' })
    expect(res.status).toBe(200)
    expect((await read(res)).data).toMatchObject({ paymentId, refunded: { coin: 100, bonus: 15, freeCoin: 0, mileage: 0 } })
    expect(
      await readerRows.first(reader.id, `SELECT state, refunded_at IS NOT NULL AS done FROM payments WHERE id = ?`, paymentId),
    ).toEqual({
      state: 'REFUNDED',
      done: 1,
    })
    expect(await readerRows.first(reader.id, `SELECT sum(remaining) AS left FROM coin_lots WHERE user_id = ?`, reader.id)).toEqual({
      left: 0,
    })
    await expectInvariant(reader.id)
    const [row, ...more] = await auditRows(paymentId)
    expect(more).toEqual([])
    expect(row).toMatchObject({ operator: 'root', action: 'payment.refund', reason: 'double charge, ticket 88' })
    expect(JSON.parse(row!.before_json)).toMatchObject({ state: 'PAID', refunded_at: null })
    // written in the coins' batch: the payment as that batch left it (asked, the provider's answer not yet recorded)
    expect(JSON.parse(row!.after_json)).toMatchObject({ state: 'REFUNDED', refunded_at: null })
    // show says why it cannot be refunded again
    expect((await read(await ops('GET', `/payments/${paymentId}`))).data.refusal).toMatch(/^already refunded/)
  })

  it('refuses used coins, a refunded, unpaid or late payment in one line (NOT_REFUNDABLE); unknown 404; nothing moves', async () => {
    const reader = await newReader()
    const used = await paidCharge(reader, 10, 0)
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 3 })
    expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' })).status).toBe(200)
    const late = await paidCharge(reader)
    await readerRows.run(
      reader.id,
      `UPDATE payments SET paid_at = ? WHERE id = ? `,
      new Date(Date.now() - 8 * 86_400_000).toISOString(),
      late,
    )
    const unpaid = await paymentFor(reader, await newProduct())
    const refunded = await paidCharge(reader, 20, 0)
    expect((await ops('POST', `/payments/${refunded}/refund`, { reason: 'first' })).status).toBe(200)
    const before = await snapshot(reader.id)
    const audit = await db.first('SELECT count(*) AS n FROM ops_audit')
    const expectations: [string, RegExp][] = [
      [used, /its coins were used: COIN 3 of 10/],
      [late, /paid \S+: past the 7-day refund window/],
      [unpaid, /it is UNPAID, not PAID/],
      [refunded, /already refunded/],
    ]
    for (const [paymentId, why] of expectations) {
      const res = await ops('POST', `/payments/${paymentId}/refund`, { reason: 'try' })
      const body = await read(res)
      expect(res.status).toBe(400)
      expect(body).toMatchObject({ code: 'INVALID_PARAMETER', fields: 'paymentId', reason: 'NOT_REFUNDABLE' })
      expect(body.message).toMatch(new RegExp(`^payment ${paymentId} cannot be refunded: ${why.source}`))
      expect(body.message).not.toContain('\n')
    }
    await expectError(await ops('POST', '/payments/pay_nothere/refund', { reason: 'x' }), 404, 'NOT_EXIST')
    expect(await snapshot(reader.id)).toEqual(before)
    expect(await db.first('SELECT count(*) AS n FROM ops_audit')).toEqual(audit)
  })

  it('40 concurrent refunds of one payment: refunded once, the coins taken once, one audit row', async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader, 50, 5)
    const answers = await Promise.all(Array.from({ length: 40 }, () => ops('POST', `/payments/${paymentId}/refund`, { reason: 'race' })))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 400)).toHaveLength(39)
    for (const r of answers.filter((a) => a.status === 400)) expect((await read(r)).reason).toBe('NOT_REFUNDABLE')
    expect(
      await readerRows.all(
        reader.id,
        `SELECT type, amount FROM coin_ledger WHERE user_id = ? AND kind = 'REFUND_PURCHASE' ORDER BY id`,
        reader.id,
      ),
    ).toEqual([
      { type: 'COIN', amount: -50 },
      { type: 'BONUS', amount: -5 },
    ])
    expect((await auditRows(paymentId)).map((r) => r.action)).toEqual(['payment.refund'])
    await expectInvariant(reader.id)
  })

  it('1,000 generated bad bodies: no 5xx, nothing refunded, no audit row', async () => {
    const reader = await newReader()
    const paymentId = await paidCharge(reader)
    const before = await snapshot(reader.id)
    await expectBadBodiesRefused([`/api/ops/payments/${paymentId}/refund`], { paymentId: fc.oneof(fc.constant(paymentId), fc.string()) })
    expect(await snapshot(reader.id)).toEqual(before)
    expect(await readerRows.first(reader.id, `SELECT state FROM payments WHERE id = ?`, paymentId)).toEqual({ state: 'PAID' })
    expect(await auditRows(paymentId)).toEqual([])
  }, 120_000)
})
