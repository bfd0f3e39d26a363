/**
 * The coin shop on real workerd + D1 (docs/API.md `GET /payment/products`, `POST /payment/charge`; spec §5 agreement,
 * §8 Payment errors): products of the edition's currency, UNPAID payments with their checkout URL once per
 * Idempotency-Key, stock and per-user limits, the shop form and the sandbox checkout buttons, and another reader
 * who can neither see nor pay my payment.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, expectInvariant, get, newReader, read, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { charge, credited, newProduct, paymentFor } from './payment.helpers.ts'
import { coinOf } from '../../src/features/wallet/wallet.server.ts'
import { paymentOf, shopOffers } from '../../src/features/payment/payment.server.ts'
import { readerRows } from './reader-rows.ts'

const ORIGIN = 'http://localhost'

/** A form post from the site's own page (the shop form and the sandbox checkout buttons). */
async function form(reader: Reader | null, path: string, fields: Record<string, string> = {}, origin = ORIGIN) {
  return request(app, path, {
    method: 'POST',
    headers: { ...(reader?.headers ?? {}), origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
}

describe('GET /api/v1/payment/products', () => {
  it('lists active products of the edition currency for the platform, price in minor units', async () => {
    const shown = await newProduct({ coins: 70, bonus: 7, price: 999 })
    const inactive = await newProduct({ active: false })
    const yen = await newProduct({ currency: 'JPY' })
    const appOnly = await newProduct({ platform: 'IOS_APP' })
    const res = await get(null, '/api/v1/payment/products')
    expect(res.status).toBe(200)
    const { data } = await read(res)
    const ids = data.items.map((i: { id: number }) => i.id)
    expect(data.items.find((i: { id: number }) => i.id === shown)).toEqual({ id: shown, coins: 70, bonus: 7, price: 999, currency: 'EUR' })
    expect(ids).not.toContain(inactive)
    expect(ids).not.toContain(yen)
    expect(ids).not.toContain(appOnly)
    const header = await read(await request(app, '/api/v1/payment/products', { headers: { 'x-platform': 'IOS_APP' } }))
    expect(header.data.items.map((i: { id: number }) => i.id)).not.toContain(appOnly)
    const ios = await read(await get(await newReader({ platform: 'IOS_APP' }), '/api/v1/payment/products'))
    expect(ios.data.items.map((i: { id: number }) => i.id)).toContain(appOnly)
  })
})

describe('the /shop page offers (shopOffers, issue 35 point 4)', () => {
  it('gives each offer the refusal its charge would meet now: bought up to its limit for that reader only, sold out for everyone', async () => {
    const reader = await newReader()
    const welcome = await newProduct({ perUser: 1, coins: 50, bonus: 50 })
    const soldOut = await newProduct({ stock: 1, sold: 1 })
    const open = await newProduct()
    const paid = await paymentFor(reader, welcome)
    await payWithButton(reader, paid)
    expect((await credited(paid)).state).toBe('PAID')
    await expectError(await charge(reader, { productId: welcome, method: 'card' }), 409, 'LIMITED_COIN_PRODUCT_USER')
    const refusals = async (userId: number | null) => {
      const offers = await shopOffers(db, { currency: 'EUR', platform: 'WEB' }, userId)
      return [welcome, soldOut, open].map((id) => offers.find((o) => o.id === id)!.refusal)
    }
    expect(await refusals(reader.id)).toEqual(['LIMITED_COIN_PRODUCT_USER', 'LIMITED_COIN_PRODUCT', null])
    expect(await refusals((await newReader()).id)).toEqual([null, 'LIMITED_COIN_PRODUCT', null])
    expect(await refusals(null)).toEqual([null, 'LIMITED_COIN_PRODUCT', null])
  })
})

describe('POST /api/v1/payment/charge', () => {
  it('creates an UNPAID payment and returns its checkout URL; nothing is credited yet', async () => {
    const reader = await newReader()
    const productId = await newProduct({ coins: 100, bonus: 15, price: 1499 })
    const res = await charge(reader, { productId, method: 'card' })
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.paymentId).toMatch(/^pay_[0-9a-f]{32}$/)
    expect(data.checkoutUrl).toBe(`${ORIGIN}/shop/checkout/${data.paymentId}`)
    const row = await readerRows.first(
      reader.id,
      `SELECT user_id AS userId, state, amount, currency, coins, bonus, provider, method FROM payments WHERE id = ?`,
      data.paymentId,
    )
    expect(row).toEqual({
      userId: reader.id,
      state: 'UNPAID',
      amount: 1499,
      currency: 'EUR',
      coins: 100,
      bonus: 15,
      provider: 'sandbox',
      method: 'card',
    })
    expect((await coinOf(db, reader.id)).total).toBe(0)
  })

  it('replays the first answer for the same key and body; another body with that key is 409', async () => {
    const reader = await newReader()
    const productId = await newProduct()
    const key = crypto.randomUUID()
    const first = await read(await charge(reader, { productId, method: 'card' }, key))
    const again = await charge(reader, { method: 'card', productId }, key)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect((await read(again)).data).toEqual(first.data)
    await expectError(await charge(reader, { productId, method: 'paypal' }, key), 409, 'IDEMPOTENCY_KEY_REUSED')
    const n = await readerRows.first<{ n: number }>(reader.id, `SELECT count(*) AS n FROM payments WHERE user_id = ?`, reader.id)
    expect(n!.n).toBe(1)
  })

  it('20 concurrent requests with one key create one payment', async () => {
    const reader = await newReader()
    const productId = await newProduct()
    const key = crypto.randomUUID()
    const answers = await Promise.all(Array.from({ length: 20 }, () => charge(reader, { productId, method: 'card' }, key).then(read)))
    expect(new Set(answers.map((a) => a.data?.paymentId)).size).toBe(1)
    const n = await readerRows.first<{ n: number }>(reader.id, `SELECT count(*) AS n FROM payments WHERE user_id = ?`, reader.id)
    expect(n!.n).toBe(1)
  })

  it('refuses unknown, inactive and other-currency products, unknown methods, guests and a missing key', async () => {
    const reader = await newReader()
    const productId = await newProduct()
    await expectError(await charge(reader, { productId: 987654321, method: 'card' }), 404, 'NOT_FOUND_COIN_PRODUCT')
    await expectError(
      await charge(reader, { productId: await newProduct({ active: false }), method: 'card' }),
      404,
      'NOT_FOUND_COIN_PRODUCT',
    )
    await expectError(
      await charge(reader, { productId: await newProduct({ currency: 'JPY' }), method: 'card' }),
      404,
      'NOT_FOUND_COIN_PRODUCT',
    )
    await expectError(await charge(reader, { productId, method: 'bitcoin' }), 404, 'NOT_FOUND_PAYMENT_METHOD')
    await expectError(await charge({ headers: {} }, { productId, method: 'card' }), 401, 'NOT_LOGIN_USER')
    await expectError(await charge(reader, { productId, method: 'card' }, null), 400, 'INVALID_PARAMETER')
    await expectError(await charge(reader, { productId: -1, method: 'card' }), 400, 'INVALID_PARAMETER')
    const n = await readerRows.first<{ n: number }>(reader.id, `SELECT count(*) AS n FROM payments WHERE user_id = ?`, reader.id)
    expect(n!.n).toBe(0)
  })

  it('LIMITED_COIN_PRODUCT when the stock is sold out', async () => {
    const reader = await newReader()
    await expectError(
      await charge(reader, { productId: await newProduct({ stock: 100, sold: 100 }), method: 'card' }),
      409,
      'LIMITED_COIN_PRODUCT',
    )
    // the last unit: the charge is allowed, its payment sells it, then the next charge is refused
    const last = await newProduct({ stock: 1, sold: 0 })
    const paymentId = await paymentFor(reader, last)
    expect((await payWithButton(reader, paymentId)).status).toBe(303)
    expect((await db.first<{ sold: number }>(`SELECT sold_count AS sold FROM coin_products WHERE id = ?`, last))!.sold).toBe(1)
    await expectError(await charge(await newReader(), { productId: last, method: 'card' }), 409, 'LIMITED_COIN_PRODUCT')
  })

  it('LIMITED_COIN_PRODUCT_USER once the reader PAID the per-user limit (UNPAID and cancelled ones do not count)', async () => {
    const reader = await newReader()
    const welcome = await newProduct({ perUser: 1, coins: 50, bonus: 50 })
    const cancelled = await paymentFor(reader, welcome)
    await form(reader, `/api/v1/payment/sandbox/${cancelled}/cancel`)
    const open = await paymentFor(reader, welcome) // still UNPAID: does not count
    const paid = await paymentFor(reader, welcome)
    await payWithButton(reader, paid)
    expect((await credited(paid)).state).toBe('PAID')
    await expectError(await charge(reader, { productId: welcome, method: 'card' }), 409, 'LIMITED_COIN_PRODUCT_USER')
    // another reader is not limited by mine
    expect((await charge(await newReader(), { productId: welcome, method: 'card' })).status).toBe(200)
    expect((await credited(open)).state).toBe('UNPAID')
  })
})

async function payWithButton(reader: Reader, paymentId: string, action: 'pay' | 'cancel' = 'pay', origin = ORIGIN) {
  return form(reader, `/api/v1/payment/sandbox/${paymentId}/${action}`, {}, origin)
}

describe('the sandbox checkout buttons', () => {
  it('Pay: the sandbox sends its signed webhook; the coins and bonus arrive once; the reader goes to the result page', async () => {
    const reader = await newReader()
    const productId = await newProduct({ coins: 100, bonus: 15 })
    const paymentId = await paymentFor(reader, productId)
    const res = await payWithButton(reader, paymentId)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/shop/result?payment=${paymentId}`)
    const after = await credited(paymentId)
    expect(after.state).toBe('PAID')
    expect(after.lots.map((l) => [l.type, l.amount, l.remaining])).toEqual([
      ['COIN', 100, 100],
      ['BONUS', 15, 15],
    ])
    expect(after.lots[0]!.expiresAt).toBeNull()
    expect(Date.parse(after.lots[1]!.expiresAt!)).toBeGreaterThan(Date.now() + 89 * 86_400_000)
    expect(after.ledger).toEqual([
      { kind: 'CHARGE', type: 'COIN', amount: 100, source: 'PAYMENT' },
      { kind: 'CHARGE', type: 'BONUS', amount: 15, source: 'PAYMENT' },
    ])
    // pressing Pay again (back button) moves nothing
    expect((await payWithButton(reader, paymentId)).status).toBe(303)
    expect((await credited(paymentId)).lots).toHaveLength(2)
    const coin = await read(await get(reader, '/api/v1/coin'))
    expect(coin.data).toMatchObject({ coin: 100, bonus: 15, total: 115 })
    const history = await read(await get(reader, '/api/v1/coin/history?kind=CHARGE'))
    expect(
      history.data.items.map((i: { source: string; productKind: string; amount: number }) => [i.source, i.productKind, i.amount]),
    ).toEqual([
      ['PAYMENT', 'COIN_PRODUCT', 15],
      ['PAYMENT', 'COIN_PRODUCT', 100],
    ])
    await expectInvariant(reader.id)
  })

  it('Cancel: the payment is CANCELLED, nothing is credited, and a later Pay does nothing', async () => {
    const reader = await newReader()
    const paymentId = await paymentFor(reader, await newProduct())
    const res = await payWithButton(reader, paymentId, 'cancel')
    expect(res.headers.get('location')).toBe(`/shop/result?payment=${paymentId}`)
    expect(await credited(paymentId)).toMatchObject({ state: 'CANCELLED', lots: [], ledger: [] })
    await payWithButton(reader, paymentId)
    expect(await credited(paymentId)).toMatchObject({ state: 'CANCELLED', lots: [], ledger: [] })
  })

  it('another reader can neither pay nor cancel my payment; a guest is sent to log in; another Origin is refused', async () => {
    const me = await newReader()
    const other = await newReader()
    const paymentId = await paymentFor(me, await newProduct())
    for (const action of ['pay', 'cancel'] as const) {
      const res = await payWithButton(other, paymentId, action)
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/shop?error=NOT_EXIST')
    }
    const guest = await form(null, `/api/v1/payment/sandbox/${paymentId}/pay`)
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?callback=%2Fshop%2Fcheckout%2Fpay_/)
    await expectError(await payWithButton(me, paymentId, 'pay', 'https://evil.example'), 403, 'FORBIDDEN_ORIGIN')
    expect(await credited(paymentId)).toMatchObject({ state: 'UNPAID', lots: [] })
    expect((await coinOf(db, other.id)).total).toBe(0)
    // the checkout and result pages read the payment through paymentOf: nothing for another reader
    expect(await paymentOf(db, other.id, paymentId)).toBeNull()
    expect(await paymentOf(db, me.id, paymentId)).toMatchObject({ id: paymentId, state: 'UNPAID' })
    expect(await paymentOf(db, me.id, "pay_' OR 1=1 --")).toBeNull()
  })
})

describe('the shop form (POST /api/v1/payment/web/charge)', () => {
  it('requires the agreement checkbox, then goes to the checkout page; a double submit lands on the same payment', async () => {
    const reader = await newReader()
    const productId = await newProduct()
    const refused = await form(reader, '/api/v1/payment/web/charge', {
      productId: String(productId),
      method: 'card',
      key: 'formkey-12345678',
    })
    expect(refused.status).toBe(303)
    expect(refused.headers.get('location')).toBe(`/shop?error=INVALID_PARAMETER&product=${productId}#shop-agree`)
    // the checkbox is the field concerned, the chosen method kept, in the page's one-minute flash (not the URL)
    const flash = refused.headers.get('set-cookie') ?? ''
    expect(decodeURIComponent(flash)).toContain(JSON.stringify({ code: 'INVALID_PARAMETER', field: 'agree', values: { method: 'card' } }))
    expect(flash).toMatch(/Path=\/shop;.*HttpOnly/)
    expect((await readerRows.first<{ n: number }>(reader.id, `SELECT count(*) AS n FROM payments WHERE user_id = ?`, reader.id))!.n).toBe(0)

    const fields = { productId: String(productId), method: 'card', agree: 'on', key: 'formkey-12345678' }
    const first = await form(reader, '/api/v1/payment/web/charge', fields)
    expect(first.headers.get('location')).toMatch(/^\/shop\/checkout\/pay_[0-9a-f]{32}$/)
    const second = await form(reader, '/api/v1/payment/web/charge', fields)
    expect(second.headers.get('location')).toBe(first.headers.get('location'))
    expect((await readerRows.first<{ n: number }>(reader.id, `SELECT count(*) AS n FROM payments WHERE user_id = ?`, reader.id))!.n).toBe(1)
  })

  it('sends a guest to log in and shows the catalogue code of a refusal', async () => {
    const productId = await newProduct({ stock: 1, sold: 1 })
    const guest = await form(null, '/api/v1/payment/web/charge', { productId: String(productId), agree: 'on', key: 'formkey-12345678' })
    expect(guest.headers.get('location')).toBe('/user/login?callback=%2Fshop')
    const sold = await form(await newReader(), '/api/v1/payment/web/charge', {
      productId: String(productId),
      agree: 'on',
      key: 'formkey-12345678',
    })
    expect(sold.headers.get('location')).toBe(`/shop?error=LIMITED_COIN_PRODUCT&product=${productId}#shop-error`)
  })
})
