/**
 * POST /api/v1/payment/webhook/{provider} on real workerd + D1 (docs/API.md: bad signature → 400, replay → 200 and
 * nothing credited twice; docs/QUALITY.md: a payment webhook replayed 100× credits once). The sandbox signs like
 * Stripe: `Sandbox-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, 5 minutes of tolerance.
 */
import { describe, expect, it } from 'vitest'
import { db, expectError, expectInvariant, newReader, read } from './purchase.helpers.ts'
import { credited, newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { coinOf } from '../../src/features/wallet/wallet.server.ts'
import { sandboxWebhook } from '../../src/features/payment/provider.ts'

async function unpaid(coins = 100, bonus = 15) {
  const reader = await newReader()
  const paymentId = await paymentFor(reader, await newProduct({ coins, bonus }))
  return { reader, paymentId }
}

describe('POST /api/v1/payment/webhook/sandbox', () => {
  it('credits a paid checkout once: the same event replayed 100× (concurrently) answers 200 and moves nothing more', async () => {
    const { reader, paymentId } = await unpaid(100, 15)
    const event = await signedEvent(paymentId)
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => postWebhook(event).then(async (r) => ({ status: r.status, body: await read(r) }))),
    )
    expect(answers.every((a) => a.status === 200 && a.body.result === 'SUCCESS')).toBe(true)
    const outcomes = answers.map((a) => a.body.data.outcome)
    expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1)
    expect(outcomes.filter((o) => o !== 'credited').every((o) => o === 'duplicate')).toBe(true)
    const after = await credited(paymentId)
    expect(after).toMatchObject({ state: 'PAID', events: 1 })
    expect(after.lots.map((l) => l.amount)).toEqual([100, 15])
    expect(after.ledger).toHaveLength(2)
    expect((await coinOf(db, reader.id)).total).toBe(115)
    await expectInvariant(reader.id)
  }, 30_000)

  it('50 concurrent webhooks with different event ids for one payment credit once (the others: ALREADY_PAID, 200)', async () => {
    const { reader, paymentId } = await unpaid(30, 3)
    const events = await Promise.all(Array.from({ length: 50 }, () => signedEvent(paymentId)))
    const answers = await Promise.all(
      events.map((e) => postWebhook(e).then(async (r) => ({ status: r.status, outcome: (await read(r)).data?.outcome }))),
    )
    expect(answers.every((a) => a.status === 200)).toBe(true)
    expect(answers.filter((a) => a.outcome === 'credited')).toHaveLength(1)
    expect(answers.filter((a) => a.outcome === 'already_paid')).toHaveLength(49)
    expect((await credited(paymentId)).lots.map((l) => l.amount)).toEqual([30, 3])
    expect((await coinOf(db, reader.id)).total).toBe(33)
    await expectInvariant(reader.id)
  }, 30_000)

  it('a charge indexes its reader on the shared side; a credit whose shared part was cut off is finished by the redelivery, once', async () => {
    const product = await newProduct({ coins: 20, bonus: 0 })
    const reader = await newReader()
    const paymentId = await paymentFor(reader, product)
    const index = () =>
      db.first<{ userId: number; ref: string | null; credited: string | null }>(
        `SELECT user_id AS userId, provider_ref AS ref, credited_at AS credited FROM payment_readers WHERE payment_id = ?`,
        paymentId,
      )
    const sold = async () => (await db.first<{ n: number }>(`SELECT sold_count AS n FROM coin_products WHERE id = ?`, product))!.n
    expect(await index()).toEqual({ userId: reader.id, ref: null, credited: null })
    const event = await signedEvent(paymentId)
    expect((await read(await postWebhook(event))).data.outcome).toBe('credited')
    expect(await index()).toMatchObject({ userId: reader.id, ref: expect.any(String), credited: expect.any(String) })
    expect(await sold()).toBe(1)
    // a worker stopped between the reader's credit batch and the shared step: the coins are there, the count is not
    await db.batch([
      { sql: `UPDATE payment_readers SET credited_at = NULL, provider_ref = NULL WHERE payment_id = ?`, params: [paymentId] },
      { sql: `UPDATE coin_products SET sold_count = sold_count - 1 WHERE id = ?`, params: [product] },
    ])
    // the provider got no answer and delivers the event again: nothing more is credited, the shared step is done
    for (let i = 0; i < 3; i++) expect((await read(await postWebhook(event))).data.outcome).toBe('duplicate')
    expect(await index()).toMatchObject({ ref: expect.any(String), credited: expect.any(String) })
    expect(await sold()).toBe(1)
    expect((await credited(paymentId)).lots.map((l) => l.amount)).toEqual([20])
    await expectInvariant(reader.id)
  })

  it('a bad signature, another secret, an old or future timestamp, or another body credits nothing (400 INVALID_PARAMETER)', async () => {
    const { reader, paymentId } = await unpaid()
    const good = await signedEvent(paymentId)
    const sig = good.headers['Sandbox-Signature']!
    const forged = [
      {
        ...good,
        headers: { ...good.headers, 'Sandbox-Signature': sig.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`) },
      },
      { ...good, headers: { 'content-type': 'application/json' } },
      { ...good, headers: { ...good.headers, 'Sandbox-Signature': 'garbage' } },
      { ...good, headers: { ...good.headers, 'Sandbox-Signature': sig.replace(/^t=\d+/, `t=${Math.floor(Date.now() / 1000) - 1}`) } },
      await signedEvent(paymentId, { secret: 'another-secret' }),
      await signedEvent(paymentId, { now: new Date(Date.now() - 6 * 60_000) }),
      await signedEvent(paymentId, { now: new Date(Date.now() + 6 * 60_000) }),
      // the signed body, altered: 10× the coins' price would not match anyway, but the signature fails first
      { ...good, body: good.body.replace('"amount":', '"amount":1') },
      { ...good, body: good.body + ' ' },
    ]
    for (const event of forged) await expectError(await postWebhook(event), 400, 'INVALID_PARAMETER')
    expect(await credited(paymentId)).toMatchObject({ state: 'UNPAID', lots: [], ledger: [], events: 0 })
    expect((await coinOf(db, reader.id)).total).toBe(0)
  })

  it('a validly signed event whose amount or currency differ from the payment, or for an unknown payment, credits nothing', async () => {
    const { paymentId } = await unpaid()
    await expectError(await postWebhook(await signedEvent(paymentId, { amount: 1 })), 400, 'INVALID_PARAMETER')
    await expectError(await postWebhook(await signedEvent(paymentId, { currency: 'USD' })), 400, 'INVALID_PARAMETER')
    await expectError(await postWebhook(await signedEvent('pay_doesnotexist', { amount: 1499, currency: 'EUR' })), 400, 'INVALID_PARAMETER')
    expect(await credited(paymentId)).toMatchObject({ state: 'UNPAID', lots: [], events: 0 })
  })

  it('an unknown provider is 404 NOT_EXIST; a signed cancel cancels, and a later paid event credits nothing', async () => {
    const { reader, paymentId } = await unpaid()
    await expectError(await postWebhook(await signedEvent(paymentId), 'paypal'), 404, 'NOT_EXIST')
    // a sandbox-signed event is no Stripe event (Stripe is configured in these tests)
    await expectError(await postWebhook(await signedEvent(paymentId), 'stripe'), 400, 'INVALID_PARAMETER')
    const cancel = await read(await postWebhook(await signedEvent(paymentId, { type: 'checkout.cancelled' })))
    expect(cancel.data.outcome).toBe('cancelled')
    const late = await read(await postWebhook(await signedEvent(paymentId)))
    expect(late.data.outcome).toBe('ignored')
    expect(await credited(paymentId)).toMatchObject({ state: 'CANCELLED', lots: [], ledger: [] })
    expect((await coinOf(db, reader.id)).total).toBe(0)
  })

  it('the header format follows Stripe: t=<unix>,v1=<64 hex>', async () => {
    const event = { id: 'evt_f', type: 'checkout.completed', paymentId: 'p', amount: 1, currency: 'EUR' } as const
    const sent = await sandboxWebhook('s', event, new Date(1700000000 * 1000))
    expect(sent.headers['Sandbox-Signature']).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/)
  })
})
