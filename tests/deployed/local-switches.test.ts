/**
 * Issue 20 "no sandbox on a deployed edition": the worker started as a deployment runs it (vitest project
 * `deployed`: no DEV_OUTBOX, `import.meta.env.DEV` off as in a production build, real-looking secrets including
 * PAYMENT_WEBHOOK_SECRET and Stripe's) on real workerd + D1. The sandboxes and the outbox answer 404; the shop of
 * an edition without a configured provider charges nothing; Stripe's webhook route is there, and refuses what
 * Stripe did not sign; the kr carrier is unavailable.
 */
import { describe, expect, it } from 'vitest'
import { env, withEnv } from 'cloudflare:workers'
import { appFor, expectError, frEdition, read, request } from '../worker/app.ts'
import { newProduct, postWebhook, signedEvent } from '../worker/payment.helpers.ts'
import { db, newReader } from '../worker/purchase.helpers.ts'
import { isLocalRun } from '../../src/lib/server/local-run.ts'
import { sandboxWebhook } from '../../src/features/payment/provider.ts'

const vars = env as unknown as Record<string, string | undefined>
const app = appFor()

describe('a deployed worker (no local switch, real-looking secrets)', () => {
  it('is not a local run, although it has every payment secret', () => {
    expect(vars.DEV_OUTBOX).toBeUndefined()
    expect(import.meta.env.DEV).toBe(false)
    expect(vars.PAYMENT_WEBHOOK_SECRET && vars.STRIPE_SECRET_KEY && vars.STRIPE_WEBHOOK_SECRET).toBeTruthy()
    expect(isLocalRun()).toBe(false)
  })

  it("answers 404 on the sandbox's pay and cancel, its checkout page, /nice/sandbox and /dev/outbox", async () => {
    const reader = await newReader()
    const product = await newProduct({ price: 1499 })
    // a payment as the sandbox would have made it (none can be made here: see the shop below)
    const paymentId = `pay_${crypto.randomUUID().replaceAll('-', '')}`
    await db.run(
      `INSERT INTO payments (id, user_id, product_id, state, provider, method, amount, currency, coins, bonus, idempotency_key) VALUES (?, ?, ?, 'UNPAID', 'sandbox', 'card', 1499, 'EUR', 100, 15, ?)`,
      paymentId,
      reader.id,
      product,
      paymentId,
    )
    const form = {
      method: 'POST',
      headers: { ...reader.headers, origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    }
    for (const action of ['pay', 'cancel'])
      expect((await request(app, `/api/v1/payment/sandbox/${paymentId}/${action}`, form)).status, action).toBe(404)
    for (const path of [`/shop/checkout/${paymentId}`, '/nice/sandbox', '/dev/outbox', '/dev']) {
      expect((await request(app, path, { headers: reader.headers })).status, path).toBe(404)
    }
    expect(
      (
        await request(app, '/nice/sandbox', {
          method: 'POST',
          headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
          body: 'EncodeData=x&Mac=y',
        })
      ).status,
    ).toBe(404)
    // the sandbox's webhook, validly signed with the deployment's PAYMENT_WEBHOOK_SECRET: 404, nothing credited
    const hook = await postWebhook(await signedEvent(paymentId, { secret: vars.PAYMENT_WEBHOOK_SECRET! }))
    expect(hook.status).toBe(404)
    expect(await db.first(`SELECT state FROM payments WHERE id = ?`, paymentId)).toEqual({ state: 'UNPAID' })
    expect(await db.first(`SELECT count(*) AS n FROM coin_lots WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
  })

  it('an edition whose provider is the sandbox sells nothing: NOT_FOUND_PAYMENT_METHOD, no payment row', async () => {
    expect(frEdition.payment.provider).toBe('sandbox')
    const reader = await newReader()
    const productId = await newProduct({ price: 1499 })
    const res = await request(app, '/api/v1/payment/charge', {
      method: 'POST',
      headers: { ...reader.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ productId, method: 'card' }),
    })
    await expectError(res, 404, 'NOT_FOUND_PAYMENT_METHOD')
    const form = await request(app, '/api/v1/payment/web/charge', {
      method: 'POST',
      headers: { ...reader.headers, origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
      body: `productId=${productId}&method=card&agree=on&key=deployed-key-1`,
    })
    expect(form.status).toBe(303)
    expect(form.headers.get('location')).toBe(`/shop?error=NOT_FOUND_PAYMENT_METHOD&product=${productId}#shop-error`)
    expect(await db.first(`SELECT count(*) AS n FROM payments WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
  })

  it("Stripe's webhook route exists when its secrets are set, and refuses what Stripe did not sign", async () => {
    const stripeApp = appFor({ ...frEdition, payment: { provider: 'stripe' } })
    const body = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { client_reference_id: 'pay_x' } },
    })
    const res = await request(stripeApp, '/api/v1/payment/webhook/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body,
    })
    await expectError(res, 400, 'INVALID_PARAMETER')
    // a sandbox-signed body is no Stripe event either
    const forged = await sandboxWebhook(vars.PAYMENT_WEBHOOK_SECRET!, {
      id: 'evt_2',
      type: 'checkout.completed',
      paymentId: 'pay_x',
      amount: 1,
      currency: 'EUR',
    })
    await expectError(
      await request(stripeApp, '/api/v1/payment/webhook/stripe', { method: 'POST', headers: forged.headers, body: forged.body }),
      400,
      'INVALID_PARAMETER',
    )
  })

  it('the kr carrier is unavailable: the app route answers NOT_EXIST, nothing is signed', async () => {
    const reader = await newReader()
    const res = await request(app, '/api/v1/auth/carrier/encode?purpose=ADULT_KR', { headers: reader.headers })
    await expectError(res, 404, 'NOT_EXIST')
    expect((await read(await request(app, '/api/v1/coin', { headers: reader.headers }))).result).toBe('SUCCESS')
  })
})

describe('issue 34 (6): the operator API of a deployed edition', () => {
  const ops = (token: string) =>
    request(app, '/api/ops/qna', { headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': '192.0.2.9' } })
  it('stays off (404) with a weak OPS_TOKEN, even for that very token', async () => {
    for (const weak of ['test-ops-token', 'a'.repeat(40), 'dev-ops-token-change-me'])
      expect((await withEnv({ ...env, OPS_TOKEN: weak }, () => ops(weak))) as Response, weak).toHaveProperty('status', 404)
  })
  it('answers with a strong one', async () => {
    const strong = 'Zk3v9Qw2Lp7Rt5Yx8Nb4Mc6Vd1Hf0Gj2Ks'
    expect(((await withEnv({ ...env, OPS_TOKEN: strong }, () => ops(strong))) as Response).status).toBe(200)
    expect(((await withEnv({ ...env, OPS_TOKEN: strong }, () => ops('wrong'))) as Response).status).toBe(401)
  })
})
