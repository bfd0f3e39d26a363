/**
 * Wallet reads and writes on D1 (docs/ARCHITECTURE.md "Money: the wallet"): lots are the balance, every change of
 * a lot's `remaining` is one append-only `coin_ledger` row whose signed `amount` is that change, so for every
 * user Σ coin_lots.remaining = Σ coin_ledger.amount. Each movement is one D1 batch (a transaction). Lots and ledger
 * are a reader's money rows (issue 38, docs/ARCHITECTURE.md "Reader objects"): statements over them go through
 * `moneyDb(db, readerId)`, except the expiry sweep, which spans every reader.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { CoinLotsRow, EpisodesRow, SeriesRow, UsersRow } from '../../lib/server/db-types.ts'
import { firstRow, rows, type Cols } from '../../lib/server/rows.ts'
import { cronBudget, sweep, type SweepBudget } from '../../lib/server/sweep.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import { AdminAdjustRequest, type HistoryQuery } from './wallet.schema.ts'
import {
  HISTORY_PAGE_SIZE,
  HISTORY_PAGES,
  MAX_EXPIRING,
  balances,
  decodeHistoryCursor,
  encodeHistoryCursor,
  expiryInstant,
  historySince,
  planSpend,
  type Balances,
  type CoinSummary,
  type CoinSource,
  type CoinType,
  type LedgerKind,
} from './wallet.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { decide, moneyDb } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'

/** A ledger row as the API and the operator tool show it. */
export type LedgerEntry = {
  id: number
  kind: LedgerKind
  lotId: number | null
  type: CoinType
  source: CoinSource
  /** Signed change of the lot's remaining: > 0 for CHARGE, < 0 for USE/EXPIRE/CANCEL/REFUND_PURCHASE (a refunded coin purchase). */
  amount: number
  ref: string | null
  description: string | null
  createdAt: string
}

/** A lot with everything the operator tool shows. */
type LotRow = Cols<'coin_lots', 'id' | 'type' | 'amount' | 'remaining' | 'expires_at' | 'source' | 'ref' | 'created_at'>

const LEDGER_COLUMNS = `id, kind, lot_id AS lotId, type, source, amount, ref, description, created_at AS createdAt`
type LedgerRow = Cols<'coin_ledger', 'id' | 'kind' | 'lot_id' | 'type' | 'source' | 'amount' | 'ref' | 'description' | 'created_at'>
const SPENDABLE_LOTS = `SELECT id, type, remaining, expires_at AS expiresAt FROM coin_lots WHERE user_id = ? AND remaining > 0`
/** A row of SPENDABLE_LOTS (the purchase and the mileage exchange read the same columns in their batch). */
export type SpendableLotRow = Cols<'coin_lots', 'id' | 'type' | 'remaining' | 'expires_at'>

/** The live account with this e-mail (case-insensitive), or NOT_FOUND_USER. */
export async function userIdByEmail(db: Db, email: string): Promise<number> {
  const row = await db.first<Pick<UsersRow, 'id'>>(`SELECT id FROM users WHERE email = ? AND deleted_at IS NULL`, email.trim())
  if (!row) throw new AppError('NOT_FOUND_USER')
  return row.id
}

type GrantInput = {
  userId: number
  type: CoinType
  /** Coins, a positive integer. */
  amount: number
  source: CoinSource
  /** Why (kept as the ledger row's description). */
  reason: string
  /** ISO instant the lot stops being spendable; absent or null: never. */
  expiresAt?: string | null
  /** Payment id, coupon id, event entry id, … */
  ref?: string | null
}

/**
 * Charges coins: one new lot and its CHARGE ledger row (amount > 0) in one batch over the reader's money rows; the
 * batch also reads the user's lots afterwards, so the balances returned are those the grant produced.
 */
async function grantCoins(db: Db, input: GrantInput, now = new Date()): Promise<{ entry: LedgerEntry; balances: Balances }> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new AppError('INVALID_PARAMETER', { fields: 'amount' })
  const expiresAt = input.expiresAt ?? null
  if (expiresAt !== null && !(Date.parse(expiresAt) > now.getTime())) throw new AppError('INVALID_PARAMETER', { fields: 'expiresAt' })
  const ref = input.ref ?? null
  const [, ledger, lots] = await moneyDb(db, input.userId).batch([
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      params: [input.userId, input.type, input.amount, input.amount, expiresAt, input.source, ref],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, description)
            VALUES (?, 'CHARGE', last_insert_rowid(), ?, ?, ?, ?, ?, ?) RETURNING ${LEDGER_COLUMNS}`,
      params: [input.userId, input.type, input.source, input.amount, input.source === 'PAYMENT' ? 'COIN_PRODUCT' : null, ref, input.reason],
    },
    { sql: SPENDABLE_LOTS, params: [input.userId] },
  ])
  return { entry: firstRow<LedgerRow>(ledger)!, balances: balances(rows<SpendableLotRow>(lots), now) }
}

/**
 * Spec §6 / docs/API.md operator API: an operator's charge or deduction, recorded with source ADMIN.
 *
 * - amount > 0: a new lot of `type` (source ADMIN, optional expiry) and its CHARGE row.
 * - amount < 0: draws only lots of `type` (the operator names the balance to correct), earliest expiry first,
 *   through `planSpend`. The ledger rows are kind CANCEL: coins taken back without buying anything — the
 *   negative counterpart of an admin CHARGE. USE would show the deduction in the reader's use history as if
 *   an episode had been bought (and count it as spending); EXPIRE is the expiry job's.
 *   One batch of conditional updates (`remaining >= take`, lot not expired) each followed by its ledger row,
 *   whose amount is `-take` only when the update changed exactly one row and 0 otherwise — the ledger's
 *   CHECK (amount <> 0) then fails the whole batch. Read, planned and written in one turn of the reader's object
 *   (`deduct`), which no other call of the reader interleaves.
 *
 * The movement is one batch over the reader's money rows; the operator's audit row (shared) is the route's to record
 * right after it (`recorded`, awaited before the answer): a refused movement leaves no row to take back, and the
 * row's after snapshot is the wallet this batch left.
 *
 * Errors: INVALID_PARAMETER (bad input, amount 0), NOT_FOUND_USER (unknown e-mail), COIN_INSUFFICIENT when
 * the type's balance is short (MILEAGE_INSUFFICIENT for mileage, the catalogue's code for that balance).
 */
export async function adminAdjust(
  db: Db,
  input: AdminAdjustRequest,
  now = new Date(),
  recorded?: () => Promise<unknown>,
): Promise<{ entries: LedgerEntry[]; balances: Balances }> {
  const parsed = AdminAdjustRequest.safeParse(input)
  if (!parsed.success) {
    throw new AppError('INVALID_PARAMETER', { fields: [...new Set(parsed.error.issues.map((i) => i.path.join('.')))].join(', ') })
  }
  const { email, type, amount, reason } = parsed.data
  const userId = await userIdByEmail(db, email)
  if (amount > 0) {
    let expiresAt: string | null
    try {
      expiresAt = expiryInstant(parsed.data.expiresAt)
    } catch {
      throw new AppError('INVALID_PARAMETER', { fields: 'expiresAt' }) // e.g. 2027-02-30
    }
    const { entry, balances } = await grantCoins(db, { userId, type, amount, source: 'ADMIN', reason, expiresAt }, now)
    await recorded?.()
    return { entries: [entry], balances }
  }

  const outcome = await decide(userId, 'deduct', { userId, type, take: -amount, reason, now: now.toISOString() })
  if ('error' in outcome) throw new Error(outcome.error)
  if ('short' in outcome) throw new AppError(type === 'MILEAGE' ? 'MILEAGE_INSUFFICIENT' : 'COIN_INSUFFICIENT')
  await recorded?.()
  return { entries: outcome.entries, balances: balances(outcome.lots, now) }
}

/** What the reader's object answers for a deduction: its ledger rows and the lots after it, the balance short, or a failed batch's text. */
export type DeductOutcome = { entries: LedgerRow[]; lots: SpendableLotRow[] } | { short: true } | { ok: false; error: string }

/**
 * An operator's deduction inside the reader's object (procedures.server.ts): reads the lots of `type`, plans
 * (`planSpend`), then writes one batch with nothing in between: per lot drawn a conditional update (`remaining >= take`,
 * lot not expired) and its CANCEL row, whose amount is `-take` only when the update changed exactly one row and 0
 * otherwise — the ledger's CHECK (amount <> 0) then fails the whole batch, so a plan gone wrong can never drive a lot
 * negative nor leave a half-applied deduction — then the lots after it.
 */
export function deduct(run: MoneyRun, order: { userId: number; type: CoinType; take: number; reason: string; now: string }): DeductOutcome {
  const { userId, type, take, reason, now: nowIso } = order
  const read = run([{ sql: `${SPENDABLE_LOTS} AND type = ?`, params: [userId, type] }])
  if (!read.ok) return read
  const plan = planSpend(rows<SpendableLotRow>(read.results[0]), take, new Date(nowIso), [type])
  if (!plan) return { short: true }
  const statements = plan.flatMap((step) => [
    {
      sql: `UPDATE coin_lots SET remaining = remaining - ? WHERE id = ? AND user_id = ? AND remaining >= ? AND (expires_at IS NULL OR expires_at > ?)`,
      params: [step.take, step.lotId, userId, step.take, nowIso],
    },
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, description)
            VALUES (?, 'CANCEL', ?, ?, 'ADMIN', CASE WHEN changes() = 1 THEN ? ELSE 0 END, ?) RETURNING ${LEDGER_COLUMNS}`,
      params: [userId, step.lotId, type, -step.take, reason],
    },
  ])
  const written = run([...statements, { sql: SPENDABLE_LOTS, params: [userId] }])
  if (!written.ok) return written
  return {
    entries: written.results.slice(0, statements.length).flatMap((r) => rows<LedgerRow>(r)),
    lots: rows<SpendableLotRow>(written.results[statements.length]),
  }
}

/** A user's balances now (expired lots excluded). */
export async function userBalances(db: Db, userId: number, now = new Date()): Promise<Balances> {
  return balances(await moneyDb(db, userId).all<SpendableLotRow>(SPENDABLE_LOTS, userId), now)
}

/** Every lot of the account (empty and expired ones too), in spend order of type, then expiry. */
async function userLots(db: Db, email: string): Promise<{ userId: number; lots: LotRow[] }> {
  const userId = await userIdByEmail(db, email)
  const lots = await moneyDb(db, userId).all<LotRow>(
    `SELECT id, type, amount, remaining, expires_at AS expiresAt, source, ref, created_at AS createdAt FROM coin_lots WHERE user_id = ?
     ORDER BY CASE type WHEN 'BONUS' THEN 0 WHEN 'FREE_COIN' THEN 1 WHEN 'COIN' THEN 2 ELSE 3 END, expires_at IS NULL, expires_at, id`,
    userId,
  )
  return { userId, lots }
}

/** The account's latest ledger rows, newest first. */
async function userLedger(db: Db, email: string, limit = 20): Promise<{ userId: number; entries: LedgerEntry[] }> {
  const userId = await userIdByEmail(db, email)
  const n = Math.max(1, Math.min(500, Math.trunc(limit)))
  const entries = await moneyDb(db, userId).all<LedgerRow>(
    `SELECT ${LEDGER_COLUMNS} FROM coin_ledger WHERE user_id = ? ORDER BY id DESC LIMIT ?`,
    userId,
    n,
  )
  return { userId, entries }
}

/**
 * The wallet invariant of docs/ARCHITECTURE.md "Money" for one user: Σ lots' remaining and Σ ledger amounts,
 * which must be equal, and the smallest remaining (never below zero).
 */
export async function walletTotals(db: Db, userId: number): Promise<{ lots: number; ledger: number; minRemaining: number | null }> {
  const row = await moneyDb(db, userId).first<{ lots: number; ledger: number; minRemaining: number | null }>(
    `SELECT (SELECT coalesce(sum(remaining), 0) FROM coin_lots WHERE user_id = ?1) AS lots,
            (SELECT coalesce(sum(amount), 0) FROM coin_ledger WHERE user_id = ?1) AS ledger,
            (SELECT min(remaining) FROM coin_lots WHERE user_id = ?1) AS minRemaining`,
    userId,
  )
  return row ?? { lots: 0, ledger: 0, minRemaining: null }
}

/** What `GET /api/ops/coins` answers (`npm run ops -- coins show`). */
export type WalletReport = {
  userId: number
  email: string
  balances: Balances
  /** Every lot, in spend order (`userLots`). */
  lots: LotRow[]
  /** The last `limit` ledger rows, newest first. */
  entries: LedgerEntry[]
  /** The wallet invariant's two sums (`walletTotals`). */
  wallet: Awaited<ReturnType<typeof walletTotals>>
}

/** One account's wallet for the operator: balances, lots, last ledger rows and the invariant; NOT_FOUND_USER if unknown. */
export async function walletReport(db: Db, email: string, limit: number, now = new Date()): Promise<WalletReport> {
  const { userId, lots } = await userLots(db, email)
  const [{ entries }, wallet, balances] = await Promise.all([
    userLedger(db, email, limit),
    walletTotals(db, userId),
    userBalances(db, userId, now),
  ])
  return { userId, email: email.trim(), balances, lots, entries, wallet }
}

/**
 * docs/API.md `GET /coin` as one SQL expression (JSON text) over the lots of user `?` at instant `?`; its
 * parameters are `coinSummaryParams(userId, nowIso)`. Inside a purchase batch it is evaluated after the
 * batch's writes, so the stored answer shows the balance that purchase left. Same rule as `balances()` +
 * `coinSummary()` of tests/unit/wallet-model.ts (expired and empty lots do not count; expiries grouped per type and instant,
 * soonest first, then in COIN_TYPES order) — a worker test holds the two equal.
 */
export const COIN_SUMMARY_SQL = `(SELECT json_object(
    'coin', coalesce(sum(CASE WHEN type = 'COIN' THEN remaining END), 0),
    'freeCoin', coalesce(sum(CASE WHEN type = 'FREE_COIN' THEN remaining END), 0),
    'bonus', coalesce(sum(CASE WHEN type = 'BONUS' THEN remaining END), 0),
    'mileage', coalesce(sum(CASE WHEN type = 'MILEAGE' THEN remaining END), 0),
    'total', coalesce(sum(CASE WHEN type <> 'MILEAGE' THEN remaining END), 0),
    'expiring', json((SELECT json_group_array(json_object('type', type, 'amount', amount, 'expiresAt', expiresAt)) FROM (
        SELECT type, sum(remaining) AS amount, expires_at AS expiresAt FROM coin_lots
         WHERE user_id = ? AND remaining > 0 AND expires_at IS NOT NULL AND expires_at > ?
         GROUP BY type, expires_at
         ORDER BY expires_at, CASE type WHEN 'COIN' THEN 0 WHEN 'FREE_COIN' THEN 1 WHEN 'BONUS' THEN 2 ELSE 3 END
         LIMIT ${MAX_EXPIRING}))))
  FROM coin_lots WHERE user_id = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?))`

/** Parameters of `COIN_SUMMARY_SQL`. */
export function coinSummaryParams(userId: number, nowIso: string): unknown[] {
  return [userId, nowIso, userId, nowIso]
}

/**
 * docs/API.md `GET /api/v1/coin`: the reader's balances per type and the next expiries (one query over the reader's
 * lots, moneyDb). Given the access token's session claim, the reader's object checks first that its session has not
 * ended (ASVS 7.4.1/7.4.3: NEED_TO_REFRESH), in the same call: no D1 query.
 */
export async function coinOf(db: Db, userId: number, now = new Date(), session?: SessionClaim): Promise<CoinSummary> {
  const coin = await moneyDb(db, userId, session).first<{ coin: string }>(
    `SELECT ${COIN_SUMMARY_SQL} AS coin`,
    ...coinSummaryParams(userId, now.toISOString()),
  )
  return JSON.parse(coin!.coin) as CoinSummary
}

/** One row of a history page (docs/API.md `GET /coin/history`). */
export type HistoryItem = {
  id: number
  kind: LedgerKind
  source: CoinSource
  type: CoinType
  /** Signed coins: > 0 came in, < 0 went out. */
  amount: number
  createdAt: string
  productKind: 'COIN_PRODUCT' | 'EPISODE' | null
  seriesId: number | null
  seriesTitle: string | null
  episodeId: number | null
  episodeNo: number | null
  purchaseId: number | null
  /** When the coins of the lot concerned stop being spendable (null: never). */
  expiresAt: string | null
  /**
   * Why a payment's coins moved when it is not plain (issue 34): `DEBT` coins of a top-up that settled what a
   * refunded or disputed payment left owed, `REFUND_REFUSED` coins given back when the provider refused a refund.
   */
  note: HistoryNote | null
  /** An operator's charge or deduction (source ADMIN): the reason they gave, which the reader reads (issue 39 point 5). */
  reason: string | null
}

/** See `HistoryItem.note`: the ledger row's description of a PAYMENT row. */
type HistoryNote = 'DEBT' | 'REFUND_REFUSED'

/**
 * docs/API.md `GET /api/v1/coin/history?kind=CHARGE|USE|MILEAGE&cursor=`: the reader's own ledger rows of that
 * page (spec §2 history pages, kinds grouped by `HISTORY_PAGES`), within the spec §9 window, newest first,
 * `HISTORY_PAGE_SIZE` at a time; `next` is the cursor of the following page or null. An operator's entry carries
 * their reason (`reason`); other descriptions and internal references stay out. INVALID_PARAMETER for a cursor that is not ours. The rows come
 * from the reader's money rows (ledger and lots), then the titles of their series and episodes from the catalogue in
 * one statement (none when the page names no episode).
 */
export async function coinHistory(
  db: Db,
  userId: number,
  query: HistoryQuery,
  now = new Date(),
): Promise<{ items: HistoryItem[]; next: string | null }> {
  const page = HISTORY_PAGES[query.kind]
  const cursor = query.cursor === undefined ? null : decodeHistoryCursor(query.cursor)
  if (query.cursor !== undefined && !cursor) throw new AppError('INVALID_PARAMETER', { fields: 'cursor' })
  const kinds = page.kinds.map(() => '?').join(', ')
  const found = await moneyDb(db, userId).all<
    Cols<
      'coin_ledger',
      'id' | 'kind' | 'source' | 'type' | 'amount' | 'created_at' | 'product_kind' | 'series_id' | 'episode_id' | 'purchase_id'
    > & {
      expiresAt: CoinLotsRow['expires_at']
      note: HistoryNote | null
      reason: string | null
    }
  >(
    `SELECT l.id, l.kind, l.source, l.type, l.amount, l.created_at AS createdAt, l.product_kind AS productKind,
            l.series_id AS seriesId, l.episode_id AS episodeId, l.purchase_id AS purchaseId, lot.expires_at AS expiresAt,
            CASE WHEN l.source = 'PAYMENT' THEN CASE l.description WHEN 'debt' THEN 'DEBT' WHEN 'refund_refused' THEN 'REFUND_REFUSED' END END AS note,
            CASE WHEN l.source = 'ADMIN' THEN l.description END AS reason
       FROM coin_ledger l
       LEFT JOIN coin_lots lot ON lot.id = l.lot_id
      WHERE l.user_id = ? AND l.kind IN (${kinds}) AND (l.type = 'MILEAGE') = ? AND l.created_at >= ?
        AND (? IS NULL OR l.created_at < ? OR (l.created_at = ? AND l.id < ?))
      ORDER BY l.created_at DESC, l.id DESC
      LIMIT ?`,
    userId,
    ...page.kinds,
    page.mileage ? 1 : 0,
    historySince(query.kind, now),
    cursor?.createdAt ?? null,
    cursor?.createdAt ?? null,
    cursor?.createdAt ?? null,
    cursor?.id ?? null,
    HISTORY_PAGE_SIZE + 1,
  )
  const shown = found.slice(0, HISTORY_PAGE_SIZE)
  const titles = await catalogueTitles(db, shown)
  const items: HistoryItem[] = shown.map(({ seriesId, episodeId, purchaseId, expiresAt, note, ...r }) => ({
    ...r,
    seriesId,
    seriesTitle: seriesId === null ? null : (titles.series.get(seriesId) ?? null),
    episodeId,
    episodeNo: episodeId === null ? null : (titles.episodes.get(episodeId) ?? null),
    purchaseId,
    expiresAt,
    note,
  }))
  const last = items[items.length - 1]
  return { items, next: found.length > HISTORY_PAGE_SIZE && last ? encodeHistoryCursor({ createdAt: last.createdAt, id: last.id }) : null }
}

/**
 * The titles of the series and the numbers of the episodes some money rows name, from the catalogue in one statement
 * (no statement when they name none): a money statement cannot join the catalogue.
 */
export async function catalogueTitles(
  db: Db,
  named: readonly { seriesId: number | null; episodeId: number | null }[],
): Promise<{ series: Map<number, SeriesRow['title']>; episodes: Map<number, EpisodesRow['no']> }> {
  const seriesIds = [...new Set(named.flatMap((n) => (n.seriesId === null ? [] : [n.seriesId])))]
  const episodeIds = [...new Set(named.flatMap((n) => (n.episodeId === null ? [] : [n.episodeId])))]
  const series = new Map<number, SeriesRow['title']>()
  const episodes = new Map<number, EpisodesRow['no']>()
  if (seriesIds.length === 0 && episodeIds.length === 0) return { series, episodes }
  const found = await db.all<{ kind: 'S' | 'E'; id: number; title: SeriesRow['title'] | null; no: EpisodesRow['no'] | null }>(
    `SELECT 'S' AS kind, id, title, NULL AS no FROM series WHERE id IN (SELECT value FROM json_each(?))
     UNION ALL SELECT 'E', id, NULL, no FROM episodes WHERE id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(seriesIds),
    JSON.stringify(episodeIds),
  )
  for (const f of found) {
    if (f.kind === 'S') series.set(f.id, f.title!)
    else episodes.set(f.id, f.no!)
  }
  return { series, episodes }
}

/** Lots one sweep batch empties (two statements each, well inside D1's per-batch limits). */
const EXPIRE_CHUNK = 50

/**
 * The expiry sweep (issue 4 §1, a cron trigger): every lot past its expiry that still holds coins is emptied,
 * each with one EXPIRE ledger row (amount = −remaining), so the ledger says when coins left. Balances never
 * counted those coins anyway (`balances()` skips expired lots); the sweep makes the history and Σ ledger agree
 * with what the reader can spend. Guarded per lot (`remaining = ?` as read; the ledger row's amount is 0 when
 * the update changed nothing, which the CHECK refuses): a chunk that lost a race is retried lot by lot (a lot that
 * changed meanwhile is read again by the next round). Reads `limit` lots per round (oldest expiry first) and goes
 * on round after round until no expired lot is left or the budget is spent (src/lib/server/sweep.ts); then the
 * next run continues. `done`: nothing was left. It scans every reader's lots at once, so it stays on the shared `db`
 * (a sweep across readers, not one reader's money batch).
 */
export async function expireLots(
  db: Db,
  now = new Date(),
  limit = 500,
  budget: SweepBudget = cronBudget(),
): Promise<{ lots: number; coins: number; done: boolean }> {
  const nowIso = now.toISOString()
  const size = Math.max(1, Math.min(5000, Math.trunc(limit)))
  let lots = 0
  let coins = 0
  const round = async (): Promise<number> => {
    const due = await db.all<Cols<'coin_lots', 'id' | 'user_id' | 'type' | 'source' | 'remaining'>>(
      `SELECT id, user_id AS userId, type, source, remaining FROM coin_lots WHERE remaining > 0 AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at, id LIMIT ?`,
      nowIso,
      size,
    )
    const statementsOf = (l: (typeof due)[number]) => [
      { sql: `UPDATE coin_lots SET remaining = 0 WHERE id = ? AND remaining = ? AND expires_at <= ?`, params: [l.id, l.remaining, nowIso] },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, description, created_at)
              VALUES (?, 'EXPIRE', ?, ?, ?, CASE WHEN changes() = 1 THEN ? ELSE 0 END, 'expired', ?)`,
        params: [l.userId, l.id, l.type, l.source, -l.remaining, nowIso],
      },
    ]
    for (let i = 0; i < due.length; i += EXPIRE_CHUNK) {
      const chunk = due.slice(i, i + EXPIRE_CHUNK)
      try {
        await db.batch(chunk.flatMap(statementsOf))
        lots += chunk.length
        coins += chunk.reduce((s, l) => s + l.remaining, 0)
      } catch (e) {
        if (!isConstraint(e, 'CHECK')) throw e
        for (const l of chunk) {
          try {
            await db.batch(statementsOf(l))
            lots += 1
            coins += l.remaining
          } catch (err) {
            if (!isConstraint(err, 'CHECK')) throw err // changed meanwhile: next round
          }
        }
      }
    }
    return due.length
  }
  const [result] = await sweep([round], size, budget)
  return { lots, coins, done: result!.done }
}
