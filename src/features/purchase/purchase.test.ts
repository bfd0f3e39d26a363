import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { planSpend, type CoinType, type Lot } from '../wallet/wallet.ts'
import { buyPrice, checkSale, planPurchase, rentalEnd, MAX_EPISODES_PER_PURCHASE, type SaleEpisode } from './purchase.ts'
import { holdingState, type EpisodeHolding as Holding } from '../ownership/holding.ts'
import { PurchaseRequest } from './purchase.schema.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const inHours = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString()
const ep = (id: number, over: Partial<SaleEpisode> = {}): SaleEpisode => ({
  id,
  seriesId: 1,
  isFree: false,
  priceRent: 2,
  priceBuy: 4,
  isAdult: false,
  ...over,
})
const adult = { isAdult: true }
const minor = { isAdult: false }

describe('PurchaseRequest (docs/API.md POST /purchase body)', () => {
  it('accepts ids and a kind, refuses empty, duplicate, oversized, fractional and negative lists', () => {
    expect(PurchaseRequest.safeParse({ episodeIds: [1, 2], kind: 'RENT' }).success).toBe(true)
    for (const bad of [
      { episodeIds: [], kind: 'RENT' },
      { episodeIds: [1, 1], kind: 'RENT' },
      { episodeIds: [1.5], kind: 'RENT' },
      { episodeIds: [-1], kind: 'POSSESSION' },
      { episodeIds: Array.from({ length: MAX_EPISODES_PER_PURCHASE + 1 }, (_, i) => i + 1), kind: 'RENT' },
      { episodeIds: [1], kind: 'PERMANENT' },
      { episodeIds: ['1'], kind: 'RENT' },
      { episodeIds: [1, 2], kind: 'RENT', auto: true },
      { episodeIds: [1], kind: 'RENT', auto: 'yes' },
    ])
      expect(PurchaseRequest.safeParse(bad).success).toBe(false)
    expect(PurchaseRequest.safeParse({ episodeIds: [1], kind: 'RENT', auto: true }).success).toBe(true)
  })
})

describe('checkSale (spec §4, §8 Purchase errors)', () => {
  it('prices each episode by the kind asked for', () => {
    const r = checkSale({ episodeIds: [2, 1], kind: 'RENT' }, [ep(1), ep(2, { priceRent: 3 })], [], minor, NOW)
    expect(r).toEqual({
      ok: true,
      items: [
        { episodeId: 2, seriesId: 1, price: 3, runningCount: 0 },
        { episodeId: 1, seriesId: 1, price: 2, runningCount: 0 },
      ],
      total: 5,
    })
    expect(checkSale({ episodeIds: [1], kind: 'POSSESSION' }, [ep(1)], [], minor, NOW)).toMatchObject({ ok: true, total: 4 })
  })

  it('answers each refusal with its code', () => {
    const code = (kind: 'RENT' | 'POSSESSION', e: SaleEpisode[], holdings: Holding[] = [], reader = adult) =>
      (checkSale({ episodeIds: [1], kind }, e, holdings, reader, NOW) as { code?: string }).code
    expect(code('RENT', [])).toBe('NOT_FOUND_EPISODE')
    expect(code('RENT', [ep(1, { isAdult: true })], [], minor)).toBe('ADULT_ONLY_CONTENTS')
    expect(code('RENT', [ep(1, { isAdult: true })], [], adult)).toBeUndefined()
    expect(code('RENT', [ep(1, { priceRent: null })])).toBe('UN_MATCHED_RENT_SALE_TYPE')
    expect(code('POSSESSION', [ep(1, { priceBuy: null })])).toBe('UN_MATCHED_POSSESSION_SALE_TYPE')
    expect(code('RENT', [ep(1, { isFree: true })])).toBe('UN_MATCHED_RENT_SALE_TYPE')
    expect(code('POSSESSION', [ep(1, { isFree: true })])).toBe('UN_MATCHED_POSSESSION_SALE_TYPE')
    for (const kind of ['POSSESSION', 'ALL_POSSESSION', 'PERMANENT']) {
      expect(code('POSSESSION', [ep(1)], [{ episodeId: 1, kind, expiresAt: null }])).toBe('EXIST_LIBRARY')
      expect(code('RENT', [ep(1)], [{ episodeId: 1, kind, expiresAt: null }])).toBe('EXIST_LIBRARY')
    }
    const running: Holding = { episodeId: 1, kind: 'RENT', expiresAt: inHours(1) }
    expect(code('RENT', [ep(1)], [running])).toBe('RENT_PURCHASE_IMPOSSIBLE')
    expect(code('POSSESSION', [ep(1)], [running])).toBeUndefined() // bought for good while it runs (issue 12 point 4)
    expect(code('RENT', [ep(1)], [{ episodeId: 1, kind: 'FREETIME', expiresAt: inHours(5) }])).toBe('RENT_PURCHASE_IMPOSSIBLE')
    // an ended rental no longer stands in the way
    expect(code('RENT', [ep(1)], [{ episodeId: 1, kind: 'RENT', expiresAt: inHours(-1) }])).toBeUndefined()
    expect(code('POSSESSION', [ep(1)], [{ episodeId: 1, kind: 'RENT', expiresAt: NOW.toISOString() }])).toBeUndefined()
    // holdings of other episodes do not matter
    expect(code('POSSESSION', [ep(1)], [{ episodeId: 9, kind: 'POSSESSION', expiresAt: null }])).toBeUndefined()
  })

  it('sells a running rental for good at the price less what the rental cost, never below 0 (issue 12 point 4)', () => {
    const rented = (paid: number, kind = 'RENT'): Holding => ({ episodeId: 1, kind, expiresAt: inHours(3), paid })
    const price = (h: Holding[], e = ep(1)) =>
      (checkSale({ episodeIds: [1], kind: 'POSSESSION' }, [e], h, minor, NOW) as { total?: number }).total
    expect(price([rented(2)])).toBe(2)
    expect(price([rented(0, 'FREETIME')])).toBe(4) // a wait-until-free unlock cost nothing
    expect(price([rented(0)])).toBe(4) // a rental from a gift ticket
    expect(price([rented(2)], ep(1, { priceBuy: 1 }))).toBe(0)
    expect(price([{ ...rented(2), expiresAt: inHours(-1) }])).toBe(4) // the rental ended: full price
    expect(checkSale({ episodeIds: [1], kind: 'POSSESSION' }, [ep(1)], [rented(2)], minor, NOW)).toMatchObject({
      items: [{ episodeId: 1, price: 2, runningCount: 1 }],
    })
    expect(buyPrice(4, holdingState([rented(2)], 1, NOW))).toBe(2)
    expect(buyPrice(4, null)).toBe(4)
  })

  it('does not depend on the order of the ids: a missing episode wins over an adult one', () => {
    const episodes = [ep(1, { isAdult: true })]
    expect(checkSale({ episodeIds: [1, 2], kind: 'RENT' }, episodes, [], minor, NOW)).toMatchObject({
      ok: false,
      code: 'NOT_FOUND_EPISODE',
      episodeId: 2,
    })
    expect(checkSale({ episodeIds: [2, 1], kind: 'RENT' }, episodes, [], minor, NOW)).toMatchObject({
      ok: false,
      code: 'NOT_FOUND_EPISODE',
      episodeId: 2,
    })
  })
})

describe('planPurchase (spec §4 spend order per episode)', () => {
  const lotArb = fc.record({
    type: fc.constantFrom<CoinType>('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE'),
    remaining: fc.integer({ min: 0, max: 30 }),
    expiresAt: fc.option(fc.integer({ min: -48, max: 2000 }).map(inHours), { nil: null }),
  })

  it('draws for all items together exactly what one spend of the total would', () => {
    fc.assert(
      fc.property(
        fc.array(lotArb, { maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 10 }),
        (raw, prices) => {
          const lots: Lot[] = raw.map((l, i) => ({ ...l, id: i + 1 }))
          const items = prices.map((price, i) => ({ episodeId: i + 1, seriesId: 1, price }))
          const total = prices.reduce((a, b) => a + b, 0)
          const plan = planPurchase(lots, items, NOW)
          const once = planSpend(lots, total, NOW)
          expect(plan === null).toBe(once === null)
          if (!plan || !once) return
          const merged = new Map<number, number>()
          for (const p of plan) for (const s of p.steps) merged.set(s.lotId, (merged.get(s.lotId) ?? 0) + s.take)
          expect(Object.fromEntries(merged)).toEqual(Object.fromEntries(once.map((s) => [s.lotId, s.take])))
          plan.forEach((p, i) => expect(p.steps.reduce((s, x) => s + x.take, 0)).toBe(prices[i]))
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('rentalEnd', () => {
  it('adds the edition’s rental hours', () => {
    expect(rentalEnd(NOW, 72)).toBe('2026-11-25T10:00:00.000Z')
  })
})
