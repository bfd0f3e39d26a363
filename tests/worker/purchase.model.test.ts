/**
 * The wallet model of src/features/wallet/wallet.model.test.ts, run (fewer times) against D1 itself:
 * grants, purchases (RENT and POSSESSION, one to three episodes) and operator deductions in random order
 * on a fresh reader. After every command: Σ lots' remaining = Σ ledger, no lot below zero, GET /coin's SQL =
 * the rule of wallet.ts, and the spendable total = the model's (a purchase succeeds exactly when the model
 * affords it).
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { frEdition } from './app.ts'
import { db, expectInvariant, give, newReader, newSeries } from './purchase.helpers.ts'
import { purchaseEpisodes } from '../../src/features/purchase/purchase.server.ts'
import { adminAdjust, coinOf, userBalances } from '../../src/features/wallet/wallet.server.ts'
import { type CoinType } from '../../src/features/wallet/wallet.ts'
import { coinSummary } from '../unit/wallet-model.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'

type Model = { total: number; byType: Record<'COIN' | 'FREE_COIN' | 'BONUS', number> }
type Real = { userId: number; email: string; episodes: number[]; next: number; keys: number }

async function check(m: Model, r: Real) {
  const t = await expectInvariant(r.userId)
  const summary = await coinOf(db, r.userId)
  expect(summary).toEqual(coinSummary(await userBalances(db, r.userId)))
  expect(summary.total).toBe(m.total)
  expect(t.lots - summary.mileage).toBe(m.total) // every lot is live here: nothing expires within a run
}

const code = (e: unknown) => (e instanceof AppError ? e.code : String(e))

type Cmd = fc.AsyncCommand<Model, Real>

const grant = (type: 'COIN' | 'FREE_COIN' | 'BONUS', amount: number): Cmd => ({
  check: () => true,
  async run(m, r) {
    await give(r.userId, type, amount, type === 'COIN' ? undefined : 30)
    m.total += amount
    m.byType[type] += amount
    await check(m, r)
  },
  toString: () => `grant(${type}, ${amount})`,
})

const purchase = (kind: 'RENT' | 'POSSESSION', count: number): Cmd => ({
  check: () => true,
  async run(m, r) {
    const episodeIds = r.episodes.slice(r.next, r.next + count)
    r.next += count
    const price = (kind === 'RENT' ? 2 : 4) * count
    const claim = { userId: r.userId, key: `model-${++r.keys}`, scope: 'test', requestHash: 'h' }
    const outcome = await purchaseEpisodes(db, {
      userId: r.userId,
      request: { episodeIds, kind },
      claim,
      rentalHours: 72,
      ageRules: frEdition,
      timeZone: frEdition.timeZone,
    }).then(
      (res) => res,
      (e: unknown) => code(e),
    )
    if (m.total >= price) {
      expect(outcome).not.toBeTypeOf('string')
      m.total -= price
      // spec §4 order: bonus, then free, then paid
      let left = price
      for (const t of ['BONUS', 'FREE_COIN', 'COIN'] as const) {
        const take = Math.min(left, m.byType[t])
        m.byType[t] -= take
        left -= take
      }
      const coin = (outcome as { coin: { bonus: number; freeCoin: number; coin: number } }).coin
      expect([coin.bonus, coin.freeCoin, coin.coin]).toEqual([m.byType.BONUS, m.byType.FREE_COIN, m.byType.COIN])
    } else expect(outcome).toBe('COIN_INSUFFICIENT')
    await check(m, r)
  },
  toString: () => `purchase(${kind}×${count})`,
})

const deduct = (type: CoinType & ('COIN' | 'FREE_COIN' | 'BONUS'), amount: number): Cmd => ({
  check: () => true,
  async run(m, r) {
    const outcome = await adminAdjust(db, { email: r.email, type, amount: -amount, reason: 'model' }).then(
      () => 'ok',
      (e: unknown) => code(e),
    )
    if (m.byType[type] >= amount) {
      expect(outcome).toBe('ok')
      m.byType[type] -= amount
      m.total -= amount
    } else expect(outcome).toBe('COIN_INSUFFICIENT')
    await check(m, r)
  },
  toString: () => `deduct(${type}, ${amount})`,
})

const spendable = fc.constantFrom<'COIN' | 'FREE_COIN' | 'BONUS'>('COIN', 'FREE_COIN', 'BONUS')
const commands = [
  fc.tuple(spendable, fc.integer({ min: 1, max: 12 })).map(([t, a]) => grant(t, a)),
  fc.tuple(fc.constantFrom<'RENT' | 'POSSESSION'>('RENT', 'POSSESSION'), fc.integer({ min: 1, max: 3 })).map(([k, n]) => purchase(k, n)),
  fc.tuple(spendable, fc.integer({ min: 1, max: 8 })).map(([t, a]) => deduct(t, a)),
]

describe('wallet model on D1', () => {
  it('keeps the invariants over random grant/purchase/deduct sequences', async () => {
    const { episodeIds } = await newSeries({ episodes: 400, priceRent: 2, priceBuy: 4 })
    let offset = 0
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (cmds) => {
        const reader = await newReader()
        const email = (await db.first<{ email: string }>(`SELECT email FROM users WHERE id = ?`, reader.id))!.email
        const episodes = episodeIds.slice(offset, offset + 40)
        offset = (offset + 40) % 400
        await fc.asyncModelRun(
          () => ({
            model: { total: 0, byType: { COIN: 0, FREE_COIN: 0, BONUS: 0 } },
            real: { userId: reader.id, email, episodes, next: 0, keys: 0 },
          }),
          cmds,
        )
      }),
      { numRuns: 25 },
    )
  }, 60_000)
})
