/**
 * The reader's spending limit and this month's spending (issue 37 point 5; docs/API.md `/user/spending-limit`): one call to
 * the reader's object, which keeps the limit beside the coin ledger it counts, and for the spending by series one D1
 * read of the series' titles.
 */
import type { Db } from '../../lib/server/db.ts'
import { withReader } from '../reader/stub.server.ts'
import { catalogueTitles } from '../wallet/wallet.server.ts'
import { spendingMonth, type LimitState } from './spending.ts'

/** A limit as the API and the pages show it: in force (null: none), and a raise waiting until `at`. */
export type LimitView = { limit: number | null; next: { limit: number | null; at: string } | null }
/** The reader's month: the limit, what was spent since `since` in all and by series (most first), and when it resets. */
export type Spending = LimitView & {
  spent: number
  since: string
  resetsAt: string
  bySeries: { seriesId: number; title: string | null; coins: number }[]
}

const viewOf = (state: LimitState): LimitView => ({
  limit: state.coins,
  next: state.nextAt === null ? null : { limit: state.nextCoins, at: state.nextAt },
})

/** The reader's limit and this month's spending in the edition's time zone. */
export async function spendingOf(db: Db, userId: number, timeZone: string, now = new Date()): Promise<Spending> {
  const month = spendingMonth(now, timeZone)
  const { limit, spent, bySeries } = await withReader(userId, (r) => r.spending(userId, month.since, now.toISOString()))
  const titles = (
    await catalogueTitles(
      db,
      bySeries.map((s) => ({ seriesId: s.seriesId, episodeId: null })),
    )
  ).series
  return {
    ...viewOf(limit),
    spent,
    ...month,
    bySeries: bySeries.map((s) => ({ ...s, title: titles.get(s.seriesId) ?? null })),
  }
}

/** The reader asks for limit `coins` (null: none): lower at once, higher after a day. Answers the limit it leaves. */
export async function setSpendingLimit(userId: number, coins: number | null, now = new Date()): Promise<LimitView> {
  return viewOf(await withReader(userId, (r) => r.setSpendingLimit(userId, coins, now.toISOString())))
}
