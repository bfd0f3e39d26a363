/**
 * The shop's other parts on real workerd + D1: the spec §7 Facebook conversion call on a paid charge (behind the
 * edition flag; the local provider records it once, even when the webhook is replayed), the payment status the
 * shop island polls (owner only), and the spec §3 address form (29 European countries with dial codes).
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, get, newReader, read, type Reader } from './purchase.helpers.ts'
import { appFor, frEdition, request } from './app.ts'
import { newProduct, paymentFor, signedEvent } from './payment.helpers.ts'
import { countryOptions } from '../../src/features/payment/address.ts'
import { readerRows } from './reader-rows.ts'

const conversions = (paymentId: string) =>
  db.all(`SELECT provider, action, action_url AS url, currency, value FROM conversion_events WHERE payment_id = ?`, paymentId)

function putAddress(reader: Pick<Reader, 'headers'>, body: unknown) {
  return request(app, '/api/v1/payment/address', {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...reader.headers },
    body: JSON.stringify(body),
  })
}

describe('Facebook conversion on a paid charge (spec §7)', () => {
  it('records one Purchase conversion per paid payment when the flag is on, even for a replayed webhook', async () => {
    const reader = await newReader()
    const paymentId = await paymentFor(reader, await newProduct({ price: 999 }))
    const event = await signedEvent(paymentId)
    for (let i = 0; i < 3; i++)
      expect(
        (await request(app, '/api/v1/payment/webhook/sandbox', { method: 'POST', headers: event.headers, body: event.body })).status,
      ).toBe(200)
    expect(await conversions(paymentId)).toEqual([
      { provider: 'local', action: 'Purchase', url: 'http://localhost/shop', currency: 'EUR', value: 999 },
    ])
  })

  it('records nothing for a cancelled checkout or when the edition flag is off', async () => {
    const reader = await newReader()
    const cancelled = await paymentFor(reader, await newProduct())
    const ev = await signedEvent(cancelled, { type: 'checkout.cancelled' })
    await request(app, '/api/v1/payment/webhook/sandbox', { method: 'POST', headers: ev.headers, body: ev.body })
    expect(await conversions(cancelled)).toEqual([])

    const off = appFor({ ...frEdition, features: { ...frEdition.features, facebookConversion: false } })
    const paid = await paymentFor(reader, await newProduct())
    const ok = await signedEvent(paid)
    expect((await request(off, '/api/v1/payment/webhook/sandbox', { method: 'POST', headers: ok.headers, body: ok.body })).status).toBe(200)
    expect(await readerRows.first(reader.id, `SELECT state FROM payments WHERE id = ?`, paid)).toEqual({ state: 'PAID' })
    expect(await conversions(paid)).toEqual([])
  })
})

describe('GET /api/v1/payment/status/{id}', () => {
  it('shows the owner the state of the payment, nobody else', async () => {
    const reader = await newReader()
    const other = await newReader()
    const paymentId = await paymentFor(reader, await newProduct({ coins: 30, bonus: 3 }))
    expect((await read(await get(reader, `/api/v1/payment/status/${paymentId}`))).data).toMatchObject({
      id: paymentId,
      state: 'UNPAID',
      coins: 30,
      bonus: 3,
    })
    const event = await signedEvent(paymentId)
    await request(app, '/api/v1/payment/webhook/sandbox', { method: 'POST', headers: event.headers, body: event.body })
    expect((await read(await get(reader, `/api/v1/payment/status/${paymentId}`))).data.state).toBe('PAID')
    await expectError(await get(other, `/api/v1/payment/status/${paymentId}`), 404, 'NOT_EXIST')
    await expectError(await get(reader, `/api/v1/payment/status/nope`), 404, 'NOT_EXIST')
    await expectError(await get(null, `/api/v1/payment/status/${paymentId}`), 401, 'NOT_LOGIN_USER')
  })
})

describe('address form (spec §3)', () => {
  it('offers 29 European countries with dial codes', () => {
    const countries = countryOptions('fr-FR')
    expect(countries).toHaveLength(29)
    expect(new Set(countries.map((c) => c.code)).size).toBe(29)
    expect(countries.every((c) => /^\+\d{2,3}$/.test(c.dial))).toBe(true)
  })

  it('saves the address with the dial code in front of the phone, and reads it back', async () => {
    const reader = await newReader()
    expect((await read(await get(reader, '/api/v1/payment/address'))).data).toEqual({ address: null })
    const body = {
      name: 'Camille Martin',
      city: 'Lyon',
      zipCode: '69001',
      address1: '3 rue de la République',
      phone: '06 12 34 56 78',
      country: 'FR',
    }
    const saved = await read(await putAddress(reader, body))
    expect(saved.data.address).toEqual({
      name: 'Camille Martin',
      city: 'Lyon',
      zipCode: '69001',
      address1: '3 rue de la République',
      address2: null,
      phone: '+33612345678',
      country: 'FR',
    })
    expect((await read(await get(reader, '/api/v1/payment/address'))).data).toEqual(saved.data)
    const moved = await read(
      await putAddress(reader, { ...body, country: 'DE', phone: '+49 30 1234567', city: 'Berlin', zipCode: '10115' }),
    )
    expect(moved.data.address).toMatchObject({ phone: '+49301234567', country: 'DE', city: 'Berlin' })
  })

  it('refuses bad fields with INVALID_PARAMETER and keeps the saved address', async () => {
    const reader = await newReader()
    const good = { name: 'A', city: 'Wien', zipCode: '1010', address1: 'Ring 1', phone: '0664 1234567', country: 'AT' }
    await putAddress(reader, good)
    for (const bad of [
      { ...good, country: 'US' },
      { ...good, country: 'fr' },
      { ...good, name: '' },
      { ...good, zipCode: '<script>' },
      { ...good, phone: '+33 6 12 34 56 78' }, // another country's dial code
      { ...good, phone: 'call me' },
      { ...good, address1: 'x'.repeat(201) },
      {},
    ])
      await expectError(await putAddress(reader, bad), 400, 'INVALID_PARAMETER')
    expect((await read(await get(reader, '/api/v1/payment/address'))).data.address).toMatchObject({ country: 'AT', phone: '+436641234567' })
    await expectError(await putAddress({ headers: {} }, good), 401, 'NOT_LOGIN_USER')
  })

  it("keeps the address in the reader's object: one saved in D1 before moves in at the first call, and leaves D1", async () => {
    const reader = await newReader()
    await db.run(
      `INSERT INTO addresses (user_id, name, city, zip_code, address1, address2, phone, country, updated_at)
       VALUES (?, 'Jan', 'Gent', '9000', 'Veldstraat 1', NULL, '+3291234567', 'BE', '2026-11-01T10:00:00.000Z')`,
      reader.id,
    )
    const read1 = await get(reader, '/api/v1/payment/address')
    expect(read1.headers.get('x-reader-calls')).toBe('2') // the session check, the address
    expect((await read(read1)).data.address).toEqual({
      name: 'Jan',
      city: 'Gent',
      zipCode: '9000',
      address1: 'Veldstraat 1',
      address2: null,
      phone: '+3291234567',
      country: 'BE',
    })
    expect(await db.first(`SELECT count(*) AS n FROM addresses WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
    const saved = await putAddress(reader, {
      name: 'Jan',
      city: 'Brugge',
      zipCode: '8000',
      address1: 'Markt 1',
      phone: '050 123456',
      country: 'BE',
    })
    // no D1 at all: the session check and the save are the reader's object's
    expect([saved.headers.get('x-d1-queries'), saved.headers.get('x-reader-calls')]).toEqual([null, '2'])
    expect((await read(await get(reader, '/api/v1/payment/address'))).data.address).toMatchObject({ city: 'Brugge', phone: '+3250123456' })
    expect(await db.first(`SELECT count(*) AS n FROM addresses WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
  })
})
