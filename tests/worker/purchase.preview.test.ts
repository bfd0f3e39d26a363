/**
 * GET /api/v1/purchase/preview (issue 4 §3): the rent-or-buy choice shows the price, the cost to catch up
 * ("unlock N remaining: X coins") and which coins pay, exactly as the purchase then draws them.
 */
import { describe, expect, it } from 'vitest'
import { buy, db, expectError, get, give, newReader, newSeries, read } from './purchase.helpers.ts'

const preview = (reader: Parameters<typeof get>[0], id: number | string) => get(reader, `/api/v1/purchase/preview?episodeId=${id}`)

describe('GET /api/v1/purchase/preview', () => {
  it('shows single and "unlock all remaining" offers with the coins each draws, and the purchase draws exactly those', async () => {
    const reader = await newReader()
    await give(reader.id, 'BONUS', 5, 5)
    await give(reader.id, 'FREE_COIN', 4, 10)
    await give(reader.id, 'COIN', 100)
    const { episodeIds } = await newSeries({ episodes: 20, priceRent: 3, priceBuy: 5, free: 2 })
    const e5 = episodeIds[4]!
    // episode 8 is already rented: it drops out of "remaining"
    expect((await buy(reader, { episodeIds: [episodeIds[7]!], kind: 'RENT' })).status).toBe(200)

    const body = await read(await preview(reader, e5))
    expect(body.result).toBe('SUCCESS')
    const p = body.data
    expect(p).toMatchObject({ episodeId: e5, no: 5, free: false, price: { rent: 3, buy: 5 }, ownership: null, freetime: null })
    expect(p.balance).toEqual({ total: 106, bonus: 2, freeCoin: 4, coin: 100 })
    expect(p.offers.RENT.single).toEqual({
      kind: 'RENT',
      scope: 'SINGLE',
      episodeIds: [e5],
      coins: 3,
      credit: 0,
      uses: [
        { type: 'BONUS', amount: 2 },
        { type: 'FREE_COIN', amount: 1 },
      ],
      affordable: true,
      shortBy: 0,
    })
    // episodes 5..20 minus the rented 8: 15 episodes
    const remaining = p.offers.RENT.remaining
    expect(remaining.episodeIds).toHaveLength(15)
    expect(remaining.episodeIds).not.toContain(episodeIds[7])
    expect(remaining.coins).toBe(45)
    expect(remaining.uses).toEqual([
      { type: 'BONUS', amount: 2 },
      { type: 'FREE_COIN', amount: 4 },
      { type: 'COIN', amount: 39 },
    ])
    // for good: the 15 at 5 coins, and the rented 8 at 5 less its rental's 3 (issue 12 point 4)
    expect(p.offers.POSSESSION.remaining).toMatchObject({ coins: 75 + 2, credit: 3 })

    const before = await read(await get(reader, '/api/v1/coin'))
    const bought = await read(await buy(reader, { episodeIds: remaining.episodeIds, kind: 'RENT' }))
    expect(bought.result).toBe('SUCCESS')
    expect(before.data.bonus - bought.data.coin.bonus).toBe(2)
    expect(before.data.freeCoin - bought.data.coin.freeCoin).toBe(4)
    expect(before.data.coin - bought.data.coin.coin).toBe(39)

    const after = (await read(await preview(reader, e5))).data
    expect(after.ownership).toMatchObject({ kind: 'RENT' })
    expect(after.offers.RENT.single).toBeNull()
    // a running rental is not rented again (spec §4) but may be bought for good, less the rental (issue 12 point 4)
    expect(after.offers.POSSESSION.single).toMatchObject({ coins: 2, credit: 3 })
  })

  it('says how many coins are missing when the balance is short', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 4)
    const { episodeIds } = await newSeries({ episodes: 3, priceRent: 3, priceBuy: 5 })
    const p = (await read(await preview(reader, episodeIds[0]!))).data
    expect(p.offers.RENT.single).toMatchObject({ affordable: true, coins: 3, uses: [{ type: 'COIN', amount: 3 }] })
    expect(p.offers.POSSESSION.single).toMatchObject({ affordable: false, coins: 5, uses: [], shortBy: 1 })
    expect(p.offers.RENT.remaining).toMatchObject({ affordable: false, coins: 9, shortBy: 5 })
  })

  it('refuses guests, unknown episodes, bad ids and adult series for minors', async () => {
    const reader = await newReader()
    const minor = await newReader({ adult: false })
    const adult = await newSeries({ episodes: 2, adult: true })
    await expectError(await preview(null, adult.episodeIds[0]!), 401, 'NOT_LOGIN_USER')
    await expectError(await preview(reader, 999_999_999), 404, 'NOT_FOUND_EPISODE')
    for (const bad of ['0', '-1', '1.5', 'abc', '', '9'.repeat(20)]) await expectError(await preview(reader, bad), 400, 'INVALID_PARAMETER')
    await expectError(await preview(minor, adult.episodeIds[0]!), 403, 'ADULT_ONLY_CONTENTS')
    expect((await preview(reader, adult.episodeIds[0]!)).status).toBe(200)
  })

  it('shows the wait-until-free ticket of the series', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 3 })
    await db.run(`UPDATE series SET wuf_hours = 24 WHERE id = ?`, seriesId)
    const p = (await read(await preview(reader, episodeIds[1]!))).data
    expect(p.freetime).toEqual({ hours: 24, unlockHours: 72, available: true, nextTicketAt: null })
  })
})
