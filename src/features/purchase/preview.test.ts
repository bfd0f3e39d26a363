import { describe, expect, it } from 'vitest'
import { mainAction, purchasePreview, type PreviewEpisode } from './preview.ts'
import { currentTicket } from '../freetime/freetime.ts'
import type { Lot } from '../wallet/wallet.ts'

const now = new Date('2026-11-22T12:00:00.000Z')
const eps: PreviewEpisode[] = Array.from({ length: 10 }, (_, i) => ({
  id: 100 + i,
  no: i + 1,
  isFree: i < 2,
  priceRent: 3,
  priceBuy: i === 9 ? null : 5,
}))
const lots: Lot[] = [
  { id: 1, type: 'COIN', remaining: 50, expiresAt: null },
  { id: 2, type: 'BONUS', remaining: 4, expiresAt: '2026-12-01T00:00:00.000Z' },
  { id: 3, type: 'FREE_COIN', remaining: 2, expiresAt: '2026-11-30T00:00:00.000Z' },
  { id: 4, type: 'BONUS', remaining: 9, expiresAt: '2026-11-01T00:00:00.000Z' }, // expired
  { id: 5, type: 'MILEAGE', remaining: 9000, expiresAt: null },
]

describe('purchasePreview', () => {
  it('prices one episode and the catch-up ("unlock N remaining"), with the coins drawn in spend order', () => {
    const p = purchasePreview(105, eps, [], lots, now)!
    expect(p.balance).toEqual({ total: 56, bonus: 4, freeCoin: 2, coin: 50 })
    expect(p.offers.RENT.single).toMatchObject({ coins: 3, uses: [{ type: 'BONUS', amount: 3 }], affordable: true })
    expect(p.offers.RENT.remaining).toMatchObject({ episodeIds: [105, 106, 107, 108, 109], coins: 15 })
    expect(p.offers.RENT.remaining!.uses).toEqual([
      { type: 'BONUS', amount: 4 },
      { type: 'FREE_COIN', amount: 2 },
      { type: 'COIN', amount: 9 },
    ])
    // episode 10 is not for sale: buying "remaining" stops short of it
    expect(p.offers.POSSESSION.remaining).toMatchObject({ episodeIds: [105, 106, 107, 108], coins: 20 })
  })

  it('leaves out what the reader holds and offers nothing for a free or held episode', () => {
    const holdings = [
      { episodeId: 106, kind: 'POSSESSION', expiresAt: null },
      { episodeId: 107, kind: 'RENT', expiresAt: '2026-11-23T00:00:00.000Z' },
      { episodeId: 108, kind: 'RENT', expiresAt: '2026-11-20T00:00:00.000Z' }, // ended
    ]
    const p = purchasePreview(105, eps, holdings, lots, now)!
    expect(p.offers.RENT.remaining!.episodeIds).toEqual([105, 108, 109])
    expect(purchasePreview(106, eps, holdings, lots, now)!.ownership).toEqual({ kind: 'POSSESSION', expiresAt: null })
    expect(purchasePreview(106, eps, holdings, lots, now)!.offers.RENT).toEqual({ single: null, remaining: null })
    expect(purchasePreview(101, eps, holdings, lots, now)!.offers.POSSESSION.single).toBeNull()
    expect(purchasePreview(999, eps, holdings, lots, now)).toBeNull()
  })

  it('offers a running rental for good at the price less what the rental cost (issue 12 point 4), not a second rental', () => {
    const holdings = [
      { episodeId: 105, kind: 'RENT', expiresAt: '2026-11-23T00:00:00.000Z', paid: 3 },
      { episodeId: 107, kind: 'RENT', expiresAt: '2026-11-23T00:00:00.000Z', paid: 3 },
      { episodeId: 108, kind: 'FREETIME', expiresAt: '2026-11-23T00:00:00.000Z', paid: 0 },
    ]
    const p = purchasePreview(105, eps, holdings, lots, now)!
    expect(p.ownership).toEqual({ kind: 'RENT', expiresAt: '2026-11-23T00:00:00.000Z' })
    expect(p.offers.RENT).toEqual({ single: null, remaining: null })
    expect(p.offers.POSSESSION.single).toMatchObject({ episodeIds: [105], coins: 2, credit: 3, affordable: true })
    // "all remaining" for good takes the later rentals and unlocks too, each less what it cost
    expect(p.offers.POSSESSION.remaining).toMatchObject({ episodeIds: [105, 106, 107, 108], coins: 2 + 5 + 2 + 5, credit: 6 })
    expect(purchasePreview(104, eps, holdings, lots, now)!.offers.RENT.remaining!.episodeIds).toEqual([104, 106, 109])
    // a wait-until-free unlock cost nothing: full price; an episode not held: no credit
    expect(purchasePreview(108, eps, holdings, lots, now)!.offers.POSSESSION.single).toMatchObject({ coins: 5, credit: 0 })
    expect(purchasePreview(106, eps, holdings, lots, now)!.offers.POSSESSION.single).toMatchObject({ coins: 5, credit: 0 })
  })

  it('says how much is missing when the balance is short', () => {
    const p = purchasePreview(103, eps, [], [{ id: 1, type: 'COIN', remaining: 7, expiresAt: null }], now)!
    expect(p.offers.POSSESSION.single).toMatchObject({ affordable: true, coins: 5 })
    expect(p.offers.POSSESSION.remaining).toMatchObject({ affordable: false, coins: 30, uses: [], shortBy: 23 })
  })

  it('shows the wait-until-free ticket', () => {
    const used = '2026-11-22T00:00:00.000Z'
    const p = purchasePreview(105, eps, [], lots, now, { hours: 24, ticket: currentTicket(24, used, now) })!
    expect(p.freetime).toEqual({ hours: 24, unlockHours: 72, available: false, nextTicketAt: '2026-11-23T00:00:00.000Z' })
    expect(purchasePreview(105, eps, [], lots, now, { hours: 24, ticket: currentTicket(24, null, now) })!.freetime!.available).toBe(true)
  })

  it('draws no coins when they do not suffice, every spendable one when they just do', () => {
    const priced = (priceBuy: number) => [{ id: 1, no: 1, isFree: false, priceRent: null, priceBuy }]
    expect(purchasePreview(1, priced(57), [], lots, now)!.offers.POSSESSION.single).toMatchObject({ affordable: false, uses: [] })
    const exact = purchasePreview(1, priced(56), [], lots, now)!.offers.POSSESSION.single!
    expect(exact.affordable).toBe(true)
    expect(exact.uses).toEqual([
      { type: 'BONUS', amount: 4 },
      { type: 'FREE_COIN', amount: 2 },
      { type: 'COIN', amount: 50 },
    ])
  })
})

describe('mainAction (the low-balance path)', () => {
  const short = { affordable: false, shortBy: 2 }
  const enough = { affordable: true, shortBy: 0 }
  it('a short balance makes "top up" (with the missing coins) the main action', () => {
    expect(mainAction(short, null)).toEqual({ main: 'TOP_UP', coins: 'TOP_UP', missing: 2 })
    expect(mainAction(short, { available: false })).toEqual({ main: 'TOP_UP', coins: 'TOP_UP', missing: 2 })
  })
  it('enough coins: paying is the main action', () => {
    expect(mainAction(enough, null)).toEqual({ main: 'PAY', coins: 'PAY', missing: 0 })
  })
  it('a ready wait-until-free ticket comes first, whatever the balance', () => {
    expect(mainAction(short, { available: true })).toEqual({ main: 'FREETIME', coins: 'TOP_UP', missing: 2 })
    expect(mainAction(enough, { available: true })).toEqual({ main: 'FREETIME', coins: 'PAY', missing: 0 })
    expect(mainAction(null, { available: true })).toEqual({ main: 'FREETIME', coins: null, missing: 0 })
  })
  it('from a real preview: 0 coins on a 3-coin rental', () => {
    const p = purchasePreview(105, eps, [], [], now)!
    expect(mainAction(p.offers.RENT.single, p.freetime)).toEqual({ main: 'TOP_UP', coins: 'TOP_UP', missing: 3 })
  })
})
