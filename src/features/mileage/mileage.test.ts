import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Lot } from '../wallet/wallet.ts'
import { MileageExchangeRequest, planExchange } from './mileage.ts'
import { exchangeCoins, proposedAmount } from './exchange.ts'

/** Coins exchanged for mileage expire after 30 days. */
const EXCHANGED_COIN_DAYS = 30

const NOW = new Date('2026-11-22T10:00:00.000Z')
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString()
const RATE = { mileagePerCoin: 200, mileageMinimum: 3000 }
const lot = (id: number, remaining: number, expiresAt: string | null, type: Lot['type'] = 'MILEAGE'): Lot => ({
  id,
  type,
  remaining,
  expiresAt,
})

describe('MileageExchangeRequest', () => {
  it('takes whole numbers only', () => {
    expect(MileageExchangeRequest.safeParse({ amount: 3000 }).success).toBe(true)
    for (const bad of [{}, { amount: '3000' }, { amount: 3000.5 }, { amount: null }, { amount: 1e12 }, { amount: Number.NaN }]) {
      expect(MileageExchangeRequest.safeParse(bad).success).toBe(false)
    }
  })
})

describe('planExchange (spec §5, §9)', () => {
  const lots = [lot(1, 1000, inDays(5)), lot(2, 3000, null), lot(3, 2000, inDays(2)), lot(4, 9999, inDays(-1)), lot(5, 500, null, 'COIN')]

  it('EXCHANGE_MILEAGE_INSUFFICIENT below the minimum or off the step', () => {
    for (const amount of [0, -3000, 2800, 3100, 3001])
      expect(planExchange(lots, amount, RATE, NOW)).toEqual({ ok: false, code: 'EXCHANGE_MILEAGE_INSUFFICIENT' })
  })
  it('MILEAGE_INSUFFICIENT beyond the unexpired mileage (expired and coin lots do not count)', () => {
    expect(planExchange(lots, 6200, RATE, NOW)).toEqual({ ok: false, code: 'MILEAGE_INSUFFICIENT' })
  })
  it('draws the earliest-expiring mileage first and gives amount / rate coins for 30 days', () => {
    const r = planExchange(lots, 3400, RATE, NOW)
    expect(r).toEqual({
      ok: true,
      plan: {
        steps: [
          { lotId: 3, take: 2000 },
          { lotId: 1, take: 1000 },
          { lotId: 2, take: 400 },
        ],
        coins: 17,
        expiresAt: inDays(EXCHANGED_COIN_DAYS),
      },
    })
  })
  it('follows the edition rate (the "20P per coin" reading)', () => {
    const r = planExchange(lots, 3020, { mileagePerCoin: 20, mileageMinimum: 3000 }, NOW)
    expect(r.ok && r.plan.coins).toBe(151)
  })
  it('a plan always takes exactly the amount and coins × rate = amount', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 6 }), fc.integer({ min: 0, max: 200 }), (rems, k) => {
        const ls = rems.map((r, i) => lot(i + 1, r, i % 2 ? null : inDays(i + 1)))
        const r = planExchange(ls, k * 200, RATE, NOW)
        if (!r.ok) return
        expect(r.plan.steps.reduce((s, x) => s + x.take, 0)).toBe(k * 200)
        expect(r.plan.coins * 200).toBe(k * 200)
      }),
    )
  })
})

describe('exchangeCoins and proposedAmount (the popup preview)', () => {
  it('gives amount / rate coins for an exchangeable amount, null otherwise', () => {
    expect(exchangeCoins(3000, RATE)).toBe(15)
    expect(exchangeCoins(3600, RATE)).toBe(18)
    for (const amount of [0, 2800, 3100, 3001, 3000.5, Number.NaN, -3000]) expect(exchangeCoins(amount, RATE)).toBeNull()
  })
  it('proposes the most a balance can exchange, else the minimum', () => {
    expect(proposedAmount(3600, RATE)).toBe(3600)
    expect(proposedAmount(3799, RATE)).toBe(3600)
    expect(proposedAmount(1200, RATE)).toBe(3000)
    expect(proposedAmount(0, RATE)).toBe(3000)
  })
  it('a proposed amount within the balance is always exchangeable', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (mileage) => {
        const amount = proposedAmount(mileage, RATE)
        if (amount <= mileage) expect(exchangeCoins(amount, RATE)).toBe(amount / 200)
        else expect(mileage).toBeLessThan(RATE.mileageMinimum)
      }),
    )
  })
})
