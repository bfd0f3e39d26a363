import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { AdminAdjustRequest } from './wallet.schema.ts'
import { COIN_TYPES, SPEND_ORDER, balances, expiryInstant, planSpend, type CoinType, type Lot } from './wallet.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString()
const lot = (id: number, type: CoinType, remaining: number, expiresAt: string | null = null): Lot => ({ id, type, remaining, expiresAt })
/** Spec §4, independently of wallet.ts: a lot can no longer be spent once its expiry instant is reached. */
const isExpired = (l: Lot, now: Date) => l.expiresAt !== null && Date.parse(l.expiresAt) <= now.getTime()
/** Spec §4 spend order: by `order` of type, then earliest expiry (never-expiring last), then lowest id. */
const compareForSpend =
  (order: readonly CoinType[]) =>
  (a: Lot, b: Lot): number =>
    order.indexOf(a.type) - order.indexOf(b.type) ||
    (a.expiresAt === null ? Infinity : Date.parse(a.expiresAt)) - (b.expiresAt === null ? Infinity : Date.parse(b.expiresAt)) ||
    a.id - b.id

describe('planSpend (spec §4: bonus coins are spent before regular coins)', () => {
  it('draws bonus, then free coins, then paid coins', () => {
    const lots = [lot(1, 'COIN', 100), lot(2, 'FREE_COIN', 5, inDays(10)), lot(3, 'BONUS', 3, inDays(30))]
    expect(planSpend(lots, 10, NOW)).toEqual([
      { lotId: 3, take: 3 },
      { lotId: 2, take: 5 },
      { lotId: 1, take: 2 },
    ])
  })

  it('within a type takes the earliest expiry first and never-expiring lots last', () => {
    const lots = [lot(1, 'BONUS', 4), lot(2, 'BONUS', 4, inDays(30)), lot(3, 'BONUS', 4, inDays(2))]
    expect(planSpend(lots, 9, NOW)).toEqual([
      { lotId: 3, take: 4 },
      { lotId: 2, take: 4 },
      { lotId: 1, take: 1 },
    ])
  })

  it('skips expired and empty lots and never touches mileage', () => {
    const lots = [lot(1, 'BONUS', 50, inDays(-1)), lot(2, 'BONUS', 0, inDays(3)), lot(3, 'MILEAGE', 5000), lot(4, 'COIN', 2)]
    expect(planSpend(lots, 2, NOW)).toEqual([{ lotId: 4, take: 2 }])
    expect(planSpend(lots, 3, NOW)).toBeNull()
  })

  it('treats a lot expiring exactly now as expired', () => {
    expect(balances([lot(1, 'BONUS', 1, NOW.toISOString())], NOW)).toMatchObject({ BONUS: 0, total: 0, nextExpiries: [] })
    expect(planSpend([lot(1, 'BONUS', 1, NOW.toISOString())], 1, NOW)).toBeNull()
  })

  it('answers null when short, [] for nothing, and refuses a negative or fractional amount', () => {
    expect(planSpend([lot(1, 'COIN', 5)], 6, NOW)).toBeNull()
    expect(planSpend([], 1, NOW)).toBeNull()
    expect(planSpend([lot(1, 'COIN', 5)], 0, NOW)).toEqual([])
    expect(() => planSpend([], -1, NOW)).toThrow(RangeError)
    expect(() => planSpend([], 1.5, NOW)).toThrow(RangeError)
  })

  it('restricted to one type (operator deduction) draws only that type, mileage included', () => {
    const lots = [lot(1, 'BONUS', 10), lot(2, 'MILEAGE', 300, inDays(40)), lot(3, 'MILEAGE', 300, inDays(5))]
    expect(planSpend(lots, 400, NOW, ['MILEAGE'])).toEqual([
      { lotId: 3, take: 300 },
      { lotId: 2, take: 100 },
    ])
    expect(planSpend(lots, 11, NOW, ['BONUS'])).toBeNull()
  })

  it('does not mutate its input', () => {
    const lots = [lot(2, 'COIN', 5), lot(1, 'BONUS', 5)]
    const copy = structuredClone(lots)
    planSpend(lots, 7, NOW)
    expect(lots).toEqual(copy)
  })
})

describe('planSpend properties', () => {
  const arbLot = (id: number) =>
    fc
      .record({
        type: fc.constantFrom(...COIN_TYPES),
        remaining: fc.integer({ min: 0, max: 60 }),
        // a handful of distinct instants so ties happen; some in the past
        expiresAt: fc.option(fc.integer({ min: -3, max: 6 }).map(inDays), { nil: null }),
      })
      .map((l) => ({ id, ...l }) as Lot)
  const arbLots = fc.integer({ min: 0, max: 12 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbLot(i + 1))))

  it('takes sum to the amount, no lot goes below zero, spend order is respected (1,000 runs)', () => {
    fc.assert(
      fc.property(arbLots, fc.integer({ min: 0, max: 400 }), (lots, amount) => {
        const byId = new Map(lots.map((l) => [l.id, l]))
        const spendable = lots
          .filter((l) => (SPEND_ORDER as readonly string[]).includes(l.type) && !isExpired(l, NOW))
          .reduce((s, l) => s + l.remaining, 0)
        const plan = planSpend(lots, amount, NOW)
        if (amount > spendable) {
          expect(plan).toBeNull()
          return
        }
        expect(plan).not.toBeNull()
        const steps = plan!
        // takes sum to the amount
        expect(steps.reduce((s, x) => s + x.take, 0)).toBe(amount)
        const seen = new Set<number>()
        for (const step of steps) {
          const l = byId.get(step.lotId)!
          // each lot once, a positive take, never more than it holds, never expired or mileage
          expect(seen.has(step.lotId)).toBe(false)
          seen.add(step.lotId)
          expect(step.take).toBeGreaterThan(0)
          expect(l.remaining - step.take).toBeGreaterThanOrEqual(0)
          expect(isExpired(l, NOW)).toBe(false)
          expect(l.type).not.toBe('MILEAGE')
        }
        // order: consecutive steps never go backwards in (type, expiry, id), and every step but the last drains its lot
        const cmp = compareForSpend(SPEND_ORDER)
        for (let i = 1; i < steps.length; i++) {
          expect(cmp(byId.get(steps[i - 1]!.lotId)!, byId.get(steps[i]!.lotId)!)).toBeLessThan(0)
          expect(steps[i - 1]!.take).toBe(byId.get(steps[i - 1]!.lotId)!.remaining)
        }
        // no usable lot that sorts before the last one drawn was left untouched
        if (steps.length > 0) {
          const last = byId.get(steps[steps.length - 1]!.lotId)!
          for (const l of lots) {
            const usable = l.type !== 'MILEAGE' && l.remaining > 0 && !isExpired(l, NOW)
            if (usable && cmp(l, last) < 0) expect(seen.has(l.id)).toBe(true)
          }
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('balances: total equals the largest amount planSpend can serve', () => {
    fc.assert(
      fc.property(arbLots, (lots) => {
        const { total } = balances(lots, NOW)
        expect(planSpend(lots, total, NOW)).not.toBeNull()
        expect(planSpend(lots, total + 1, NOW)).toBeNull()
      }),
      { numRuns: 1000 },
    )
  })
})

describe('balances', () => {
  it('sums each type, leaves out expired lots and mileage from the spendable total, lists expiries soonest first', () => {
    const b = balances(
      [
        lot(1, 'COIN', 100),
        lot(2, 'BONUS', 15, inDays(30)),
        lot(3, 'BONUS', 3, inDays(30)),
        lot(4, 'FREE_COIN', 20, inDays(5)),
        lot(5, 'BONUS', 99, inDays(-1)),
        lot(6, 'MILEAGE', 3600, inDays(140)),
        lot(7, 'COIN', 0, inDays(1)),
      ],
      NOW,
    )
    expect(b).toMatchObject({ COIN: 100, BONUS: 18, FREE_COIN: 20, MILEAGE: 3600, total: 138 })
    expect(b.nextExpiries).toEqual([
      { type: 'FREE_COIN', amount: 20, expiresAt: inDays(5) },
      { type: 'BONUS', amount: 18, expiresAt: inDays(30) },
      { type: 'MILEAGE', amount: 3600, expiresAt: inDays(140) },
    ])
  })

  it('is all zeros for no lots', () => {
    expect(balances([], NOW)).toEqual({ COIN: 0, FREE_COIN: 0, BONUS: 0, MILEAGE: 0, total: 0, nextExpiries: [] })
  })
})

describe('operator adjustment request', () => {
  const ok = { email: 'reader@example.com', type: 'BONUS', amount: 5, reason: 'goodwill' }
  it('accepts grants and deductions within ±1,000,000', () => {
    expect(AdminAdjustRequest.safeParse(ok).success).toBe(true)
    expect(AdminAdjustRequest.safeParse({ ...ok, amount: -1_000_000 }).success).toBe(true)
    expect(AdminAdjustRequest.safeParse({ ...ok, expiresAt: '2027-01-31' }).success).toBe(true)
  })
  it('refuses 0, fractions, out-of-range amounts, empty or long reasons, unknown types, expiry on a deduction', () => {
    for (const bad of [
      { ...ok, amount: 0 },
      { ...ok, amount: 1.5 },
      { ...ok, amount: 1_000_001 },
      { ...ok, amount: '5' },
      { ...ok, reason: '   ' },
      { ...ok, reason: 'x'.repeat(201) },
      { ...ok, type: 'GOLD' },
      { ...ok, email: 'nope' },
      { ...ok, amount: -5, expiresAt: '2027-01-31' },
      { ...ok, expiresAt: '31/01/2027' },
    ]) {
      expect(AdminAdjustRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
  it('a bare expiry date lasts through the end of that day (UTC)', () => {
    expect(expiryInstant('2027-01-31')).toBe('2027-01-31T23:59:59.999Z')
    expect(expiryInstant('2027-01-31T12:00:00+02:00')).toBe('2027-01-31T10:00:00.000Z')
    expect(expiryInstant(undefined)).toBeNull()
    expect(() => expiryInstant('soon')).toThrow(RangeError)
  })
})
