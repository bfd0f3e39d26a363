import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { balances, decodeHistoryCursor, encodeHistoryCursor, historySince, MAX_EXPIRING, type Lot } from './wallet.ts'
import { coinSummary, planExpiry } from '../../../tests/unit/wallet-model.ts'
import { HistoryQuery } from './wallet.schema.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString()

describe('GET /coin shape', () => {
  it('shows each type, the spendable total and the first expiries', () => {
    const lots: Lot[] = [
      { id: 1, type: 'COIN', remaining: 10, expiresAt: null },
      { id: 2, type: 'BONUS', remaining: 3, expiresAt: inDays(2) },
      { id: 3, type: 'MILEAGE', remaining: 3000, expiresAt: inDays(1) },
      ...Array.from({ length: 6 }, (_, i): Lot => ({ id: 10 + i, type: 'FREE_COIN', remaining: 1, expiresAt: inDays(10 + i) })),
    ]
    const s = coinSummary(balances(lots, NOW))
    expect(s).toMatchObject({ coin: 10, freeCoin: 6, bonus: 3, mileage: 3000, total: 19 })
    expect(s.expiring).toHaveLength(MAX_EXPIRING)
    expect(s.expiring[0]).toEqual({ type: 'MILEAGE', amount: 3000, expiresAt: inDays(1) })
    expect(s.expiring[1]).toEqual({ type: 'BONUS', amount: 3, expiresAt: inDays(2) })
  })
})

describe('planExpiry', () => {
  it('empties only lots past their expiry that still hold coins', () => {
    const lots: Lot[] = [
      { id: 1, type: 'BONUS', remaining: 4, expiresAt: inDays(-1) },
      { id: 2, type: 'BONUS', remaining: 0, expiresAt: inDays(-1) },
      { id: 3, type: 'COIN', remaining: 5, expiresAt: null },
      { id: 4, type: 'FREE_COIN', remaining: 2, expiresAt: inDays(1) },
      { id: 5, type: 'MILEAGE', remaining: 9, expiresAt: NOW.toISOString() },
    ]
    expect(planExpiry(lots, NOW)).toEqual([
      { lotId: 1, amount: 4 },
      { lotId: 5, amount: 9 },
    ])
  })
})

describe('history paging (spec §9 windows)', () => {
  it('round-trips cursors and refuses foreign ones', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        (d, id) => {
          const c = { createdAt: d.toISOString(), id }
          expect(decodeHistoryCursor(encodeHistoryCursor(c))).toEqual(c)
        },
      ),
    )
    for (const bad of ['', 'abc', '!!!', btoa('2026-01-01~x'), btoa('yesterday~1'), 'x'.repeat(101)])
      expect(decodeHistoryCursor(bad)).toBeNull()
  })

  it('keeps charge and use 90 days, mileage 180', () => {
    expect(historySince('CHARGE', NOW)).toBe(inDays(-90))
    expect(historySince('USE', NOW)).toBe(inDays(-90))
    expect(historySince('MILEAGE', NOW)).toBe(inDays(-180))
    expect(HistoryQuery.safeParse({ kind: 'EXPIRE' }).success).toBe(false)
  })
})
