/**
 * One reader as the operator sees them (docs/API.md `GET /api/ops/readers`, `POST /api/ops/readers/{id}/sessions/end`;
 * `npm run ops -- reader show|sessions end`): the account, wallet balances, last payments with their refunds, last
 * purchases and last sign-ins; ending every session of the reader. Never a password hash, token or token hash.
 * The account comes from the shared side, the wallet, payments and purchases from the reader's money rows (moneyDb),
 * the purchases' titles from the catalogue after them.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import type { Balances } from '../wallet/wallet.ts'
import { catalogueTitles, userBalances, walletTotals } from '../wallet/wallet.server.ts'
import { moneyDb } from '../reader/money-db.server.ts'
import { signOutEverywhere } from './account.server.ts'
import { READER_LIST_SIZE, type ReaderLookup } from './reader-ops.ts'
import { type ReaderSignIn } from '../auth/session-store.server.ts'
import { nicknameKey } from './profile.ts'
import { withReader } from '../reader/stub.server.ts'
import { spendingOf, type Spending } from '../spending/spending.server.ts'

type ReaderAccount = {
  id: number
  email: string | null
  nickname: string | null
  platform: string
  createdAt: string
  /** Adult verification (spec §4): verified adult, and when. */
  isAdult: boolean
  adultVerifiedAt: string | null
  emailVerifiedAt: string | null
  lastLoginAt: string | null
  withdrawalRequestedAt: string | null
  deletedAt: string | null
  /** Sign-in methods: `password` and the linked providers. */
  signIn: string[]
}

/** A payment with what came back from its provider (payment_events: refunds, disputes) and its own refund. */
type ReaderPayment = Cols<
  'payments',
  | 'id'
  | 'state'
  | 'provider'
  | 'method'
  | 'amount'
  | 'currency'
  | 'coins'
  | 'bonus'
  | 'created_at'
  | 'paid_at'
  | 'cancelled_at'
  | 'refunded_at'
> & { events: { type: string | null; receivedAt: string }[] }

type ReaderPurchase = Cols<'purchases', 'id' | 'type' | 'coins' | 'created_at'> & {
  seriesId: number
  seriesTitle: string
  episodeId: number
  episodeNo: number
}

export type ReaderReport = {
  account: ReaderAccount
  balances: Balances
  /** The wallet invariant (docs/ARCHITECTURE.md "Money"): Σ lots' remaining = Σ ledger amounts. */
  wallet: Awaited<ReturnType<typeof walletTotals>>
  payments: ReaderPayment[]
  purchases: ReaderPurchase[]
  signIns: ReaderSignIn[]
  /** The reader's monthly spending limit and this month's spending (issue 37 point 5); null for a withdrawn reader. */
  spending: Pick<Spending, 'limit' | 'next' | 'spent' | 'resetsAt'> | null
}

type AccountRow = Cols<
  'users',
  | 'id'
  | 'email'
  | 'nickname'
  | 'platform'
  | 'created_at'
  | 'adult_verified_at'
  | 'email_verified_at'
  | 'last_login_at'
  | 'withdrawal_requested_at'
  | 'deleted_at'
> & { isAdult: Flag; hasPassword: Flag; providers: string | null; sessionVersion: number }

/**
 * The reader `lookup` names: by id (a withdrawn account too), or by e-mail (the live account, else the latest
 * withdrawn one with that e-mail), nickname, phone, or one of their payment ids (the shared index of payments'
 * readers, migration 0037). NOT_FOUND_USER when there is none.
 */
async function findReader(db: Db, lookup: ReaderLookup): Promise<AccountRow> {
  const row = await db.first<AccountRow>(
    `SELECT u.id, u.email, u.nickname, u.platform, u.created_at AS createdAt, u.is_adult AS isAdult, u.adult_verified_at AS adultVerifiedAt,
            u.email_verified_at AS emailVerifiedAt, u.last_login_at AS lastLoginAt, u.withdrawal_requested_at AS withdrawalRequestedAt,
            u.deleted_at AS deletedAt, u.password_hash IS NOT NULL AS hasPassword, u.session_version AS sessionVersion,
            (SELECT group_concat(provider) FROM identities WHERE user_id = u.id) AS providers
       FROM users u
      WHERE (?1 IS NOT NULL AND u.id = ?1) OR (?2 IS NOT NULL AND u.email = ?2) OR (?3 IS NOT NULL AND u.nickname_key = ?3)
         OR (?4 IS NOT NULL AND u.id = (SELECT user_id FROM payment_readers WHERE payment_id = ?4)) OR (?5 IS NOT NULL AND u.phone = ?5)
      ORDER BY u.deleted_at IS NOT NULL, u.id DESC LIMIT 1`,
    lookup.id ?? null,
    lookup.email ?? null,
    lookup.nickname === undefined ? null : nicknameKey(lookup.nickname),
    lookup.payment ?? null,
    lookup.phone ?? null,
  )
  if (!row) throw new AppError('NOT_FOUND_USER')
  return row
}

/**
 * Everything support needs about one reader (lists: the last `READER_LIST_SIZE`, newest first); `timeZone`: the
 * edition's, whose month the spending limit counts.
 */
export async function readerReport(db: Db, lookup: ReaderLookup, timeZone: string, now = new Date()): Promise<ReaderReport> {
  const { isAdult, hasPassword, providers, sessionVersion, ...row } = await findReader(db, lookup)
  const account: ReaderAccount = {
    ...row,
    isAdult: flag(isAdult),
    signIn: [...(flag(hasPassword) ? ['password'] : []), ...(providers ? providers.split(',') : [])],
  }
  const money = moneyDb(db, row.id)
  const [balances, wallet, payments, events, bought, signIns, spending] = await Promise.all([
    userBalances(db, row.id, now),
    walletTotals(db, row.id),
    money.all<Omit<ReaderPayment, 'events'>>(
      `SELECT id, state, provider, method, amount, currency, coins, bonus, created_at AS createdAt, paid_at AS paidAt,
              cancelled_at AS cancelledAt, refunded_at AS refundedAt
         FROM payments WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ${READER_LIST_SIZE}`,
      row.id,
    ),
    money.all<{ paymentId: string; type: string | null; receivedAt: string }>(
      `SELECT e.payment_id AS paymentId, e.type, e.received_at AS receivedAt
         FROM payment_events e
        WHERE e.payment_id IN (SELECT id FROM payments WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ${READER_LIST_SIZE})
        ORDER BY e.received_at`,
      row.id,
    ),
    money.all<Omit<ReaderPurchase, 'seriesTitle' | 'episodeNo'>>(
      `SELECT id, type, coins, created_at AS createdAt, series_id AS seriesId, episode_id AS episodeId
         FROM purchases WHERE user_id = ? ORDER BY id DESC LIMIT ${READER_LIST_SIZE}`,
      row.id,
    ),
    // a withdrawn reader's object was emptied with the account: nothing to ask it (and no object to wake)
    row.deletedAt
      ? []
      : withReader(row.id, (r) => r.sessions(row.id, sessionVersion, now.toISOString(), READER_LIST_SIZE)).then((s) => s.signIns),
    row.deletedAt
      ? null
      : spendingOf(db, row.id, timeZone, now).then(({ limit, next, spent, resetsAt }) => ({ limit, next, spent, resetsAt })),
  ])
  // the titles after the purchases (a money statement cannot join the catalogue); a purchase of a series or episode
  // no longer in it is left out, as the join left it out
  const titles = await catalogueTitles(db, bought)
  const purchases = bought.flatMap(({ seriesId, episodeId, ...p }): ReaderPurchase[] => {
    const seriesTitle = titles.series.get(seriesId)
    const episodeNo = titles.episodes.get(episodeId)
    return seriesTitle === undefined || episodeNo === undefined ? [] : [{ ...p, seriesId, seriesTitle, episodeId, episodeNo }]
  })
  return {
    account,
    balances,
    wallet,
    payments: payments.map((p) => ({
      ...p,
      events: events.filter((e) => e.paymentId === p.id).map(({ type, receivedAt }) => ({ type, receivedAt })),
    })),
    purchases,
    signIns,
    spending,
  }
}

/**
 * Ends every session of reader `id` on every device (`signOutEverywhere`: the session version moves on, so the access
 * and refresh tokens already issued are refused at their next use; `ended`: the sessions that were open). NOT_FOUND_USER for an unknown
 * id; a withdrawn account has no session left and is refused the same way (nothing changes).
 */
export async function endReaderSessions(
  db: Db,
  id: number,
  now = new Date(),
): Promise<{ id: number; email: string | null; ended: number }> {
  const row = await db.first<{ id: number; email: string | null }>(`SELECT id, email FROM users WHERE id = ? AND deleted_at IS NULL`, id)
  if (!row) throw new AppError('NOT_FOUND_USER')
  return { id: row.id, email: row.email, ended: await signOutEverywhere(db, id, now) }
}
