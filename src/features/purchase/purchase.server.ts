/**
 * Renting and buying episodes (docs/API.md `POST /api/v1/purchase`). The shared facts — the episodes with their prices —
 * come from the catalogue first (`saleTerms`); then the sale is one call to the reader's object
 * (`decide`, src/objects/reader/procedures.server.ts), which reads the reader's money, checks and plans the sale and
 * writes it (`sell`) in one turn that no other call of that reader interleaves: no re-plan, no retry.
 */
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db, Statement } from '../../lib/server/db.ts'
import type { PurchasesRow, WufTicketsRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, rows, type Cols, type Flag } from '../../lib/server/rows.ts'
import { opensAt, termsAt } from '../catalogue/early.server.ts'
import type { CoinSummary, CoinType } from '../wallet/wallet.ts'
import { COIN_SUMMARY_SQL, coinSummaryParams, type SpendableLotRow } from '../wallet/wallet.server.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { keyTaken, settled, storedData, storeResponseStatement, type Decision } from '../wallet/idempotency.server.ts'
import { checkSale, planPurchase, rentalEnd, type PurchaseKind, type SaleEpisode } from './purchase.ts'
import { CATALOGUE_KEEP_SECONDS } from '../../lib/cache.ts'
import { BUY_GUARD_SQL, HELD_SQL, heldParams, type HoldingRow } from '../ownership/holding.server.ts'
import type { PurchaseRequest } from './purchase.schema.ts'
import { purchasePreview, type PurchasePreview } from './preview.ts'
import { currentTicket } from '../freetime/freetime.ts'
import { withinBudget } from './budget.ts'
import { mayOpen, type AgeEdition } from '../age/age.ts'
import { ADULT_STATE_SQL, adultNow, type AdultRow } from '../age/age.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import { limitAt, NO_LIMIT, pastLimit, spendingMonth, type LimitState, type SpendingMonth } from '../spending/spending.ts'
import { LIMIT_SQL, MONTH_SPENT_SQL } from '../spending/limit.server.ts'
import { decide, moneyDb } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'
import { BoundedMap } from '../../lib/bounded-map.ts'

/**
 * A reader's holdings with the coins each cost (`paid`: what a purchase for good deducts from a running rental,
 * `holdingState`); the caller appends the condition on `o.episode_id` or `o.series_id`.
 */
const PAID_HOLDINGS_SQL = `SELECT o.episode_id AS episodeId, o.kind, o.expires_at AS expiresAt, coalesce(p.coins, 0) AS paid
  FROM ownerships o LEFT JOIN purchases p ON p.id = o.purchase_id WHERE o.user_id = ?`

/**
 * Issue 12 point 10: the one conditional statement of an automatic unlock (`auto`), first in its batch: adds
 * the price to what was spent under the reader's cap for the series only while it stays within the budget (the
 * rule `withinBudget`). When it changes nothing (no opt-in, or the cap is reached), the purchase row that follows
 * gets coins -1 and the whole batch fails.
 */
const AUTO_UNLOCK_SQL = `UPDATE auto_unlock SET spent = spent + ?1 WHERE user_id = ?2 AND series_id = ?3 AND spent + ?1 <= budget`

/**
 * SQL over the reader's money rows (moneyDb; `?`: the reader): how many episodes they rented or bought with coins
 * (`GET /user/me`'s `purchaseCount`; gifts and wait-until-free tickets are not purchases).
 */
export const PURCHASE_COUNT_SQL = `(SELECT count(*) FROM purchases WHERE user_id = ? AND gift_id IS NULL AND type IN ('RENT', 'POSSESSION'))`

export type PurchaseInput = {
  userId: number
  /**
   * The access token's session claim, checked in the reader's object by the sale's own call (ASVS 7.4.1/7.4.3 without
   * a round trip of its own; see `checksSessionItself` in the session middleware): an ended session → NEED_TO_REFRESH.
   */
  session?: SessionClaim
  request: PurchaseRequest
  /** The request's Idempotency-Key claim; its row commits with the purchase. */
  claim: IdempotencyClaim
  /** Edition `rentalHours` (spec §3: rental length per edition). */
  rentalHours: number
  /** The edition's adult rules (spec §4/§5); without them only the common ones apply (verification valid 1 year). */
  ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>
  /** The edition's time zone: the reader's spending limit counts its calendar months. */
  timeZone: string
}

/** One episode sold: what the reader now holds and until when (null: forever). */
type PurchaseLine = { episodeId: number; kind: PurchaseKind; expiresAt: string | null }
export type PurchaseResult = { purchases: PurchaseLine[]; coin: CoinSummary }

/** What the shared side tells the reader's object for a sale: the request, the catalogue's episodes, the reader's age. */
export type SaleOrder = {
  userId: number
  request: PurchaseRequest
  claim: IdempotencyClaim
  episodes: SaleEpisode[]
  /** The edition's adult rules: the object decides with the account card whether the reader is an adult now (`adultNow`). */
  ageRules: PurchaseInput['ageRules']
  now: string
  /** When a rental made now ends (null: a purchase for good). */
  expiresAt: string | null
  /** The month the reader's spending limit counts (the edition's time zone). */
  month: SpendingMonth
}

type EpisodeRow = Cols<'episodes', 'id' | 'series_id' | 'is_free' | 'price_rent' | 'price_buy'> &
  Cols<'series', 'is_adult'> & { early: Flag }
type PaidHoldingRow = HoldingRow & { paid: PurchasesRow['coins'] }
type AutoCapRow = Cols<'auto_unlock', 'series_id' | 'budget' | 'spent'>
type LotRow = SpendableLotRow & Cols<'coin_lots', 'source'>

/**
 * Sells the episodes of `request` to the reader: their sale terms (`saleTerms`: kept, or one D1 query), then one call
 * to the reader's object checks the access token's session (NEED_TO_REFRESH) and sells (`sell`) with the reader's
 * account card. An unknown or withdrawn account → NOT_LOGIN_USER; the refusals of `checkSale` and `sell` as
 * their codes. When the key was stored before (a duplicate that committed first) it throws IdempotencyKeyTaken: the
 * middleware answers with the stored response.
 */
export async function purchaseEpisodes(db: Db, input: PurchaseInput, now = new Date()): Promise<PurchaseResult> {
  const { userId, request } = input
  const nowIso = now.toISOString()
  const { krAdultAuth, adultNeedsBirthDate, notLoggedInAdultCookie } = input.ageRules
  const order: SaleOrder = {
    userId,
    request,
    claim: input.claim,
    episodes: await saleTerms(db, request.episodeIds, now),
    ageRules: { krAdultAuth, adultNeedsBirthDate, notLoggedInAdultCookie },
    now: nowIso,
    expiresAt: request.kind === 'RENT' ? rentalEnd(now, input.rentalHours) : null,
    month: spendingMonth(now, input.timeZone),
  }
  const { spent, ...sold } = settled(await decide(userId, 'sell', order, { session: input.session, account: true }))
  await countMetric({ name: 'purchase', key: request.kind, count: sold.purchases.length, total: spent }, now)
  return sold
}

/** Episodes' sale terms as last read, each with the instants between which they hold. */
const keptTerms = new BoundedMap<number, { terms: SaleEpisode; from: number; until: number }>(5000)
const KEEP_MS = CATALOGUE_KEEP_SECONDS * 1000

/**
 * The sale terms at `now` of those of `ids` that are for sale (published in a published series, or open early), from
 * the catalogue as a reader's page shows it: kept in the isolate for up to `CATALOGUE_KEEP_SECONDS`, as the edge cache
 * keeps the pages the reader bought from (docs/ARCHITECTURE.md "Sale terms"). When one of them is not kept, one D1
 * query reads them all. Terms that change at a set time change on time: an early episode's (its early prices, never
 * free) are kept only until its publication (`termsAt`). A release's buyers are many readers buying the same episodes:
 * 50 readers buying at once, 192 sales a second with a D1 query each, 240–248 with the terms kept (`npm run bench --
 * --purchase`).
 */
async function saleTerms(db: Db, ids: readonly number[], now: Date): Promise<SaleEpisode[]> {
  const at = now.getTime()
  const kept = ids.map((id) => keptTerms.get(id)).filter((k) => k !== undefined && k.from <= at && at < k.until)
  if (kept.length === ids.length) return kept.map((k) => k!.terms)
  // an episode open early (issue 37 point 1) sells at its early prices, the same sale otherwise
  const rows = await db.all<EpisodeRow & Cols<'episodes', 'published_at'>>(
    `SELECT e.id, e.series_id AS seriesId, ${termsAt('e', '?2')}, s.is_adult AS isAdult, e.published_at AS publishedAt
       FROM episodes e JOIN series s ON s.id = e.series_id
      WHERE e.id IN (SELECT value FROM json_each(?1)) AND s.is_published = 1 AND ${opensAt('e', '?2')}`,
    JSON.stringify(ids),
    now.toISOString(),
  )
  return rows.map(({ early, publishedAt, ...e }) => {
    const terms = { ...e, isFree: flag(e.isFree), isAdult: flag(e.isAdult) }
    keptTerms.set(e.id, { terms, from: at, until: Math.min(at + KEEP_MS, flag(early) ? Date.parse(publishedAt) : Infinity) })
    return terms
  })
}

/**
 * A sale inside the reader's object (rules: `checkSale`, then `planPurchase`; COIN_INSUFFICIENT when the balance is
 * short). `run` runs a batch over the reader's money rows in one transaction; the object calls this without awaiting
 * anything, so between the read and the write no other call of the reader runs. It reads the idempotency key, the
 * reader's holdings of the episodes, their coin lots, for an automatic unlock their opt-ins, and their spending limit
 * with this month's spending (SPENDING_LIMIT_REACHED past it, before the balance is looked at); then writes the money
 * in one batch:
 *
 * - for an automatic unlock (`auto`, one episode), first `AUTO_UNLOCK_SQL`: the cap checked and what was spent
 *   changed in one conditional statement;
 * - per episode: a `purchases` row whose coins are -1 (CHECK coins >= 0 fails the batch) when the automatic
 *   unlock's update changed nothing, or when the reader holds the episode at write time (`HELD_SQL` for a
 *   rental; `BUY_GUARD_SQL` for a purchase for good: kept, or its running rentals — its price — changed); for a
 *   rental, the reader's ended rental of that episode is dropped; an `ownerships` row (unique per user, episode and
 *   kind); then per lot drawn a conditional update (`remaining >= take`, lot not expired) followed by its USE ledger
 *   row, whose amount is `-take` only when the update changed one row and 0 otherwise — the ledger's CHECK
 *   (amount <> 0) then fails the whole batch (the guard of `adminAdjust`);
 * - last, the idempotency row holding the answer, computed in SQL after the writes.
 *
 * The guards hold what the plan read; as nothing runs in between they never fire, and if one did (a plan gone wrong),
 * the batch wrote nothing and the purchase fails with its text. The `purchases` inserts raise the ranking's event in the object's outbox
 * (reader migration 6's trigger).
 */
export function sell(run: MoneyRun, order: SaleOrder, account?: AdultRow | null): Decision<PurchaseResult & { spent: number }> {
  const { userId, request, claim, expiresAt } = order
  const now = new Date(order.now)
  const adult = adultNow(account ?? undefined, order.ageRules, now)
  if (adult === null) return { refused: 'NOT_LOGIN_USER' }
  const nowIso = order.now
  const ids = JSON.stringify(request.episodeIds)
  const read = run([
    keyTaken(claim),
    { sql: `${PAID_HOLDINGS_SQL} AND o.episode_id IN (SELECT value FROM json_each(?))`, params: [userId, ids] },
    {
      sql: `SELECT id, type, remaining, expires_at AS expiresAt, source FROM coin_lots WHERE user_id = ? AND remaining > 0`,
      params: [userId],
    },
    // the reader's opt-ins (one row per series; the episode's series came with the order)
    {
      sql: `SELECT series_id AS seriesId, budget, spent FROM auto_unlock WHERE ?2 AND user_id = ?1`,
      params: [userId, request.auto ? 1 : 0],
    },
    // the reader's spending limit and what they spent on episodes this month
    { sql: LIMIT_SQL, params: [] },
    { sql: MONTH_SPENT_SQL, params: [userId, order.month.since] },
  ])
  if (!read.ok) return read
  const [keyRow, holdingRows, lotRows, autoRows, limitRow, spentRow] = read.results
  if (keyRow!.results.length > 0) return { taken: true }
  const sale = checkSale(request, order.episodes, rows<PaidHoldingRow>(holdingRows), { isAdult: adult }, now)
  if (!sale.ok) return { refused: sale.code, ...(sale.episodeId === undefined ? {} : { details: { episodeId: sale.episodeId } }) }
  // an automatic unlock past the reader's cap (or without an opt-in) is not made: "cannot be bought at the moment"
  const autoSeries = order.episodes.find((e) => e.id === request.episodeIds[0])?.seriesId
  const cap = rows<AutoCapRow>(autoRows).find((a) => a.seriesId === autoSeries)
  if (request.auto && !(cap && withinBudget(cap, sale.total))) return { refused: 'POSSESSION_PURCHASE_IMPOSSIBLE' }
  // past the reader's monthly limit: refused whatever the balance (more coins would not help)
  const limit = limitAt(firstRow<LimitState>(limitRow) ?? NO_LIMIT, now).coins
  const { spent } = firstRow<{ spent: number }>(spentRow)!
  if (pastLimit(limit, spent, sale.total))
    return { refused: 'SPENDING_LIMIT_REACHED', details: { limit, spent, resetsAt: order.month.resetsAt } }
  const lots = rows<LotRow>(lotRows)
  const plan = planPurchase(lots, sale.items, now)
  if (!plan) return { refused: 'COIN_INSUFFICIENT' }

  const lotById = new Map(lots.map((l) => [l.id, l]))
  const lines: PurchaseLine[] = []
  const statements: Statement[] = []
  sale.items.forEach((item, i) => {
    if (request.auto) statements.push({ sql: AUTO_UNLOCK_SQL, params: [item.price, userId, item.seriesId] })
    // a rental: refused while the episode is held; a purchase for good: while kept, or when its rentals changed
    const guard =
      request.kind === 'RENT'
        ? { sql: HELD_SQL, params: heldParams(userId, item.episodeId, nowIso) }
        : { sql: BUY_GUARD_SQL, params: [userId, item.episodeId, nowIso, userId, item.episodeId, nowIso, item.runningCount ?? 0] }
    statements.push({
      sql: `INSERT INTO purchases (user_id, series_id, episode_id, type, coins, idempotency_key, created_at)
            VALUES (?, ?, ?, ?, CASE WHEN ${request.auto ? 'changes() <> 1 OR ' : ''}${guard.sql} THEN -1 ELSE ? END, ?, ?)`,
      params: [userId, item.seriesId, item.episodeId, request.kind, ...guard.params, item.price, claim.key, nowIso],
    })
    if (request.kind === 'RENT') {
      statements.push({
        sql: `DELETE FROM ownerships WHERE user_id = ? AND episode_id = ? AND kind = 'RENT' AND expires_at IS NOT NULL AND expires_at <= ?`,
        params: [userId, item.episodeId, nowIso],
      })
    }
    statements.push({
      sql: `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at, purchase_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, last_insert_rowid(), ?, ?)`,
      params: [userId, item.seriesId, item.episodeId, request.kind, expiresAt, nowIso, nowIso],
    })
    for (const step of plan[i]!.steps) {
      const lot = lotById.get(step.lotId)!
      statements.push(
        {
          sql: `UPDATE coin_lots SET remaining = remaining - ? WHERE id = ? AND user_id = ? AND remaining >= ? AND (expires_at IS NULL OR expires_at > ?)`,
          params: [step.take, step.lotId, userId, step.take, nowIso],
        },
        {
          sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, series_id, episode_id, purchase_id, idempotency_key, created_at)
                VALUES (?, 'USE', ?, ?, ?, CASE WHEN changes() = 1 THEN ? ELSE 0 END, 'EPISODE', ?, ?,
                        (SELECT purchase_id FROM ownerships WHERE user_id = ? AND episode_id = ? AND kind = ?), ?, ?)`,
          params: [
            userId,
            step.lotId,
            lot.type satisfies CoinType,
            lot.source,
            -step.take,
            item.seriesId,
            item.episodeId,
            userId,
            item.episodeId,
            request.kind,
            claim.key,
            nowIso,
          ],
        },
      )
    }
    lines.push({ episodeId: item.episodeId, kind: request.kind, expiresAt })
  })
  statements.push(
    storeResponseStatement(
      claim,
      200,
      `json_object('result', 'SUCCESS', 'data', json_object('purchases', json(?), 'coin', json(${COIN_SUMMARY_SQL})))`,
      [JSON.stringify(lines), ...coinSummaryParams(userId, nowIso)],
    ),
  )
  const written = run(statements)
  return written.ok ? { result: { ...storedData<PurchaseResult>(written.results), spent: sale.total } } : written
}

type PreviewTarget = Cols<'episodes', 'series_id'> & Cols<'series', 'is_adult' | 'wuf_hours'> & { early: Flag }

/**
 * `GET /api/v1/purchase/preview?episodeId=` (issue 4 §3): the rent-or-buy choice of one episode for the reader —
 * prices, the "unlock all remaining" cost, which coins each offer draws, and the series' wait-until-free ticket
 * (rules: `purchasePreview`). Two reads, one after the other: the episode, its series' episodes and the account
 * (one D1 batch), then the reader's holdings in that series, coin lots and last ticket use (one `moneyDb` batch,
 * skipped for an unknown episode). NOT_FOUND_EPISODE for an unknown or unpublished episode, ADULT_ONLY_CONTENTS for
 * an adult series and a reader who is not a confirmed adult.
 */
export async function previewPurchase(
  db: Db,
  userId: number,
  episodeId: number,
  ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>,
  now = new Date(),
): Promise<PurchasePreview> {
  const nowIso = now.toISOString()
  const [targetRes, userRes, episodesRes] = await db.batch([
    {
      sql: `SELECT e.series_id AS seriesId, s.is_adult AS isAdult, s.wuf_hours AS wufHours, e.published_at > ?2 AS early
              FROM episodes e JOIN series s ON s.id = e.series_id
             WHERE e.id = ?1 AND s.is_published = 1 AND ${opensAt('e', '?2')}`,
      params: [episodeId, nowIso],
    },
    { sql: ADULT_STATE_SQL, params: [userId] },
    {
      // the series' published episodes, and the episode itself when it is open early (never in "all remaining")
      sql: `SELECT id, no, ${termsAt('e', '?2')} FROM episodes e
             WHERE series_id = (SELECT series_id FROM episodes WHERE id = ?1) AND (published_at <= ?2 OR (id = ?1 AND ${opensAt('e', '?2')}))
             ORDER BY no LIMIT 2000`,
      params: [episodeId, nowIso],
    },
  ])
  const target = firstRow<PreviewTarget>(targetRes)
  if (!target) throw new AppError('NOT_FOUND_EPISODE')
  const adult = adultNow(firstRow<AdultRow>(userRes), ageRules, now)
  if (adult === null) throw new AppError('NOT_LOGIN_USER')
  if (!mayOpen(flag(target.isAdult), adult)) throw new AppError('ADULT_ONLY_CONTENTS')
  const [holdingsRes, lotsRes, wufRes] = await moneyDb(db, userId).batch([
    { sql: `${PAID_HOLDINGS_SQL} AND o.series_id = ?`, params: [userId, target.seriesId] },
    { sql: `SELECT id, type, remaining, expires_at AS expiresAt FROM coin_lots WHERE user_id = ? AND remaining > 0`, params: [userId] },
    { sql: `SELECT max(used_at) AS lastUsedAt FROM wuf_tickets WHERE user_id = ? AND series_id = ?`, params: [userId, target.seriesId] },
  ])
  const episodes = rows<Cols<'episodes', 'id' | 'no' | 'is_free' | 'price_rent' | 'price_buy'>>(episodesRes).map((e) => ({
    ...e,
    isFree: flag(e.isFree),
  }))
  const wufHours = flag(target.early) ? null : target.wufHours // wait-until-free never opens an early episode
  const lastUsedAt = firstRow<{ lastUsedAt: WufTicketsRow['used_at'] }>(wufRes)?.lastUsedAt ?? null
  const wuf = wufHours === null ? null : { hours: wufHours, ticket: currentTicket(wufHours, lastUsedAt, now) }
  const preview = purchasePreview(episodeId, episodes, rows<PaidHoldingRow>(holdingsRes), rows<SpendableLotRow>(lotsRes), now, wuf)
  if (!preview) throw new AppError('NOT_FOUND_EPISODE')
  return preview
}
