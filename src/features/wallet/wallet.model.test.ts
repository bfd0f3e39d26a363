/**
 * Model-based property test of the wallet rules (docs/QUALITY.md "Reliability": fast-check, ≥ 1,000 runs, over
 * grant/spend/expire/refund/exchange). The system under test is a wallet driven only by the real rules
 * (`planPurchase`/`planSpend` for spends and exchanges, `planExpiry` for the sweep, `balances` for what is
 * shown) keeping lots and an append-only ledger; the model is a naive reference that drains live lots
 * sorted by hand. After every command: no lot below zero or above its amount, Σ remaining = Σ ledger
 * (ledger replay = balance), the balance shown = the model's, every lot equal to the model's lot.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { balances, planSpend, type CoinType, type LedgerKind, type Lot } from './wallet.ts'
import { planExpiry } from '../../../tests/unit/wallet-model.ts'
import { planPurchase } from '../purchase/purchase.ts'
import { planRefund, REFUND_DAYS } from '../payment/payment.ts'

const HOUR = 3_600_000
const START = Date.parse('2026-11-22T10:00:00.000Z')
/** Exchange (spec §5/§9): units of 200 mileage, 1 coin per unit, exchanged coins last 30 days. */
const MILEAGE_UNIT = 200
const EXCHANGED_COIN_HOURS = 30 * 24

type SysLot = Lot & { amount: number }
type Real = {
  now: number
  lots: SysLot[]
  ledger: { lotId: number; kind: LedgerKind; amount: number }[]
  purchases: { steps: { lotId: number; take: number }[] }[]
  grantedAt: Map<number, number>
  refunded: Set<number>
}
type ModelLot = { id: number; type: CoinType; amount: number; remaining: number; expiresAt: number | null }
type Model = { now: number; lots: ModelLot[]; purchases: { takes: Map<number, number> }[] }

const iso = (ms: number) => new Date(ms).toISOString()
const live = (l: ModelLot, now: number) => l.remaining > 0 && (l.expiresAt === null || l.expiresAt > now)
const RANK: Record<CoinType, number> = { BONUS: 0, FREE_COIN: 1, COIN: 2, MILEAGE: 3 }

/** The reference drain: live lots of `types`, by type rank, then expiry (never last), then id. */
function modelDrain(m: Model, amount: number, types: CoinType[]): Map<number, number> | null {
  const usable = m.lots
    .filter((l) => types.includes(l.type) && live(l, m.now))
    .sort((a, b) => RANK[a.type] - RANK[b.type] || (a.expiresAt ?? Infinity) - (b.expiresAt ?? Infinity) || a.id - b.id)
  if (usable.reduce((s, l) => s + l.remaining, 0) < amount) return null
  const takes = new Map<number, number>()
  let left = amount
  for (const l of usable) {
    if (left === 0) break
    const take = Math.min(left, l.remaining)
    l.remaining -= take
    takes.set(l.id, take)
    left -= take
  }
  return takes
}

function grantBoth(m: Model, r: Real, type: CoinType, amount: number, expiresInHours: number | null) {
  const id = r.lots.length + 1
  const expiresAt = expiresInHours === null ? null : r.now + expiresInHours * HOUR
  r.lots.push({ id, type, amount, remaining: amount, expiresAt: expiresAt === null ? null : iso(expiresAt) })
  r.ledger.push({ lotId: id, kind: 'CHARGE', amount })
  r.grantedAt.set(id, r.now)
  m.lots.push({ id, type, amount, remaining: amount, expiresAt })
}

function applySteps(r: Real, steps: { lotId: number; take: number }[], kind: LedgerKind, sign: 1 | -1) {
  for (const s of steps) {
    r.lots[s.lotId - 1]!.remaining += sign * s.take
    r.ledger.push({ lotId: s.lotId, kind, amount: sign * s.take })
  }
}

function checkInvariants(m: Model, r: Real) {
  for (const l of r.lots) {
    expect(l.remaining).toBeGreaterThanOrEqual(0)
    expect(l.remaining).toBeLessThanOrEqual(l.amount)
  }
  expect(r.lots.reduce((s, l) => s + l.remaining, 0)).toBe(r.ledger.reduce((s, e) => s + e.amount, 0))
  for (const l of r.lots) expect(r.ledger.filter((e) => e.lotId === l.id).reduce((s, e) => s + e.amount, 0)).toBe(l.remaining)
  expect(r.lots.map((l) => l.remaining)).toEqual(m.lots.map((l) => l.remaining))
  const shown = balances(r.lots, new Date(r.now))
  const sum = (t: CoinType) => m.lots.filter((l) => l.type === t && live(l, m.now)).reduce((s, l) => s + l.remaining, 0)
  expect({ COIN: shown.COIN, FREE_COIN: shown.FREE_COIN, BONUS: shown.BONUS, MILEAGE: shown.MILEAGE }).toEqual({
    COIN: sum('COIN'),
    FREE_COIN: sum('FREE_COIN'),
    BONUS: sum('BONUS'),
    MILEAGE: sum('MILEAGE'),
  })
  expect(shown.total).toBe(sum('COIN') + sum('FREE_COIN') + sum('BONUS'))
}

type Cmd = fc.Command<Model, Real>

const grant = (type: CoinType, amount: number, hours: number | null): Cmd => ({
  check: () => true,
  run(m, r) {
    grantBoth(m, r, type, amount, hours)
    checkInvariants(m, r)
  },
  toString: () => `grant(${type}, ${amount}, ${hours}h)`,
})

const purchase = (prices: number[]): Cmd => ({
  check: () => true,
  run(m, r) {
    const items = prices.map((price, i) => ({ episodeId: i + 1, seriesId: 1, price }))
    const plan = planPurchase(r.lots, items, new Date(r.now))
    const takes = modelDrain(
      m,
      prices.reduce((a, b) => a + b, 0),
      ['BONUS', 'FREE_COIN', 'COIN'],
    )
    expect(plan === null).toBe(takes === null) // COIN_INSUFFICIENT exactly when the model is short
    if (plan && takes) {
      const steps = plan.flatMap((p) => p.steps)
      applySteps(r, steps, 'USE', -1)
      r.purchases.push({ steps })
      m.purchases.push({ takes })
    }
    checkInvariants(m, r)
  },
  toString: () => `purchase(${prices.join('+')})`,
})

const advance = (hours: number): Cmd => ({
  check: () => true,
  run(m, r) {
    m.now += hours * HOUR
    r.now += hours * HOUR
    checkInvariants(m, r)
  },
  toString: () => `advance(${hours}h)`,
})

const expire: Cmd = {
  check: () => true,
  run(m, r) {
    for (const s of planExpiry(r.lots, new Date(r.now))) {
      r.lots[s.lotId - 1]!.remaining -= s.amount
      r.ledger.push({ lotId: s.lotId, kind: 'EXPIRE', amount: -s.amount })
    }
    for (const l of m.lots) if (l.expiresAt !== null && l.expiresAt <= m.now) l.remaining = 0
    checkInvariants(m, r)
  },
  toString: () => 'expire()',
}

/**
 * REFUND_PURCHASE (spec §9): a paid charge (a COIN grant) refunded within 7 days while its coins are all unused;
 * the rule is `planRefund`, its coins leave the wallet. The model: untouched, younger than 7 days, not refunded.
 */
const refund = (pick: number): Cmd => ({
  check: () => true,
  run(m, r) {
    const coinLots = m.lots.filter((l) => l.type === 'COIN')
    if (coinLots.length === 0) return
    const ml = coinLots[pick % coinLots.length]!
    const paidAt = r.grantedAt.get(ml.id)!
    const rl = r.lots[ml.id - 1]!
    const plan = planRefund(
      { state: r.refunded.has(ml.id) ? 'REFUNDED' : 'PAID', paidAt: iso(paidAt) },
      [{ id: rl.id, type: 'COIN', amount: rl.amount, remaining: rl.remaining }],
      new Date(r.now),
    )
    const allowed = !r.refunded.has(ml.id) && ml.remaining === ml.amount && m.now - paidAt < REFUND_DAYS * 24 * HOUR
    expect(plan.ok).toBe(allowed)
    if (plan.ok) {
      applySteps(r, plan.steps, 'REFUND_PURCHASE', -1)
      r.refunded.add(ml.id)
      ml.remaining = 0
    }
    checkInvariants(m, r)
  },
  toString: () => `refund(${pick})`,
})

/** Mileage exchange: `units` × 200 mileage drawn (earliest expiry first), `units` coins granted for 30 days. */
const exchange = (units: number): Cmd => ({
  check: () => true,
  run(m, r) {
    const steps = planSpend(r.lots, units * MILEAGE_UNIT, new Date(r.now), ['MILEAGE'])
    const takes = modelDrain(m, units * MILEAGE_UNIT, ['MILEAGE'])
    expect(steps === null).toBe(takes === null)
    if (steps) {
      applySteps(r, steps, 'USE', -1)
      grantBoth(m, r, 'COIN', units, EXCHANGED_COIN_HOURS)
    }
    checkInvariants(m, r)
  },
  toString: () => `exchange(${units})`,
})

const commands = [
  fc
    .tuple(
      fc.constantFrom<CoinType>('COIN', 'FREE_COIN', 'BONUS', 'MILEAGE'),
      fc.integer({ min: 1, max: 60 }),
      fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
    )
    .map(([t, a, h]) => grant(t, t === 'MILEAGE' ? a * 100 : a, h)),
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 5 }).map(purchase),
  fc.integer({ min: 1, max: 200 }).map(advance),
  fc.constant(expire),
  fc.nat(20).map(refund),
  fc.nat(20).map(refund),
  fc.integer({ min: 15, max: 30 }).map(exchange),
]

describe('wallet model (docs/QUALITY.md: grant/spend/expire/refund/exchange keep the invariants)', () => {
  it('holds over 1,000 random command sequences', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40 }), (cmds) => {
        fc.modelRun(
          () => ({
            model: { now: START, lots: [], purchases: [] },
            real: { now: START, lots: [], ledger: [], purchases: [], grantedAt: new Map<number, number>(), refunded: new Set<number>() },
          }),
          cmds,
        )
      }),
      { numRuns: 1000 },
    )
  })
})
