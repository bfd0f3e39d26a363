/**
 * The plain-form routes (functions/api/forms.ts `formRoute`) on real workerd + D1: a form that moves coins goes
 * through the same `idempotent()` middleware as the JSON routes, keyed by the hidden `key` field its page renders.
 * The same form sent again (or 40 times at once) moves coins once and lands on the first answer's page; the same
 * key with another form is IDEMPOTENCY_KEY_REUSED; nothing else changes.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectInvariant, get, newReader, read, type Reader } from './purchase.helpers.ts'
import { giveTickets, newRoulette, rouletteSnapshot } from './roulette.helpers.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { request } from './app.ts'

const form = (reader: Pick<Reader, 'headers'>, path: string, fields: Record<string, string>) =>
  request(app, path, {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...reader.headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })

const ledgerRows = async (userId: number) =>
  (await db.first<{ n: number }>(`SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, userId))!.n

describe('a repeated plain form moves coins once', () => {
  it('roulette: 40 concurrent posts of one rendered form spin once; all land on its prize', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    await giveTickets(reader.id, 3, eventId)
    const fields = { eventId: String(eventId), key: crypto.randomUUID() }
    const answers = await Promise.all(Array.from({ length: 40 }, () => form(reader, '/api/v1/roulette/web/spin', fields)))
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(303))
    expect(new Set(answers.map((r) => r.headers.get('location')))).toEqual(new Set(['/roulette?prize=BONUS:5#roulette-status']))
    expect((await rouletteSnapshot(reader.id)).entries).toEqual({ n: 1 })
    expect((await read(await get(reader, `/api/v1/roulette?eventId=${eventId}`))).data.tickets).toBe(2)
    expect(await ledgerRows(reader.id)).toBe(1)
    // the same key with another form: refused, nothing moves
    const other = await form(reader, '/api/v1/roulette/web/spin', { eventId: String(eventId + 1), key: fields.key })
    expect(other.headers.get('location')).toBe('/roulette?error=IDEMPOTENCY_KEY_REUSED#roulette-status')
    expect(await ledgerRows(reader.id)).toBe(1)
    await expectInvariant(reader.id)
  })

  it('refund (charge history): the same form twice refunds once and answers refunded both times', async () => {
    const reader = await newReader()
    const paymentId = await paymentFor(reader, await newProduct({ coins: 100, bonus: 15 }))
    expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
    const fields = { paymentId, key: `k${crypto.randomUUID().replaceAll('-', '')}` }
    const first = await form(reader, '/api/v1/payment/web/refund', fields)
    const again = await form(reader, '/api/v1/payment/web/refund', fields)
    expect([first.status, again.status]).toEqual([303, 303])
    expect([first.headers.get('location'), again.headers.get('location')]).toEqual([
      '/history/charge?refunded=1',
      '/history/charge?refunded=1',
    ])
    expect(
      await db.all(
        `SELECT kind, amount FROM coin_ledger WHERE user_id = ? AND ref = ? AND kind = 'REFUND_PURCHASE' ORDER BY id`,
        reader.id,
        paymentId,
      ),
    ).toEqual([
      { kind: 'REFUND_PURCHASE', amount: -100 },
      { kind: 'REFUND_PURCHASE', amount: -15 },
    ])
    // a new render (another key) of a refunded payment: the catalogue code of the refusal
    const late = await form(reader, '/api/v1/payment/web/refund', { paymentId, key: `k${crypto.randomUUID().replaceAll('-', '')}` })
    expect(late.headers.get('location')).toBe('/history/charge?error=INVALID_PARAMETER')
    await expectInvariant(reader.id)
  })
})
