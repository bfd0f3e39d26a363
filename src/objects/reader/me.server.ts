/**
 * `GET /user/me` and the session service, answered inside the reader's object: it composes what four features keep
 * there (the account card, the balances, the purchase count, the unread alarms), so it lives with the object.
 */
import { flag } from '../../lib/server/rows.ts'
import type { MoneyRun } from '../../features/reader/money-store.server.ts'
import type { AccountCard } from '../../features/age/account-card.server.ts'
import { unreadStatement } from '../../features/alarm/alarm-store.server.ts'
import { PURCHASE_COUNT_SQL } from '../../features/purchase/purchase.server.ts'
import { COIN_SUMMARY_SQL, coinSummaryParams } from '../../features/wallet/wallet.server.ts'
import type { CoinSummary } from '../../features/wallet/wallet.ts'

/** Spec §3 user fields. */
type UserProfile = {
  id: number
  snsProvider: string | null
  snsId: string | null
  email: string | null
  name: string | null
  nickname: string | null
  isAdult: boolean
  purchaseCount: number
  isAgreeMail: boolean
  showAdult: boolean
  isKrIpUser: boolean
  isAdultKr: boolean
  agreePush: { isAgreePush: boolean; isAgreePushContents: boolean; isAgreePushFreetime: boolean; isAgreePushNight: boolean }
  birthedAt: string | null
  isBlToggle: boolean
}

/**
 * `GET /user/me`'s data: the profile and the balances (as `GET /coin`, without its `expiring` list); with the unread
 * alarms' count when asked (the session service's header bell).
 */
export type UserMe = { user: UserProfile; coin: Omit<CoinSummary, 'expiring'>; alarms?: number }

/**
 * The reader's object's `me` procedure (procedures.server.ts): the profile from the account card, the balances
 * and purchase count (`PURCHASE_COUNT_SQL`) from the reader's rows, and with `alarms` the unread alarms' count; null
 * for a gone account. Reads only.
 */
export function me(run: MoneyRun, input: { userId: number; now: string; alarms: boolean }, account?: AccountCard | null): UserMe | null {
  if (!account) return null
  const read = run([
    {
      sql: `SELECT ${COIN_SUMMARY_SQL} AS coin, ${PURCHASE_COUNT_SQL} AS purchaseCount`,
      params: [...coinSummaryParams(input.userId, input.now), input.userId],
    },
    ...(input.alarms ? [unreadStatement(input.now)] : []),
  ])
  if (!read.ok) throw new Error(read.error)
  const [summary, unread] = read.results
  const money = summary!.results[0] as { coin: string; purchaseCount: number }
  const { expiring: _expiring, ...coin } = JSON.parse(money.coin) as CoinSummary
  const { push, pushContents, pushFreetime, pushNight } = account
  return {
    user: {
      id: account.id,
      snsProvider: account.snsProvider,
      snsId: account.snsId,
      email: account.email,
      name: account.name,
      nickname: account.nickname,
      purchaseCount: money.purchaseCount,
      isAdult: flag(account.isAdult),
      isAgreeMail: flag(account.isAgreeMail),
      showAdult: flag(account.showAdult),
      isKrIpUser: flag(account.isKrIpUser),
      isAdultKr: flag(account.isAdultKr),
      birthedAt: account.birthedAt,
      isBlToggle: flag(account.isBlToggle),
      agreePush: {
        isAgreePush: flag(push),
        isAgreePushContents: flag(pushContents),
        isAgreePushFreetime: flag(pushFreetime),
        isAgreePushNight: flag(pushNight),
      },
    },
    coin,
    ...(unread && { alarms: (unread.results[0] as { n: number }).n }),
  }
}
