/**
 * docs/QUALITY.md "Bad input" for the routes of issue 4 added here (preview, wait-until-free, gift box, refund, coupon
 * download, address): ≥ 1,000 generated bodies, keys and paths per route, never a 5xx, every error a catalogue
 * code with a message, and nothing moves for the reader.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled } from './app.ts'
import { db, expectInvariant, get, give, newReader, newSeries, snapshot, send } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'

const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 30 }),
  fc.constant(null),
  fc.constant(1),
  fc.constant(2 ** 60),
  fc.boolean(),
)
const jsonBody = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    fc.record(fields, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
  )
const key = fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant(null), fc.constant('x'.repeat(256)))
const segment = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constantFrom('0', '-1', '1.5', '99999999999999999999', '%00', '..'))

describe('bad input on the issue 4 routes (1,000 runs each)', () => {
  it('POST /purchase/freetime, POST /gift/{id}/use, POST /payment/refund, POST /coupon/download/{id}, PUT /payment/address: no 5xx, nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 5)
    const { seriesId } = await newSeries({ episodes: 2 })
    await db.run(`UPDATE series SET wuf_hours = 24 WHERE id = ?`, seriesId)
    const before = await snapshot(reader.id)
    const routes = fc.oneof(
      fc.tuple(jsonBody({ episodeId: scalar }), key).map(([b, k]) => ['POST', '/api/v1/purchase/freetime', b, k] as const),
      fc
        .tuple(segment, jsonBody({ episodeId: scalar }), key)
        .map(([id, b, k]) => ['POST', `/api/v1/gift/${encodeURIComponent(String(id))}/use`, b, k] as const),
      fc
        .tuple(jsonBody({ paymentId: fc.oneof(scalar, fc.constant('pay_x'), fc.constant(`pay_${'a'.repeat(70)}`)) }), key)
        .map(([b, k]) => ['POST', '/api/v1/payment/refund', b, k] as const),
      segment.map((id) => ['POST', `/api/v1/coupon/download/${encodeURIComponent(String(id))}`, undefined, null] as const),
      jsonBody({
        name: scalar,
        city: scalar,
        zipCode: scalar,
        address1: scalar,
        phone: scalar,
        country: fc.oneof(scalar, fc.constantFrom('FR', 'US', 'fr')),
      }).map((b) => ['PUT', '/api/v1/payment/address', b, null] as const),
    )
    await fc.assert(
      fc.asyncProperty(routes, async ([method, path, body, k]) => {
        const res = await send(reader, method, path, body, k)
        if (res) await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    // no coin moved (a generated id may hit a real wait-until-free episode: that unlock is a valid request)
    const after = await snapshot(reader.id)
    expect({ lots: after.lots, ledger: after.ledger }).toEqual({ lots: before.lots, ledger: before.ledger })
    expect(
      await readerRows.first(reader.id, `SELECT count(*) AS n FROM purchases WHERE user_id = ? AND type <> 'FREETIME'`, reader.id),
    ).toEqual({ n: 0 })
    await expectInvariant(reader.id)
  }, 120_000)

  it('GET /purchase/preview: 1,000 generated query strings, no 5xx', async () => {
    const reader = await newReader()
    await fc.assert(
      fc.asyncProperty(fc.oneof(segment.map(String), fc.string({ maxLength: 40 })), async (id) => {
        const res = await get(reader, `/api/v1/purchase/preview?episodeId=${encodeURIComponent(id)}`)
        await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
  }, 60_000)
})
