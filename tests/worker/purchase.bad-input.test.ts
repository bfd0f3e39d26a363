/**
 * docs/QUALITY.md "Bad input" for the wallet routes: generated bodies, idempotency keys and query strings never
 * get a 5xx; every error is a catalogue code with a message; nothing moves.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled } from './app.ts'
import { buy, expectInvariant, get, give, newReader, snapshot } from './purchase.helpers.ts'

const episodeIds = fc.oneof(
  fc.array(fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.constant(1), fc.constant(2 ** 60)), { maxLength: 5 }),
  fc.jsonValue(),
)
const body = fc.oneof(
  fc
    .record(
      {
        episodeIds,
        kind: fc.oneof(fc.constantFrom('RENT', 'POSSESSION', 'rent', 'PERMANENT', ''), fc.jsonValue()),
        auto: fc.oneof(fc.boolean(), fc.jsonValue()),
      },
      { requiredKeys: [] },
    )
    .map((b) => JSON.stringify(b)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
)
const key = fc.oneof(fc.uuid(), fc.string({ maxLength: 300 }), fc.constant(null), fc.constant('x'.repeat(256)))

describe('bad input on the wallet routes', () => {
  it('POST /purchase: 1,000 generated bodies and keys, no 5xx, nothing moves', async () => {
    const reader = await newReader()
    await give(reader.id, 'BONUS', 1, 3)
    const before = await snapshot(reader.id)
    await fc.assert(
      fc.asyncProperty(body, key, async (b, k) => {
        let res: Response
        try {
          res = await buy(reader, b, k)
        } catch (e) {
          // a header value the Fetch API itself refuses never reaches the worker
          expect(String(e)).toMatch(/header/i)
          return
        }
        await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    expect(await snapshot(reader.id)).toEqual(before)
    await expectInvariant(reader.id)
  }, 60_000)

  it('GET /coin/history: 1,000 generated query strings, no 5xx', async () => {
    const reader = await newReader()
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom('CHARGE', 'USE', 'MILEAGE', 'EXPIRE', ''), fc.string({ maxLength: 20 })),
        fc.option(fc.string({ maxLength: 150 })),
        async (kind, cursor) => {
          const qs = new URLSearchParams({ kind, ...(cursor === null ? {} : { cursor }) })
          await expectHandled(await get(reader, `/api/v1/coin/history?${qs}`))
        },
      ),
      { numRuns: 1000 },
    )
  }, 60_000)
})
