/**
 * docs/QUALITY.md "Bad input" for the payment routes: 1,000 generated bodies on the charge and on the webhook never
 * get a 5xx; every error is a catalogue code with a message; nothing is credited.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled } from './app.ts'
import { expectInvariant, newReader } from './purchase.helpers.ts'
import { charge, credited, newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { readerRows } from './reader-rows.ts'

/**
 * A Stripe-style `Sandbox-Signature` of any `body` at unix second `t` — `t=<t>,v1=<HMAC-SHA256 hex of "t.body">` — as
 * a sender holding the secret makes it.
 */
async function signSandbox(secret: string, body: string, t: number): Promise<string> {
  const encoder = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${t}.${body}`)))
  return `t=${t},v1=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

const text = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
)

describe('bad input on the payment routes', () => {
  it('POST /payment/charge: 1,000 generated bodies and keys, no 5xx', async () => {
    const reader = await newReader()
    const productId = await newProduct({ stock: 0 })
    const body = fc.oneof(
      fc
        .record(
          {
            productId: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(productId), fc.constant(2 ** 60), fc.jsonValue()),
            method: fc.oneof(fc.constantFrom('card', 'paypal', '', 'CARD'), fc.jsonValue()),
          },
          { requiredKeys: [] },
        )
        .map((b) => JSON.stringify(b)),
      text,
    )
    const key = fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant(null))
    await fc.assert(
      fc.asyncProperty(body, key, async (b, k) => {
        let res: Response
        try {
          res = await charge(reader, b, k)
        } catch (e) {
          expect(String(e)).toMatch(/header/i) // a header value the Fetch API itself refuses never reaches the worker
          return
        }
        await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    const paid = await readerRows.first<{ n: number }>(
      reader.id,
      `SELECT count(*) AS n FROM payments WHERE user_id = ? AND state <> 'UNPAID'`,
      reader.id,
    )
    expect(paid!.n).toBe(0)
  }, 60_000)

  it('POST /payment/webhook/sandbox: 1,000 generated bodies and signatures (some validly signed), no 5xx, nothing credited', async () => {
    const reader = await newReader()
    const paymentId = await paymentFor(reader, await newProduct())
    const real = await signedEvent(paymentId)
    const t = Math.floor(Date.now() / 1000)
    const event = fc.oneof(
      text,
      fc
        .record(
          {
            id: fc.oneof(fc.string(), fc.constant('evt_x')),
            type: fc.oneof(fc.string(), fc.constant('checkout.refunded')),
            data: fc.record(
              {
                paymentId: fc.oneof(fc.string(), fc.constant(paymentId)),
                amount: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
                currency: fc.string(),
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc.constant(real.body.replace('checkout.completed', 'checkout.refunded')),
    )
    const signature = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constant(null),
      fc.constant('sign'),
      fc.constant(real.headers['Sandbox-Signature']!),
    )
    await fc.assert(
      fc.asyncProperty(event, signature, async (body, sig) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' }
        const value = sig === 'sign' ? await signSandbox('test-webhook-secret', body, t) : sig
        if (value !== null) headers['sandbox-signature'] = value
        let res: Response
        try {
          res = await postWebhook({ body, headers })
        } catch (e) {
          expect(String(e)).toMatch(/header/i)
          return
        }
        await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    expect(await credited(paymentId)).toMatchObject({ state: 'UNPAID', lots: [], ledger: [] })
    await expectInvariant(reader.id)
  }, 60_000)
})
