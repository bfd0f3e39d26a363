/**
 * The wallet on real workerd + D1 (docs/ARCHITECTURE.md "Money: the wallet"): operator grants and deductions keep
 * Σ lots' remaining = Σ ledger per user, a short deduction changes nothing, a concurrent change never drives
 * a lot negative, and the demo reader's lots are drawn bonus first.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'
import { createDb, type Db, type Statement } from '../../src/lib/server/db.ts'
import type { MoneyOutcome } from '../../src/features/reader/money-store.server.ts'
import { throughMoney } from './faults.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { planSpend, SPEND_ORDER, type Lot } from '../../src/features/wallet/wallet.ts'
import { adminAdjust, userBalances, userIdByEmail, walletReport, walletTotals } from '../../src/features/wallet/wallet.server.ts'
import { readerRows } from './reader-rows.ts'

const READER = DEMO_ACCOUNTS.reader
const MINOR = DEMO_ACCOUNTS.minor
let db: Db

beforeAll(async () => {
  await seedDemo(env.DB)
  db = createDb(env.DB)
})

async function expectInvariant(userId: number) {
  const t = await walletTotals(db, userId)
  expect(t.lots).toBe(t.ledger)
  expect(t.minRemaining ?? 0).toBeGreaterThanOrEqual(0)
  return t
}

/** Every lot of the account, in spend order (the operator's wallet report). */
const userLots = (db: Db, email: string) => walletReport(db, email, 1)

/** The account's latest `limit` ledger rows, newest first (the operator's wallet report). */
const userLedger = (db: Db, email: string, limit: number) => walletReport(db, email, limit)

async function snapshot(email: string) {
  const { lots } = await userLots(db, email)
  const { entries } = await userLedger(db, email, 500)
  return { lots, ledgerIds: entries.map((e) => e.id) }
}

async function expectAppError(p: Promise<unknown>, code: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  expect((err as AppError).code).toBe(code)
}

describe("wallet in the reader's object", () => {
  it('draws the demo reader’s bonus lots first, soonest expiry first, then free coins, then paid coins', async () => {
    const { lots } = await userLots(db, READER.email)
    const now = new Date()
    const byId = new Map(lots.map((l) => [l.id, l]))
    const bonus = lots.filter((l) => l.type === 'BONUS' && l.remaining > 0)
    expect(bonus.length).toBeGreaterThanOrEqual(2)
    const bonusTotal = bonus.reduce((s, l) => s + l.remaining, 0)

    const plan = planSpend(lots, bonusTotal + 1, now)!
    expect(plan).not.toBeNull()
    // every bonus lot fully drained before anything else, in expiry order
    const bonusSteps = plan.slice(0, bonus.length)
    expect(bonusSteps.map((s) => byId.get(s.lotId)!.type)).toEqual(bonus.map(() => 'BONUS'))
    const expiries = bonusSteps.map((s) => byId.get(s.lotId)!.expiresAt ?? '9999')
    expect([...expiries].sort()).toEqual(expiries)
    expect(bonusSteps.every((s) => s.take === byId.get(s.lotId)!.remaining)).toBe(true)
    // the one coin beyond the bonus comes from the free coin expiring first
    const next = byId.get(plan[bonus.length]!.lotId)!
    expect(next.type).toBe('FREE_COIN')
    const freeExpiries = lots.filter((l) => l.type === 'FREE_COIN' && l.remaining > 0).map((l) => l.expiresAt!)
    expect(next.expiresAt).toBe([...freeExpiries].sort()[0])
    expect(plan.every((s) => byId.get(s.lotId)!.type !== 'MILEAGE')).toBe(true)
    // and paid coins only after all bonus and free coins
    const spendable = lots.filter((l) => (SPEND_ORDER as readonly string[]).includes(l.type)).reduce((s, l) => s + l.remaining, 0)
    const all = planSpend(lots, spendable, now)!
    const types = all.map((s) => byId.get(s.lotId)!.type)
    expect(types.indexOf('COIN')).toBeGreaterThan(types.lastIndexOf('FREE_COIN'))
    expect(types.indexOf('FREE_COIN')).toBeGreaterThan(types.lastIndexOf('BONUS'))
  })

  it('grant then deduct keeps Σ remaining = Σ ledger per user, never below zero', async () => {
    await expectInvariant(READER.id)
    await expectInvariant(MINOR.id)
    const before = await userBalances(db, READER.id)

    const grant = await adminAdjust(db, {
      email: READER.email,
      type: 'BONUS',
      amount: 25,
      reason: 'support ticket 42',
      expiresAt: '2099-12-31',
    })
    expect(grant.entries).toHaveLength(1)
    expect(grant.entries[0]).toMatchObject({ kind: 'CHARGE', source: 'ADMIN', type: 'BONUS', amount: 25, description: 'support ticket 42' })
    expect(grant.balances.BONUS).toBe(before.BONUS + 25)
    await expectInvariant(READER.id)

    const other = await adminAdjust(db, { email: MINOR.email, type: 'FREE_COIN', amount: 7, reason: 'roulette' })
    expect(other.entries).toEqual([
      expect.objectContaining({ kind: 'CHARGE', source: 'ADMIN', type: 'FREE_COIN', amount: 7, description: 'roulette' }),
    ])
    await expectInvariant(MINOR.id)

    // a deduction larger than any single lot spans several lots of that type, earliest expiry first
    const coinLots = (await userLots(db, READER.email)).lots.filter((l) => l.type === 'COIN' && l.remaining > 0)
    const take = coinLots[0]!.remaining + 1
    const deduct = await adminAdjust(db, { email: READER.email, type: 'COIN', amount: -take, reason: 'chargeback' })
    expect(deduct.entries.length).toBe(2)
    expect(deduct.entries.every((e) => e.kind === 'CANCEL' && e.source === 'ADMIN' && e.type === 'COIN' && e.amount < 0)).toBe(true)
    expect(deduct.entries.reduce((s, e) => s + e.amount, 0)).toBe(-take)
    expect(deduct.balances.COIN).toBe(before.COIN - take)
    expect(deduct.balances.BONUS).toBe(before.BONUS + 25) // only the named type moved
    expect(deduct.balances).toEqual(await userBalances(db, READER.id))
    await expectInvariant(READER.id)

    // mileage: deducted only from mileage lots
    const mileage = await adminAdjust(db, { email: READER.email, type: 'MILEAGE', amount: -200, reason: 'exchange correction' })
    expect(mileage.balances.MILEAGE).toBe(before.MILEAGE - 200)
    await expectInvariant(READER.id)
  })

  it('a deduction beyond the balance answers COIN_INSUFFICIENT and changes nothing', async () => {
    const before = await snapshot(MINOR.email)
    const balance = await userBalances(db, MINOR.id)
    await expectAppError(
      adminAdjust(db, { email: MINOR.email, type: 'COIN', amount: -(balance.COIN + 1), reason: 'too much' }),
      'COIN_INSUFFICIENT',
    )
    // other types' coins do not count toward a typed deduction
    await expectAppError(
      adminAdjust(db, { email: MINOR.email, type: 'BONUS', amount: -(balance.BONUS + 1), reason: 'too much' }),
      'COIN_INSUFFICIENT',
    )
    await expectAppError(
      adminAdjust(db, { email: MINOR.email, type: 'MILEAGE', amount: -(balance.MILEAGE + 1), reason: 'too much' }),
      'MILEAGE_INSUFFICIENT',
    )
    expect(await snapshot(MINOR.email)).toEqual(before)
    await expectInvariant(MINOR.id)
  })

  it('refuses amount 0, bad input and unknown e-mails', async () => {
    await expectAppError(adminAdjust(db, { email: READER.email, type: 'COIN', amount: 0, reason: 'x' }), 'INVALID_PARAMETER')
    await expectAppError(adminAdjust(db, { email: READER.email, type: 'COIN', amount: 5, reason: '' }), 'INVALID_PARAMETER')
    await expectAppError(
      adminAdjust(db, { email: READER.email, type: 'COIN', amount: 5, reason: 'x', expiresAt: '2001-01-01' }),
      'INVALID_PARAMETER',
    )
    await expectAppError(adminAdjust(db, { email: 'nobody@example.com', type: 'COIN', amount: 5, reason: 'x' }), 'NOT_FOUND_USER')
    await expectAppError(userIdByEmail(db, 'nobody@example.com'), 'NOT_FOUND_USER')
    // e-mails compare case-insensitively
    expect(await userIdByEmail(db, READER.email.toUpperCase())).toBe(READER.id)
  })

  it('does not deduct from expired lots that the expiry job has not swept yet', async () => {
    // a lot already past its expiry, still holding coins (its EXPIRE row is the expiry job's business)
    await readerRows.batch(MINOR.id, [
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source) VALUES (?, 'FREE_COIN', 50, 50, '2000-01-01T00:00:00.000Z', 'ADMIN')`,
        params: [MINOR.id],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'CHARGE', last_insert_rowid(), 'FREE_COIN', 'ADMIN', 50)`,
        params: [MINOR.id],
      },
    ])
    const free = (await userBalances(db, MINOR.id)).FREE_COIN
    await expectAppError(adminAdjust(db, { email: MINOR.email, type: 'FREE_COIN', amount: -(free + 1), reason: 'x' }), 'COIN_INSUFFICIENT')
    const ok = await adminAdjust(db, { email: MINOR.email, type: 'FREE_COIN', amount: -free, reason: 'x' })
    expect(ok.balances.FREE_COIN).toBe(0)
    const expired = (await userLots(db, MINOR.email)).lots.find((l) => l.expiresAt === '2000-01-01T00:00:00.000Z')!
    expect(expired.remaining).toBe(50)
    await expectInvariant(MINOR.id)
  })

  it('a lot changed between planning and the batch (a plan gone wrong) fails the whole batch: nothing of the deduction is written', async () => {
    const email = READER.email
    const fresh = await adminAdjust(db, { email, type: 'BONUS', amount: 10, reason: 'race setup', expiresAt: '2098-01-02T00:00:00Z' })
    const bonusBefore = fresh.balances.BONUS
    const lots = (await userLots(db, email)).lots.filter((l) => l.type === 'BONUS' && l.remaining > 0)
    const first = lots[0]!
    // a change no call can make in between (the object decides in one turn), injected right after the plan's read
    let raced = false
    const racing = (statements: Statement[], next: (s: Statement[]) => MoneyOutcome) => {
      const outcome = next(statements)
      if (!raced && statements.length === 1 && /^\s*SELECT[\s\S]*FROM coin_lots/.test(statements[0]!.sql)) {
        raced = true
        next([
          { sql: `UPDATE coin_lots SET remaining = remaining - 1 WHERE id = ?`, params: [first.id] },
          {
            sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount) VALUES (?, 'USE', ?, 'BONUS', 'ADMIN', -1)`,
            params: [READER.id, first.id],
          },
        ])
      }
      return outcome
    }
    const ledgerBefore = (await userLedger(db, email, 1)).entries[0]!.id
    await expect(
      throughMoney(racing, () => adminAdjust(db, { email, type: 'BONUS', amount: -first.remaining, reason: 'raced' })),
    ).rejects.toThrow(/CHECK/)
    expect(raced).toBe(true)
    expect((await userBalances(db, READER.id)).BONUS).toBe(bonusBefore - 1)
    // only the injected USE row is new: no CANCEL row of the refused batch survived
    const newRows = (await userLedger(db, email, 50)).entries.filter((e) => e.id > ledgerBefore)
    expect(newRows.map((e) => e.kind)).toEqual(['USE'])
    await expectInvariant(READER.id)
  })

  it('concurrent deductions never overdraw: exactly as many succeed as the balance covers', async () => {
    const email = MINOR.email
    await adminAdjust(db, { email, type: 'BONUS', amount: 20, reason: 'concurrency setup' })
    const bonus = (await userBalances(db, MINOR.id)).BONUS
    const each = 3
    const tries = Math.floor(bonus / each) + 4
    const results = await Promise.allSettled(
      Array.from({ length: tries }, () => adminAdjust(db, { email, type: 'BONUS', amount: -each, reason: 'parallel' })),
    )
    const succeeded = results.filter((r) => r.status === 'fulfilled').length
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[]
    expect(succeeded).toBe(Math.floor(bonus / each))
    expect(failed.every((r) => r.reason instanceof AppError && r.reason.code === 'COIN_INSUFFICIENT')).toBe(true)
    expect((await userBalances(db, MINOR.id)).BONUS).toBe(bonus - succeeded * each)
    await expectInvariant(MINOR.id)
  })

  it('balances leave out lots with nothing left', async () => {
    const lots: Lot[] = (await userLots(db, MINOR.email)).lots
    const b = await userBalances(db, MINOR.id)
    const now = Date.now()
    const live = lots.filter((l) => l.remaining > 0 && (l.expiresAt === null || Date.parse(l.expiresAt) > now))
    expect(b.total).toBe(live.filter((l) => l.type !== 'MILEAGE').reduce((s, l) => s + l.remaining, 0))
  })
})
