/**
 * docs/API.md Idempotency-Key on POST /api/v1/purchase, real workerd + D1: a replay answers the first response
 * and moves nothing, even after the wallet changed; the same key with another body is 409
 * IDEMPOTENCY_KEY_REUSED; duplicates in flight at the same time spend once; keys belong to one reader.
 */
import { describe, expect, it } from 'vitest'
import { buy, expectError, expectInvariant, give, newReader, newSeries, read, snapshot } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'

describe('Idempotency-Key', () => {
  it('a replay returns the first response, byte for byte, and moves nothing', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 20)
    const { episodeIds } = await newSeries({ episodes: 3 })
    const body = { episodeIds: [episodeIds[0]], kind: 'RENT' }
    const first = await buy(reader, body, 'key-replay')
    expect(first.status).toBe(200)
    const firstText = await first.text()
    const after = await snapshot(reader.id)

    await give(reader.id, 'BONUS', 5) // the wallet changes; the replay still shows the first answer
    const moved = await snapshot(reader.id)
    for (let i = 0; i < 3; i++) {
      // the same JSON written another way is the same body
      const again = await buy(reader, i === 0 ? body : `{ "kind": "RENT", "episodeIds": [${episodeIds[0]}] }`, 'key-replay')
      expect(again.status).toBe(200)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(JSON.parse(await again.text())).toEqual(JSON.parse(firstText))
    }
    expect(await snapshot(reader.id)).toEqual(moved)
    expect(moved.purchases).toEqual(after.purchases)
    expect(moved.ownerships).toEqual(after.ownerships)
    await expectInvariant(reader.id)
  })

  it('the same key with another body answers 409 IDEMPOTENCY_KEY_REUSED and moves nothing', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 20)
    const { episodeIds } = await newSeries({ episodes: 3 })
    expect((await buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' }, 'key-409')).status).toBe(200)
    const before = await snapshot(reader.id)
    await expectError(await buy(reader, { episodeIds: [episodeIds[1]], kind: 'RENT' }, 'key-409'), 409, 'IDEMPOTENCY_KEY_REUSED')
    await expectError(await buy(reader, { episodeIds: [episodeIds[0]], kind: 'POSSESSION' }, 'key-409'), 409, 'IDEMPOTENCY_KEY_REUSED')
    expect(await snapshot(reader.id)).toEqual(before)
  })

  it('a failed request stores nothing: the same key may be retried once the reader bought coins', async () => {
    const reader = await newReader()
    const { episodeIds } = await newSeries({ episodes: 1 })
    await expectError(await buy(reader, { episodeIds, kind: 'POSSESSION' }, 'key-retry'), 402, 'COIN_INSUFFICIENT')
    await give(reader.id, 'COIN', 4)
    expect((await buy(reader, { episodeIds, kind: 'POSSESSION' }, 'key-retry')).status).toBe(200)
    expect((await buy(reader, { episodeIds, kind: 'POSSESSION' }, 'key-retry')).headers.get('idempotent-replayed')).toBe('true')
    await expectInvariant(reader.id)
  })

  it('20 duplicates in flight at once spend once and all get the one stored answer', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 100)
    const { episodeIds } = await newSeries({ episodes: 2, priceBuy: 4 })
    const body = { episodeIds, kind: 'POSSESSION' }
    const responses = await Promise.all(Array.from({ length: 20 }, () => buy(reader, body, 'key-inflight')))
    const texts = await Promise.all(responses.map((r) => r.text()))
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200))
    expect(new Set(texts.map((t) => JSON.stringify(JSON.parse(t)))).size).toBe(1)
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM purchases WHERE user_id = ?`, reader.id)).toEqual({ n: 2 })
    const t = await expectInvariant(reader.id)
    expect(t.lots).toBe(92)
    // the same key with two other bodies in flight at once: one is sold, the other refused, one spend
    const more = await newSeries({ episodes: 2, priceRent: 2 })
    const mixed = await Promise.all(more.episodeIds.map((id) => buy(reader, { episodeIds: [id], kind: 'RENT' }, 'key-mixed')))
    const codes = await Promise.all(mixed.map(async (r) => `${r.status} ${(await read(r)).code ?? 'SUCCESS'}`))
    expect(codes.sort()).toEqual(['200 SUCCESS', '409 IDEMPOTENCY_KEY_REUSED'])
    expect((await expectInvariant(reader.id)).lots).toBe(90)
  })

  it('keys belong to one reader: another account may use the same key', async () => {
    const a = await newReader()
    const b = await newReader()
    await give(a.id, 'COIN', 10)
    await give(b.id, 'COIN', 10)
    const { episodeIds } = await newSeries({ episodes: 1 })
    const first = await read(await buy(a, { episodeIds, kind: 'RENT' }, 'shared-key'))
    const second = await buy(b, { episodeIds, kind: 'RENT' }, 'shared-key')
    expect(second.headers.get('idempotent-replayed')).toBeNull()
    const data = (await read(second)).data
    expect(data.coin.total).toBe(8)
    expect(first.data.coin.total).toBe(8)
    // each reader's rights are their own rows: one count per reader
    const owners = await Promise.all(
      [a, b].map((r) =>
        readerRows.first<{ n: number }>(
          r.id,
          `SELECT count(*) AS n FROM ownerships WHERE user_id = ? AND episode_id = ?`,
          r.id,
          episodeIds[0],
        ),
      ),
    )
    expect({ n: owners.reduce((s, o) => s + o!.n, 0) }).toEqual({ n: 2 })
  })
})
