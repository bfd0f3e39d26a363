/**
 * docs/QUALITY.md "Reliability": 200 simultaneous purchases (distinct idempotency keys, distinct episodes) against
 * a balance that affords only some of them, on real workerd + D1. Exactly the affordable number succeed, the
 * others answer COIN_INSUFFICIENT; no lot below zero; Σ lots remaining = Σ ledger = balance shown.
 */
import { describe, expect, it } from 'vitest'
import { buy, expectInvariant, get, give, newReader, newSeries, read } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'

describe('200 concurrent purchases', () => {
  it('sell exactly what the balance affords, nothing more', async () => {
    const reader = await newReader()
    // 31 + 50 + 70 = 151 coins: 50 rentals at 3 coins, 1 coin left; lot edges fall inside purchases
    await give(reader.id, 'BONUS', 31, 5)
    await give(reader.id, 'FREE_COIN', 50, 10)
    await give(reader.id, 'COIN', 70)
    const { episodeIds } = await newSeries({ episodes: 200, priceRent: 3 })

    const responses = await Promise.all(episodeIds.map((id) => buy(reader, { episodeIds: [id], kind: 'RENT' })))
    const bodies = await Promise.all(responses.map(read))
    const statuses = responses.map((r, i) => `${r.status} ${bodies[i]!.code ?? 'SUCCESS'}`)
    const count = (s: string) => statuses.filter((x) => x === s).length
    expect(count('200 SUCCESS')).toBe(50)
    expect(count('402 COIN_INSUFFICIENT')).toBe(150)

    const t = await expectInvariant(reader.id)
    expect(t.lots).toBe(1)
    expect((await read(await get(reader, '/api/v1/coin'))).data).toMatchObject({ total: 1, coin: 1, bonus: 0, freeCoin: 0 })
    const sold = episodeIds.filter((_, i) => responses[i]!.status === 200).sort((a, b) => a - b)
    const owned = (
      await readerRows.all<{ episode_id: number }>(
        reader.id,
        `SELECT episode_id FROM ownerships WHERE user_id = ? ORDER BY episode_id`,
        reader.id,
      )
    ).map((r) => r.episode_id)
    expect(owned).toEqual(sold)
    expect(
      await readerRows.first(reader.id, `SELECT count(*) AS n, sum(coins) AS coins FROM purchases WHERE user_id = ?`, reader.id),
    ).toEqual({
      n: 50,
      coins: 150,
    })
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM idempotency_keys WHERE user_id = ?`, reader.id)).toEqual({ n: 50 })
    // every sold episode was paid in full by its own USE rows
    const paid = await readerRows.all<{ episode_id: number; total: number }>(
      reader.id,
      `SELECT episode_id, -sum(amount) AS total FROM coin_ledger WHERE user_id = ? AND kind = 'USE' GROUP BY episode_id`,
      reader.id,
    )
    expect(paid).toHaveLength(50)
    expect(paid.every((p) => p.total === 3)).toBe(true)
  }, 30_000) // a few seconds alone; room for a loaded machine
})
