import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { autoUnlockDecision, autoUnlockKey, currentSection, type AutoUnlockState } from './continuous.ts'
import { withinBudget } from '../purchase/budget.ts'

const on = (budget: number, spent: number, kind: 'RENT' | 'POSSESSION' = 'RENT'): AutoUnlockState => ({
  seriesId: 1,
  enabled: true,
  budget,
  kind,
  spent,
})

describe('autoUnlockDecision (spec §1 continuous reading with automatic coin deduction)', () => {
  it('asks when the reader has not opted in for the series', () => {
    expect(autoUnlockDecision(null, { priceRent: 2, priceBuy: 4 })).toEqual({ action: 'ask' })
    expect(
      autoUnlockDecision({ seriesId: 1, enabled: false, budget: null, kind: 'RENT', spent: 0 }, { priceRent: 2, priceBuy: 4 }),
    ).toEqual({ action: 'ask' })
  })

  it('buys the wanted way, else the only way the episode is sold', () => {
    expect(autoUnlockDecision(on(10, 0), { priceRent: 2, priceBuy: 4 })).toEqual({ action: 'buy', kind: 'RENT', price: 2 })
    expect(autoUnlockDecision(on(10, 0, 'POSSESSION'), { priceRent: 2, priceBuy: 4 })).toEqual({
      action: 'buy',
      kind: 'POSSESSION',
      price: 4,
    })
    expect(autoUnlockDecision(on(10, 0), { priceRent: null, priceBuy: 4 })).toEqual({ action: 'buy', kind: 'POSSESSION', price: 4 })
    expect(autoUnlockDecision(on(10, 0), { priceRent: null, priceBuy: null })).toEqual({ action: 'stop', reason: 'NOT_SOLD' })
  })

  it('stops exactly where the cap would be passed', () => {
    expect(autoUnlockDecision(on(10, 8), { priceRent: 2, priceBuy: 4 })).toEqual({ action: 'buy', kind: 'RENT', price: 2 })
    expect(autoUnlockDecision(on(10, 9), { priceRent: 2, priceBuy: 4 })).toEqual({ action: 'stop', reason: 'BUDGET' })
  })

  it('never lets the coins spent automatically pass the cap, whatever the prices', () => {
    const price = fc.option(fc.integer({ min: 0, max: 50 }), { nil: null })
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.record({ priceRent: price, priceBuy: price }), { maxLength: 30 }),
        (budget, episodes) => {
          let spent = 0
          for (const e of episodes) {
            const d = autoUnlockDecision(on(budget, spent), e)
            if (d.action === 'buy') spent += d.price
          }
          expect(spent).toBeLessThanOrEqual(budget)
        },
      ),
    )
  })
})

describe('withinBudget (the cap the server also checks in the purchase)', () => {
  it('lets a cost through only while what was spent stays within the budget', () => {
    expect(withinBudget({ budget: 10, spent: 8 }, 2)).toBe(true)
    expect(withinBudget({ budget: 10, spent: 8 }, 3)).toBe(false)
    expect(withinBudget({ budget: null, spent: 0 }, 0)).toBe(false)
  })
})

describe('autoUnlockKey', () => {
  it('is one key per reader and episode, the same on every attempt', () => {
    expect(autoUnlockKey(7, 42)).toBe('viewer-auto:7:42')
    expect(autoUnlockKey(7, 42)).toBe(autoUnlockKey(7, 42))
    expect(autoUnlockKey(7, 42)).not.toBe(autoUnlockKey(8, 42))
    expect(autoUnlockKey(7, 42)).not.toBe(autoUnlockKey(74, 2))
  })
})

describe('currentSection', () => {
  it('is the last episode whose top passed a third of the screen', () => {
    expect(currentSection([0], 900)).toBe(0)
    expect(currentSection([-2000, 500], 900)).toBe(0)
    expect(currentSection([-2000, 300], 900)).toBe(1)
    expect(currentSection([-4000, -1000, 250, 2000], 900)).toBe(2)
    expect(currentSection([100, 2000], 900)).toBe(0)
  })
})
