import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { changeLimit, limitAt, NO_LIMIT, pastLimit, SpendingLimitBody, SpendingLimitForm, type LimitState } from './spending.ts'
import { DAY_MS as RAISE_DELAY_MS } from '../../lib/time.ts'

const now = new Date('2026-12-04T10:00:00.000Z')
const later = (ms: number) => new Date(now.getTime() + ms)
const limit = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null })
/** null (no limit) is above every number. */
const above = (a: number | null, b: number | null) => (a === null ? b !== null : b !== null && a > b)

describe('the spending limit rules', () => {
  it('a request never makes more spendable at once; what it asks for is in force after the delay, not before', () => {
    fc.assert(
      fc.property(limit, limit, limit, (start, first, wanted) => {
        const state: LimitState = changeLimit(start === null ? NO_LIMIT : { coins: start, nextCoins: null, nextAt: null }, first, now)
        const before = limitAt(state, now).coins
        const after = changeLimit(state, wanted, now)
        const inForce = limitAt(after, now).coins
        expect(above(inForce, before)).toBe(false)
        expect(limitAt(after, later(RAISE_DELAY_MS - 1)).coins).toBe(above(wanted, before) ? before : wanted)
        expect(limitAt(after, later(RAISE_DELAY_MS)).coins).toBe(wanted)
      }),
    )
  })

  it('a lowering drops a waiting raise; a new raise starts the wait again', () => {
    const raised = changeLimit({ coins: 10, nextCoins: null, nextAt: null }, 50, now)
    expect(raised).toEqual({ coins: 10, nextCoins: 50, nextAt: later(RAISE_DELAY_MS).toISOString() })
    expect(changeLimit(raised, 10, later(1000))).toEqual({ coins: 10, nextCoins: null, nextAt: null })
    expect(changeLimit(raised, 60, later(1000)).nextAt).toBe(later(RAISE_DELAY_MS + 1000).toISOString())
    // once its day passed, the raise is the limit a new request compares with
    expect(changeLimit(raised, 40, later(RAISE_DELAY_MS))).toEqual({ coins: 40, nextCoins: null, nextAt: null })
  })

  it('a sale passes the limit when what it costs goes beyond what is left; no limit never passes', () => {
    expect(pastLimit(10, 8, 2)).toBe(false)
    expect(pastLimit(10, 8, 3)).toBe(true)
    expect(pastLimit(0, 0, 1)).toBe(true)
    expect(pastLimit(null, 1e9, 1e9)).toBe(false)
  })

  it('reads the API body and the form: whole coins from 0 to 1,000,000, or none', () => {
    expect(SpendingLimitBody.parse({ coins: 0 })).toEqual({ coins: 0 })
    expect(SpendingLimitBody.parse({ coins: null })).toEqual({ coins: null })
    for (const bad of [{ coins: -1 }, { coins: 1.5 }, { coins: '5' }, {}, { coins: 5, more: 1 }, { coins: 1_000_001 }])
      expect(SpendingLimitBody.safeParse(bad).success).toBe(false)
    expect(SpendingLimitForm.parse({ coins: ' 120 ' })).toEqual({ coins: 120 })
    expect(SpendingLimitForm.parse({ coins: '' })).toEqual({ coins: null })
    for (const bad of ['-1', '1.5', '1e3', 'abc', '1000001', '٣']) expect(SpendingLimitForm.safeParse({ coins: bad }).success).toBe(false)
  })
})
