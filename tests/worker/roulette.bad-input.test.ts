/**
 * docs/QUALITY.md "Bad input" for the roulette and library shelf routes: 1,000 generated bodies, keys and queries,
 * never a 5xx, every error a catalogue code with a message, and nothing moves for the reader.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled, request } from './app.ts'
import { app, db, expectInvariant, give, newReader, snapshot, send } from './purchase.helpers.ts'
import { newRoulette, rouletteSnapshot } from './roulette.helpers.ts'

const scalar = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 30 }),
  fc.constant(null),
  fc.constant(1),
  fc.constant(2 ** 60),
  fc.boolean(),
)
const key = fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant(null), fc.constant('x'.repeat(256)))

describe('bad input on the roulette and shelf routes (1,000 runs each)', () => {
  it('POST /roulette/spin: no 5xx, no ticket used, no coin moved', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 5)
    const eventId = await newRoulette()
    const before = [await snapshot(reader.id), await rouletteSnapshot(reader.id)]
    const body = fc.oneof(
      fc.record({ eventId: fc.oneof(scalar, fc.constant(eventId)), extra: scalar }, { requiredKeys: [] }).map((b) => JSON.stringify(b)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
    )
    await fc.assert(
      fc.asyncProperty(body, key, async (b, k) => {
        const res = await send(reader, 'POST', '/api/v1/roulette/spin', b, k)
        if (res) await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    expect([await snapshot(reader.id), await rouletteSnapshot(reader.id)]).toEqual(before)
    await expectInvariant(reader.id)
  }, 120_000)

  it('POST /roulette/web/spin (the plain form): 1,000 generated forms, no 5xx, nothing moves', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    const before = [await snapshot(reader.id), await rouletteSnapshot(reader.id)]
    const field = fc.oneof(fc.string({ maxLength: 40 }), fc.constant(String(eventId)), fc.constant(''), fc.constant('x'.repeat(300)))
    const form = fc.oneof(
      fc
        .record({ eventId: field, key: field }, { requiredKeys: [] })
        .map((r) => new URLSearchParams(r as Record<string, string>).toString()),
      fc.string({ maxLength: 200 }),
    )
    await fc.assert(
      fc.asyncProperty(
        form,
        fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'),
        async (body, type) => {
          const res = await request(app, '/api/v1/roulette/web/spin', {
            method: 'POST',
            headers: { origin: 'http://localhost', 'content-type': type, ...reader.headers },
            body,
          })
          expect(res.status).toBeLessThan(500)
          await res.body?.cancel()
        },
      ),
      { numRuns: 1000 },
    )
    expect([await snapshot(reader.id), await rouletteSnapshot(reader.id)]).toEqual(before)
  }, 120_000)

  it('GET /roulette, /library/my, /library/favorite: 1,000 generated query strings, no 5xx', async () => {
    const reader = await newReader()
    await db.run(`INSERT INTO favorites (user_id, series_id) SELECT ?, id FROM series LIMIT 1`, reader.id)
    const path = fc.constantFrom('/api/v1/roulette', '/api/v1/library/my', '/api/v1/library/favorite')
    const query = fc.oneof(
      fc.string({ maxLength: 60 }).map((s) => `cursor=${encodeURIComponent(s)}`),
      fc.string({ maxLength: 60 }).map((s) => `eventId=${encodeURIComponent(s)}`),
      fc.base64String({ maxLength: 80 }).map((s) => `cursor=${s.replace(/=+$/, '')}`),
      fc.jsonValue().map((v) => `cursor=${btoa(unescape(encodeURIComponent(JSON.stringify(v)))).replace(/=+$/, '')}`),
      fc.string({ maxLength: 60 }),
    )
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        const res = await send(reader, 'GET', `${p}?${q}`)
        if (res) await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
  }, 120_000)
})
