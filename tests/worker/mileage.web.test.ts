/**
 * POST /api/v1/payment/web/mileage, the point exchange popup's plain form (issue 12 point 1; works without JavaScript):
 * the same exchange as the JSON route, once per rendered key, back to the page it came from; refusals come back to
 * the popup with a catalogue code and the amount kept; guests, other origins, other readers and 1,000 bad forms
 * change nothing.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { request } from './app.ts'
import { app, expectInvariant, give, newReader, type Reader } from './purchase.helpers.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { readerRows } from './reader-rows.ts'

function post(reader: Pick<Reader, 'headers'> | null, body: string, headers: Record<string, string> = {}) {
  return request(app, '/api/v1/payment/web/mileage', {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...(reader?.headers ?? {}), ...headers },
    body,
  })
}
const form = (amount: string | number, key: string, page = '/my') => new URLSearchParams({ amount: String(amount), key, page }).toString()

/** What an exchange would change for the reader: lots, ledger rows, stored answers and the mileage left. */
async function wallet(userId: number) {
  return readerRows.first<{ lots: number; ledger: number; keys: number; mileage: number; free: number }>(
    userId,
    `SELECT (SELECT count(*) FROM coin_lots WHERE user_id = ?1) AS lots, (SELECT count(*) FROM coin_ledger WHERE user_id = ?1) AS ledger,
            (SELECT count(*) FROM idempotency_keys WHERE user_id = ?1) AS keys,
            (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1 AND type = 'MILEAGE') AS mileage,
            (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1 AND type = 'FREE_COIN') AS free`,
    userId,
  )
}

describe('POST /api/v1/payment/web/mileage (the exchange popup without JavaScript)', () => {
  it('exchanges and goes back to its page with the coins received; the same form sent again lands there without a second exchange', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 7000)
    const res = await post(reader, form(3600, 'popup-1'))
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/my?exchanged=18#exchange-done')
    expect(await wallet(reader.id)).toMatchObject({ mileage: 3400, free: 18, keys: 1 })
    const again = await post(reader, form(3600, 'popup-1'))
    expect(again.headers.get('location')).toBe('/my?exchanged=18#exchange-done')
    expect(await wallet(reader.id)).toMatchObject({ mileage: 3400, free: 18, keys: 1 })
    const fromHistory = await post(reader, form(3000, 'popup-2', '/history/mileage'))
    expect(fromHistory.headers.get('location')).toBe('/history/mileage?exchanged=15#exchange-done')
    expect(await wallet(reader.id)).toMatchObject({ mileage: 400, free: 33, keys: 2 })
    await expectInvariant(reader.id)
  })

  it('an amount under the minimum, off the step or beyond the balance comes back to the popup with its code and the amount; nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 3600)
    const before = await wallet(reader.id)
    for (const [amount, code] of [
      [2000, 'EXCHANGE_MILEAGE_INSUFFICIENT'],
      [3100, 'EXCHANGE_MILEAGE_INSUFFICIENT'],
      [4000, 'MILEAGE_INSUFFICIENT'],
      ['abc', 'INVALID_PARAMETER'],
      ['', 'INVALID_PARAMETER'],
    ] as const) {
      const res = await post(reader, form(amount, `refused-${amount}`, '/history/mileage'))
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe(`/history/mileage?error=${code}#mileage-exchange`)
      const flash = res.headers.getSetCookie().find((c) => c.startsWith('form-flash='))!
      expect(flash).toContain('Path=/history/mileage')
      expect(JSON.parse(decodeURIComponent(flash.split(';')[0]!.slice('form-flash='.length)))).toMatchObject({
        code,
        field: 'amount',
        ...(amount === '' ? {} : { values: { amount: String(amount) } }),
      })
    }
    expect(await wallet(reader.id)).toEqual(before)
  })

  it('a guest goes to the login route and back to the page; another site cannot post it; a missing key changes nothing', async () => {
    const guest = await post(null, form(3000, 'guest', '/history/mileage'))
    expect(guest.status).toBe(303)
    expect(guest.headers.get('location')).toBe(`/user/login?callback=${encodeURIComponent('/history/mileage')}`)
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 5000)
    const before = await wallet(reader.id)
    const foreign = await post(reader, form(3000, 'evil'), { origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(((await foreign.json()) as { code: string }).code).toBe('FORBIDDEN_ORIGIN')
    const keyless = await post(reader, 'amount=3000&page=%2Fmy')
    expect(keyless.headers.get('location')).toBe('/my?error=INVALID_PARAMETER#mileage-exchange')
    expect(await wallet(reader.id)).toEqual(before)
  })

  it("another reader's form key exchanges only that reader's own points, never replays or touches the first reader's", async () => {
    const owner = await newReader()
    const other = await newReader()
    await give(owner.id, 'MILEAGE', 6000)
    expect((await post(owner, form(3000, 'shared-key'))).headers.get('location')).toBe('/my?exchanged=15#exchange-done')
    const ownerAfter = await wallet(owner.id)
    const res = await post(other, form(3000, 'shared-key'))
    expect(res.headers.get('location')).toBe('/my?error=MILEAGE_INSUFFICIENT#mileage-exchange')
    expect(await wallet(owner.id)).toEqual(ownerAfter)
    expect(await wallet(other.id)).toMatchObject({ lots: 0, ledger: 0, keys: 0 })
  })

  it('40 concurrent posts of one rendered form exchange once; 40 forms against points for 3 exchange exactly 3 times', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 9000)
    const same = await Promise.all(Array.from({ length: 40 }, () => post(reader, form(3000, 'double-click'))))
    expect(new Set(same.map((r) => `${r.status} ${r.headers.get('location')}`))).toEqual(new Set(['303 /my?exchanged=15#exchange-done']))
    expect(await wallet(reader.id)).toMatchObject({ mileage: 6000, free: 15, keys: 1 })

    const many = await Promise.all(Array.from({ length: 40 }, (_, i) => post(reader, form(3000, `race-${i}`))))
    const places = many.map((r) => r.headers.get('location'))
    expect(places.filter((l) => l === '/my?exchanged=15#exchange-done')).toHaveLength(2)
    expect(places.filter((l) => l === '/my?error=MILEAGE_INSUFFICIENT#mileage-exchange')).toHaveLength(38)
    expect(await wallet(reader.id)).toMatchObject({ mileage: 0, free: 45, keys: 3 })
    await expectInvariant(reader.id)
  }, 60_000)

  it('1,000 generated forms: never a 5xx, every refusal a catalogue code, nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'MILEAGE', 2800)
    const before = await wallet(reader.id)
    const field = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer().map(String),
      fc.constantFrom('', '3000', '2800', '1e4', '-3000', '3000.5', '/my', '/history/mileage', '//evil.example', 'x'.repeat(300)),
    )
    const body = fc.oneof(
      fc.record({ amount: field, key: field, page: field }, { requiredKeys: [] }).map((r) => new URLSearchParams(r).toString()),
      fc.string({ maxLength: 200 }),
    )
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'), async (b, type) => {
        const res = await post(reader, b, { 'content-type': type })
        expect(res.status).toBeLessThan(500)
        await res.body?.cancel()
        if (res.status !== 303) return
        const location = new URL(res.headers.get('location')!, 'http://localhost')
        expect(['/my', '/history/mileage']).toContain(location.pathname)
        const code = location.searchParams.get('error')
        expect(code !== null && isErrorCode(code), location.href).toBe(true)
      }),
      { numRuns: 1000 },
    )
    expect(await wallet(reader.id)).toEqual(before)
  }, 120_000)
})
