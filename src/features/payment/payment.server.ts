/**
 * The coin shop on D1 (docs/API.md `GET /payment/products`, `POST /payment/charge`, `POST /payment/webhook/{provider}`;
 * docs/ARCHITECTURE.md "Money: the wallet"). A charge only records an UNPAID payment (with its idempotency row, in one
 * batch); coins move when the provider's verified webhook says the payment succeeded, in one batch that also
 * flips the payment UNPAID → PAID under a guard, so a replayed or concurrent webhook can never credit twice.
 *
 * Payments are a reader's money rows (issue 38, docs/ARCHITECTURE.md "Reader objects"): every statement over them goes
 * through `moneyDb(db, readerId)`. A webhook names a payment and no reader: the shared index `payment_readers`
 * (migration 0037) says whose it is.
 */
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { AppError, type ErrorCode } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { DAY_MS, isoAfter } from '../../lib/time.ts'
import type { PaymentReversalsRow, PaymentsRow } from '../../lib/server/db-types.ts'
import { firstRow, rows, type Cols } from '../../lib/server/rows.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import {
  IdempotencyKeyTaken,
  isKeyTaken,
  keyTaken,
  settled,
  storedData,
  storeResponseStatement,
  type Decision,
} from '../wallet/idempotency.server.ts'
import {
  checkCharge,
  isPaymentId,
  isPaymentMethod,
  newEventId,
  newPaymentId,
  paymentGrants,
  planDebtNetting,
  planRefund,
  planReversal,
  REFUND_DAYS,
  refundRefusal,
  type ChargeRequest,
  type CoinProduct,
  type OpenDebt,
  type PaymentView,
} from './payment.ts'
import type { CoinSummary } from '../wallet/wallet.ts'
import { topUpCouponStatements, topUpCoupons } from '../coupon/coupon.server.ts'
import type { Coupon } from '../coupon/coupon.ts'
import { decide, moneyDb } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'
import type { ConversionProvider } from './conversion.ts'
import { normalizePhone, type Address, type AddressRequest } from './address.ts'

/** Spec §7 conversion call on a paid charge (null: the edition's flag is off). */
export type ConversionOptions = { provider: ConversionProvider; actionUrl: string } | null
import { COIN_SUMMARY_SQL, coinSummaryParams } from '../wallet/wallet.server.ts'
import { sandboxWebhook, type CheckoutEvent, type PaymentProvider, type ProviderEvent, type ReversalEvent } from './provider.ts'
import { providerById } from './providers.server.ts'
import { withReader } from '../reader/stub.server.ts'
import { isConstraint } from '../../lib/server/constraint.ts'

const PRODUCT_COLUMNS = `id, coins, bonus, price, currency, label, per_user_limit AS perUserLimit, stock_limit AS stockLimit, sold_count AS soldCount`
type ProductRow = Cols<
  'coin_products',
  'id' | 'coins' | 'bonus' | 'price' | 'currency' | 'label' | 'per_user_limit' | 'stock_limit' | 'sold_count'
>
const PAYMENT_COLUMNS = `id, product_id AS productId, state, method, amount, currency, coins, bonus, created_at AS createdAt, paid_at AS paidAt`
type PaymentRow = Cols<
  'payments',
  'id' | 'product_id' | 'state' | 'method' | 'amount' | 'currency' | 'coins' | 'bonus' | 'created_at' | 'paid_at'
>
/** A row of CAUSED_LOTS_SQL. */
type CausedLotRow = Cols<'coin_lots', 'id' | 'type' | 'amount' | 'remaining'>

/** Where the shop sells: the edition's currency and the caller's platform (spec §3 platform; null = every platform). */
export type ShopScope = { currency: string; platform: string }

/** The active coin products of the shop, in display order (docs/API.md `GET /payment/products`). */
export async function listProducts(db: Db, scope: ShopScope): Promise<CoinProduct[]> {
  return db.all<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM coin_products WHERE is_active = 1 AND currency = ? AND (platform IS NULL OR platform = ?) ORDER BY position, id LIMIT 100`,
    scope.currency,
    scope.platform,
  )
}

/** A product of the shop with the refusal a charge of it would meet now (`checkCharge`), null when it may be bought. */
export type ShopOffer = CoinProduct & { refusal: ErrorCode | null }

/**
 * The shop's products as one reader may buy them (issue 35 point 4): each with the refusal `createCharge` would
 * answer now, by the same rule (`checkCharge`) over the reader's PAID payments of it; a guest (null) meets the
 * stock alone. The page offers only the products without one.
 */
export async function shopOffers(db: Db, scope: ShopScope, userId: number | null): Promise<ShopOffer[]> {
  const [products, paid] = await Promise.all([
    listProducts(db, scope),
    userId === null
      ? Promise.resolve([])
      : moneyDb(db, userId).all<{ productId: PaymentsRow['product_id']; n: number }>(
          `SELECT product_id AS productId, count(*) AS n FROM payments WHERE user_id = ? AND state = 'PAID' GROUP BY product_id`,
          userId,
        ),
  ])
  const paidOf = new Map(paid.map((r) => [r.productId, r.n]))
  return products.map((p) => {
    const check = checkCharge(p, paidOf.get(p.id) ?? 0)
    return { ...p, refusal: check.ok ? null : check.code }
  })
}

export type ChargeInput = {
  userId: number
  request: ChargeRequest
  claim: IdempotencyClaim
  scope: ShopScope
  /** The site the reader is on (the provider brings the reader back to it). */
  origin: string
  /** The edition's configured provider; null: payments are unavailable here (NOT_FOUND_PAYMENT_METHOD). */
  provider: PaymentProvider | null
}
export type ChargeResult = { paymentId: string; checkoutUrl: string }

/**
 * docs/API.md `POST /payment/charge`: an UNPAID payment for the product and the checkout URL where the reader pays.
 * NOT_FOUND_PAYMENT_METHOD, NOT_FOUND_COIN_PRODUCT (unknown, inactive, other currency or platform),
 * LIMITED_COIN_PRODUCT (stock sold out), LIMITED_COIN_PRODUCT_USER (the reader's PAID payments of it reached its
 * per-user limit). The payment row and the idempotency row commit together; a duplicate in flight that committed
 * first makes this one throw IdempotencyKeyTaken (the middleware answers with the stored first answer).
 */
export async function createCharge(db: Db, input: ChargeInput): Promise<ChargeResult> {
  const { userId, request, claim, scope } = input
  const provider = input.provider
  if (!provider || !isPaymentMethod(request.method)) throw new AppError('NOT_FOUND_PAYMENT_METHOD')
  const money = moneyDb(db, userId)
  // the reader's rows and the shop's product side by side (two round trips at once)
  const [[keyRow, paidRow], productRow] = await Promise.all([
    money.batch([
      keyTaken(claim),
      {
        sql: `SELECT count(*) AS n FROM payments WHERE user_id = ? AND product_id = ? AND state = 'PAID'`,
        params: [userId, request.productId],
      },
    ]),
    db.first<ProductRow>(
      `SELECT ${PRODUCT_COLUMNS} FROM coin_products WHERE id = ? AND is_active = 1 AND currency = ? AND (platform IS NULL OR platform = ?)`,
      request.productId,
      scope.currency,
      scope.platform,
    ),
  ])
  if (keyRow!.results.length > 0) throw new IdempotencyKeyTaken()
  const product: CoinProduct | null = productRow
  const check = checkCharge(product, firstRow<{ n: number }>(paidRow)!.n)
  if (!check.ok) throw new AppError(check.code)
  const p = product!
  const paymentId = newPaymentId()
  // the provider first (its idempotency key is the payment id): when it fails nothing is written; a webhook for
  // this payment arriving before the row below is refused and redelivered by the provider later
  let checkoutUrl: string
  try {
    ;({ checkoutUrl } = await provider.createCheckout(
      { id: paymentId, amount: p.price, currency: p.currency, coins: p.coins, bonus: p.bonus },
      input.origin,
    ))
  } catch (e) {
    console.error(`payment ${paymentId}: ${provider.id} checkout failed`, e)
    throw new AppError('CLIENT_FETCH_ERROR', { provider: provider.id })
  }
  // the shared index first (migration 0037): a webhook finds the payment's reader through it. When the reader's batch
  // below refuses, the row is taken back; when the worker stops in between, the row names a payment that was never
  // recorded, which a webhook meets as an unknown payment (refused, as without the row) and nothing else reads
  await db.run(`INSERT INTO payment_readers (payment_id, provider, user_id) VALUES (?, ?, ?)`, paymentId, provider.id, userId)
  try {
    await money.batch([
      {
        sql: `INSERT INTO payments (id, user_id, product_id, state, provider, method, amount, currency, coins, bonus, idempotency_key)
              VALUES (?, ?, ?, 'UNPAID', ?, ?, ?, ?, ?, ?, ?)`,
        params: [paymentId, userId, p.id, provider.id, request.method, p.price, p.currency, p.coins, p.bonus, claim.key],
      },
      storeResponseStatement(claim, 200, `json_object('result', 'SUCCESS', 'data', json_object('paymentId', ?, 'checkoutUrl', ?))`, [
        paymentId,
        checkoutUrl,
      ]),
    ])
  } catch (e) {
    // nothing of the payment was written: its index row goes too (left behind, it would name no payment)
    await db.run(`DELETE FROM payment_readers WHERE payment_id = ?`, paymentId).catch((err: unknown) => console.error(err))
    if (isKeyTaken(e) || isConstraint(e, 'UNIQUE', 'payments.user_id')) throw new IdempotencyKeyTaken()
    throw e
  }
  return { paymentId, checkoutUrl }
}

/** A payment of this reader (null for anyone else's, or an id that is not one of ours). */
export async function paymentOf(db: Db, userId: number, paymentId: string): Promise<PaymentView | null> {
  if (!isPaymentId(paymentId)) return null
  return moneyDb(db, userId).first<PaymentRow>(`SELECT ${PAYMENT_COLUMNS} FROM payments WHERE id = ? AND user_id = ?`, paymentId, userId)
}

/**
 * What a verified webhook did: `credited` (UNPAID → PAID, coins granted), `cancelled` (UNPAID → CANCELLED),
 * `reversed` (money given back at the provider: the coins went back, see `reversePayment`), `duplicate` (this
 * event id was processed before: nothing moved), `already_paid` (another event paid it first, spec §8
 * ALREADY_PAID — nothing moved), `ignored` (a cancel for a payment no longer UNPAID, a reversal done before, an
 * event the shop has nothing to do with).
 */
export type WebhookOutcome = 'credited' | 'cancelled' | 'reversed' | 'duplicate' | 'already_paid' | 'ignored'

/** The reader whose payment `paymentId` of `providerId` is (the shared index, migration 0037), or null. */
async function readerOfPayment(db: Db, paymentId: string, providerId?: string): Promise<number | null> {
  const row = await db.first<{ userId: number }>(
    `SELECT user_id AS userId FROM payment_readers WHERE payment_id = ? AND (?2 IS NULL OR provider = ?2)`,
    paymentId,
    providerId ?? null,
  )
  return row?.userId ?? null
}

/**
 * Applies a provider event whose signature was verified. INVALID_PARAMETER when the payment is unknown to this
 * provider (not in the shared index, or not among its reader's payments) or the amount or currency differ from the
 * payment's (nothing moves). A checkout's event is decided inside the reader's object (`settle`), after one D1 batch
 * reading the payment's reader and the live top-up coupons; the shared part of a credit follows it (`creditShared`:
 * the product's sold count, the conversion record, the provider's reference in the index), once per payment.
 */
async function applyProviderEvent(
  db: Db,
  provider: PaymentProvider,
  received: ProviderEvent,
  now = new Date(),
  conversion: ConversionOptions = null,
): Promise<WebhookOutcome> {
  if (received.type === 'other') return 'ignored'
  if (received.type === 'charge.refunded' || received.type === 'charge.disputed')
    return reverseFromProvider(db, provider, received as ReversalEvent, now)
  const event = received as CheckoutEvent
  const completed = event.type === 'checkout.completed'
  const [userId, coupons] = await Promise.all([readerOfPayment(db, event.paymentId, provider.id), completed ? topUpCoupons(db, now) : []])
  // unknown here (yet: the provider redelivers an event we refuse): nothing moves
  if (userId === null) throw new AppError('INVALID_PARAMETER', { fields: 'data' })
  const done = settled(await decide(userId, 'settle', { userId, provider: provider.id, event, coupons, now: now.toISOString() }))
  if (done.shared) await creditShared(db, done.shared, now.toISOString(), conversion)
  if (done.outcome === 'credited') await countMetric({ name: 'topup', key: done.shared!.currency, total: done.shared!.amount }, now)
  return done.outcome
}

/** What `settle` is told: the checkout's event, its reader, and the live top-up coupons (shared facts). */
type SettleOrder = { userId: number; provider: string; event: CheckoutEvent; coupons: Coupon[]; now: string }

/** What `settle` did, and for a payment paid (now or before) what its shared part needs. */
type Settled = { outcome: WebhookOutcome; shared: SharedCredit | null }

/**
 * A checkout's event inside the reader's object (procedures.server.ts): reads the payment, whether the event was
 * applied, and the reader's open debts; decides; then writes ONE batch with nothing in between. A cancel: the event row
 * and UNPAID → CANCELLED. A completed checkout: the event row, UNPAID → PAID, the COIN lot and its CHARGE ledger row,
 * the reader's open debts netted against those coins (`planDebtNetting`: each a CANCEL row), the BONUS lot and its
 * CHARGE row, and the reward of a top-up coupon the reader downloaded (`topUpCouponStatements`). Guards stay in the
 * statements (a lot's amount 0 when the payment was not UNPAID, which its CHECK refuses): a plan gone wrong writes
 * nothing. A replayed event is `duplicate`; a payment another event paid is `already_paid`; both still hand back the
 * shared part, so a worker stopped before it finishes it on the provider's redelivery.
 */
export function settle(run: MoneyRun, order: SettleOrder): Decision<Settled> {
  const { userId, provider, event, coupons, now: nowIso } = order
  const read = run([
    {
      sql: `SELECT state, amount, currency, coins, bonus, product_id AS productId, provider_ref AS providerRef FROM payments WHERE id = ? AND provider = ?`,
      params: [event.paymentId, provider],
    },
    { sql: `SELECT 1 FROM payment_events WHERE provider = ? AND event_id = ?`, params: [provider, event.id] },
    {
      sql: `SELECT payment_id AS paymentId, debt FROM payment_reversals WHERE user_id = ? AND debt > 0 ORDER BY created_at, payment_id`,
      params: [userId],
    },
  ])
  if (!read.ok) return read
  const payment = firstRow<Cols<'payments', 'state' | 'amount' | 'currency' | 'coins' | 'bonus' | 'product_id' | 'provider_ref'>>(
    read.results[0],
  )
  // unknown here (yet: the provider redelivers an event we refuse), or not what was asked: nothing moves
  if (!payment) return { refused: 'INVALID_PARAMETER', details: { fields: 'data' } }
  if (payment.amount !== event.amount || payment.currency !== event.currency) {
    console.error(
      `payment ${event.paymentId}: ${provider} event ${event.id} says ${event.amount} ${event.currency}, the payment is ${payment.amount} ${payment.currency}: refused`,
    )
    return { refused: 'INVALID_PARAMETER', details: { fields: 'data' } }
  }
  const shared = { paymentId: event.paymentId, productId: payment.productId, currency: payment.currency, amount: payment.amount }
  const paid = (outcome: WebhookOutcome, providerRef: string | null): Decision<Settled> => ({
    result: { outcome, shared: { ...shared, providerRef } },
  })
  const completed = event.type === 'checkout.completed'
  // a completed checkout's event row is only ever written with its credit
  if (read.results[1]!.results.length)
    return completed ? paid('duplicate', payment.providerRef) : { result: { outcome: 'duplicate', shared: null } }
  if (payment.state === 'PAID')
    return completed ? paid('already_paid', payment.providerRef) : { result: { outcome: 'ignored', shared: null } }
  if (payment.state !== 'UNPAID') return { result: { outcome: 'ignored', shared: null } }
  const eventRow = {
    sql: `INSERT INTO payment_events (provider, event_id, payment_id, type, received_at) VALUES (?, ?, ?, ?, ?)`,
    params: [provider, event.id, event.paymentId, event.type, nowIso],
  }
  if (!completed) {
    const cancelled = run([
      eventRow,
      {
        sql: `UPDATE payments SET state = 'CANCELLED', cancelled_at = ? WHERE id = ? AND state = 'UNPAID'`,
        params: [nowIso, event.paymentId],
      },
    ])
    return cancelled.ok ? { result: { outcome: 'cancelled', shared: null } } : cancelled
  }
  const [coin, bonus] = paymentGrants(payment, new Date(nowIso))
  const providerRef = event.ref ?? event.id
  const written = run([
    eventRow,
    {
      sql: `UPDATE payments SET state = 'PAID', paid_at = ?, provider_ref = ? WHERE id = ? AND state = 'UNPAID'`,
      params: [nowIso, providerRef, event.paymentId],
    },
    {
      sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, payment_id, created_at)
            VALUES (?, 'COIN', CASE WHEN changes() = 1 THEN ? ELSE 0 END, CASE WHEN changes() = 1 THEN ? ELSE 0 END, ?, 'PAYMENT', ?, ?, ?)`,
      params: [userId, coin!.amount, coin!.amount, coin!.expiresAt, event.paymentId, event.paymentId, nowIso],
    },
    ledgerRow(userId, 'COIN', coin!.amount, event.paymentId, nowIso),
    // issue 34 point 3: the paid coins settle open debts first, each a CANCEL row (described `debt`, ref the reversed
    // payment) — 0, refused by the ledger's CHECK, should a debt not be what was read
    ...planDebtNetting(rows<OpenDebt>(read.results[2]), coin!.amount).flatMap((step) => [
      {
        sql: `UPDATE payment_reversals SET debt = debt - ? WHERE payment_id = ? AND user_id = ? AND debt >= ?`,
        params: [step.take, step.paymentId, userId, step.take],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, description, created_at)
              SELECT ?, 'CANCEL', id, 'COIN', 'PAYMENT', CASE WHEN changes() = 1 THEN ? ELSE 0 END, 'COIN_PRODUCT', ?, 'debt', ?
                FROM coin_lots WHERE source = 'PAYMENT' AND ref = ? AND type = 'COIN'`,
        params: [userId, -step.take, step.paymentId, nowIso, event.paymentId],
      },
      {
        sql: `UPDATE coin_lots SET remaining = remaining - ? WHERE source = 'PAYMENT' AND ref = ? AND type = 'COIN'`,
        params: [step.take, event.paymentId],
      },
    ]),
    ...(bonus
      ? [
          {
            sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, payment_id, created_at) VALUES (?, 'BONUS', ?, ?, ?, 'PAYMENT', ?, ?, ?)`,
            params: [userId, bonus.amount, bonus.amount, bonus.expiresAt, event.paymentId, event.paymentId, nowIso],
          },
          ledgerRow(userId, 'BONUS', bonus.amount, event.paymentId, nowIso),
        ]
      : []),
    // spec §3 coupon minimum amount: a downloaded coupon waiting for a top-up this large gives its reward now
    ...topUpCouponStatements(userId, coupons, payment.amount, nowIso, event.paymentId),
  ])
  return written.ok ? paid('credited', providerRef) : written
}

/** What the shared part of a paid payment's credit needs to know of it. */
type SharedCredit = {
  paymentId: string
  productId: PaymentsRow['product_id']
  currency: string
  amount: number
  providerRef: string | null
}

/**
 * The shared side of a paid payment's credit, after the reader's credit batch, in one D1 batch guarded by the index
 * row's `credited_at` still being null, so it happens once whatever the number of deliveries: the product's sold
 * count (the stock was checked at charge time; a payment already taken is credited even if the last unit went
 * meanwhile), spec §7's conversion record (edition flag), and the payment's provider reference in the index (a refund
 * or dispute made at the provider names the payment by it). A worker stopped between the credit and this step leaves
 * the payment paid and this undone: the provider redelivers the event (no answer was given), the credit batch answers
 * `duplicate`, and this step runs then.
 */
async function creditShared(db: Db, payment: SharedCredit, nowIso: string, conversion: ConversionOptions): Promise<void> {
  const pending = `EXISTS (SELECT 1 FROM payment_readers WHERE payment_id = ? AND credited_at IS NULL)`
  // spec §7: one row per payment (INSERT OR IGNORE on its unique key), so a repeat records nothing twice
  const conversions = conversion
    ? conversion.provider.statements(
        {
          paymentId: payment.paymentId,
          action: 'Purchase',
          actionUrl: conversion.actionUrl,
          currency: payment.currency,
          value: payment.amount,
        },
        nowIso,
      )
    : []
  await db.batch([
    {
      sql: `UPDATE coin_products SET sold_count = sold_count + 1 WHERE id = ? AND (stock_limit IS NULL OR sold_count < stock_limit) AND ${pending}`,
      params: [payment.productId, payment.paymentId],
    },
    ...conversions,
    {
      sql: `UPDATE payment_readers SET credited_at = ?, provider_ref = ? WHERE payment_id = ? AND credited_at IS NULL`,
      params: [nowIso, payment.providerRef, payment.paymentId],
    },
  ])
}

function ledgerRow(userId: number, type: 'COIN' | 'BONUS', amount: number, paymentId: string, nowIso: string) {
  return {
    sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, created_at)
          VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'PAYMENT', ?, 'COIN_PRODUCT', ?, ?)`,
    params: [userId, type, amount, paymentId, nowIso],
  }
}

/**
 * docs/API.md `POST /payment/webhook/{provider}`: verifies the request (bad signature, old timestamp, other body:
 * INVALID_PARAMETER, nothing moves) and applies its event.
 */
export async function receiveWebhook(
  db: Db,
  provider: PaymentProvider,
  rawBody: string,
  header: (name: string) => string | undefined,
  now = new Date(),
  conversion: ConversionOptions = null,
): Promise<WebhookOutcome> {
  const event = await provider.verifyWebhook(rawBody, header, now)
  if (!event) throw new AppError('INVALID_PARAMETER', { fields: 'signature' })
  return applyProviderEvent(db, provider, event, now, conversion)
}

/** The lots a payment caused: its own and the reward of the top-up coupon it triggered. */
const CAUSED_LOTS_SQL = `SELECT id, type, amount, remaining FROM coin_lots WHERE user_id = ? AND (payment_id = ? OR (source = 'PAYMENT' AND ref = ?)) ORDER BY id`

/**
 * A refund made at the provider or a dispute: the payment it is about (PAID; its reader from the shared index, by the
 * provider's reference or our id), then `reversePayment`.
 */
async function reverseFromProvider(db: Db, provider: PaymentProvider, event: ReversalEvent, now: Date): Promise<WebhookOutcome> {
  const found = await db.first<{ paymentId: string; userId: number }>(
    `SELECT payment_id AS paymentId, user_id AS userId FROM payment_readers WHERE provider = ? AND (provider_ref = ? OR payment_id = ?)`,
    provider.id,
    event.ref,
    event.paymentId ?? '',
  )
  const payment = found
    ? await moneyDb(db, found.userId).first<Cols<'payments', 'id' | 'user_id' | 'state' | 'refunded_at' | 'amount' | 'currency'>>(
        `SELECT id, user_id AS userId, state, refunded_at AS refundedAt, amount, currency FROM payments WHERE id = ?`,
        found.paymentId,
      )
    : null
  // not paid here yet (the completed checkout is still on its way): refused, the provider redelivers it later
  if (!payment || payment.state === 'UNPAID') throw new AppError('INVALID_PARAMETER', { fields: 'data' })
  // a reader's refund still waiting for the provider's answer (it may yet give the coins back): redelivered later
  if (payment.state === 'REFUNDED' && payment.refundedAt === null) throw new AppError('INVALID_PARAMETER', { fields: 'data' })
  if (payment.state !== 'PAID') return 'ignored' // refunded by the reader (spec §9) or reversed before
  const dispute = event.type === 'charge.disputed'
  const done = settled(
    await decide(payment.userId, 'reverse', {
      paymentId: payment.id,
      userId: payment.userId,
      reason: dispute ? 'DISPUTE' : 'PROVIDER_REFUND',
      now: now.toISOString(),
      event: { provider: provider.id, id: event.id, type: event.type },
    }),
  )
  if (done.done !== 'reversed') return done.done === 'duplicate_event' ? 'duplicate' : 'ignored'
  await countMetric({ name: dispute ? 'dispute' : 'refund', key: payment.currency, total: payment.amount }, now)
  if (done.debt > 0) await countMetric({ name: 'debt', total: done.debt }, now)
  return 'reversed'
}

/** What `reverse` is told: the payment, why, when, and the provider's event that reversed it. */
type ReverseOrder = {
  paymentId: string
  userId: number
  reason: 'PROVIDER_REFUND' | 'DISPUTE'
  now: string
  event: { provider: string; id: string; type: string }
}

/**
 * Takes back what a payment brought once its money went back to the reader (a refund made at the provider, a
 * dispute), inside the reader's object (procedures.server.ts): reads whether the event was applied, whether the payment
 * was reversed before, and the lots it caused; plans (`planReversal`); then writes ONE batch with nothing in between:
 * the event row, the reversal row (primary key: a payment is reversed once), the payment PAID → REFUNDED, then every
 * lot it caused emptied, each with its REFUND_PURCHASE ledger row (amount `-take` only when the guarded update changed
 * one row, else 0, which the ledger's CHECK refuses: a plan gone wrong writes nothing); what was spent is the
 * reversal's `debt`. Answers `reversed` with that debt, `reversed_before`, or `duplicate_event` for an event applied.
 */
export function reverse(
  run: MoneyRun,
  order: ReverseOrder,
): Decision<{ done: 'reversed'; debt: number } | { done: 'reversed_before' | 'duplicate_event' }> {
  const { paymentId, userId, reason, now: nowIso, event } = order
  const read = run([
    { sql: `SELECT 1 FROM payment_events WHERE provider = ? AND event_id = ?`, params: [event.provider, event.id] },
    { sql: `SELECT 1 FROM payment_reversals WHERE payment_id = ?`, params: [paymentId] },
    { sql: CAUSED_LOTS_SQL, params: [userId, paymentId, paymentId] },
  ])
  if (!read.ok) return read
  const [applied, reversed, lots] = read.results
  if (applied!.results.length) return { result: { done: 'duplicate_event' } }
  if (reversed!.results.length) return { result: { done: 'reversed_before' } }
  const plan = planReversal(rows<CausedLotRow>(lots))
  const written = run([
    {
      sql: `INSERT INTO payment_events (provider, event_id, payment_id, type, received_at) VALUES (?, ?, ?, ?, ?)`,
      params: [event.provider, event.id, paymentId, event.type, nowIso],
    },
    {
      sql: `INSERT INTO payment_reversals (payment_id, user_id, reason, debt, created_at) VALUES (?, ?, ?, ?, ?)`,
      params: [paymentId, userId, reason, plan.debt, nowIso],
    },
    { sql: `UPDATE payments SET state = 'REFUNDED', refunded_at = ? WHERE id = ? AND state = 'PAID'`, params: [nowIso, paymentId] },
    ...plan.steps.flatMap((step) => [
      {
        sql: `UPDATE coin_lots SET remaining = 0 WHERE id = ? AND user_id = ? AND remaining = ?`,
        params: [step.lotId, userId, step.take],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, description, created_at)
              SELECT ?, 'REFUND_PURCHASE', id, type, source, CASE WHEN changes() = 1 THEN ? ELSE 0 END, 'COIN_PRODUCT', ?, ?, ? FROM coin_lots WHERE id = ?`,
        params: [userId, -step.take, paymentId, reason.toLowerCase(), nowIso, step.lotId],
      },
    ]),
  ])
  return written.ok ? { result: { done: 'reversed', debt: plan.debt } } : written
}

/**
 * The sandbox's hosted checkout buttons: the reader (owner of the payment) pays or cancels, and the sandbox sends
 * its signed webhook, delivered in-process to the same `receiveWebhook` the public webhook route runs (a Worker
 * cannot reliably fetch its own route). NOT_EXIST for someone else's payment; a payment no longer UNPAID is left
 * alone (the result page shows its state).
 */
export async function sandboxCheckout(
  db: Db,
  userId: number,
  paymentId: string,
  action: 'pay' | 'cancel',
  sandbox: { provider: PaymentProvider; secret: string },
  now = new Date(),
  conversion: ConversionOptions = null,
): Promise<PaymentView> {
  const payment = await paymentOf(db, userId, paymentId)
  if (!payment) throw new AppError('NOT_EXIST')
  if (payment.state !== 'UNPAID') return payment
  const { secret, provider } = sandbox
  const { body, headers } = await sandboxWebhook(
    secret,
    {
      id: newEventId(),
      type: action === 'pay' ? 'checkout.completed' : 'checkout.cancelled',
      paymentId,
      amount: payment.amount,
      currency: payment.currency,
    },
    now,
  )
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
  await receiveWebhook(db, provider, body, (name) => lower[name.toLowerCase()], now, conversion)
  return (await paymentOf(db, userId, paymentId))!
}

/** What a refund took back, by lot type (`freeCoin`, `mileage`: a top-up coupon's reward). */
export type RefundResult = {
  paymentId: string
  refunded: { coin: number; bonus: number; freeCoin: number; mileage: number }
  coin: CoinSummary
}

/**
 * Spec §9 refund of unused paid coins within 7 days (rules: `planRefund`; INVALID_PARAMETER with reason
 * NOT_REFUNDABLE when the payment cannot be refunded, NOT_EXIST for an unknown or another reader's payment).
 * The coins leave first, the money second (docs/ARCHITECTURE.md "Money: refunds"): ONE guarded batch takes every
 * lot the payment caused (its coins, its bonus, a top-up coupon's reward) while untouched and the payment PAID
 * and inside the window, each with its REFUND_PURCHASE ledger row (amount `-take` only when the guarded update
 * changed one row — else 0, which the ledger's CHECK refuses, failing the whole batch), the payment PAID →
 * REFUNDED with `refunded_at` still null (asked, not yet confirmed), its reversal row and the idempotency row.
 * A purchase racing it either spent the coins first (the batch fails: NOT_REFUNDABLE, the provider is never
 * asked) or finds them gone. Then the provider gives the money back (Stripe: Refunds API under the key
 * `refund-<payment id>`) and `refunded_at` is set; when it does not (an error, a timeout) the coins are given
 * back (`giveRefundBack`) and the answer is CLIENT_FETCH_ERROR. A worker stopped between the two is finished by
 * the cron (`settleRefunds`). Every statement is over the reader's money rows (moneyDb). An operator's refund passes
 * `recorded`, its audit row (shared), written right after the coins' batch and before the provider is asked: a batch
 * that refuses leaves no row to take back (docs/ARCHITECTURE.md "Reader objects": a shared write never rides in a
 * reader's batch).
 */
export async function refundPayment(
  db: Db,
  input: { userId: number; paymentId: string; claim: IdempotencyClaim; recorded?: () => Promise<unknown> },
  now = new Date(),
): Promise<RefundResult> {
  const { userId, paymentId, claim } = input
  // the mark the cron finds a refund by if this worker stops before the provider's answer is recorded (migration
  // 0038), set before the coins may leave; on a refusal the cron finds nothing to settle and clears it
  await db.run(`UPDATE payment_readers SET refund_asked_at = ? WHERE payment_id = ? AND user_id = ?`, now.toISOString(), paymentId, userId)
  const providers = PROVIDER_IDS.filter((id) => providerById(id))
  const taken = settled(await decide(userId, 'takeRefund', { userId, paymentId, claim, providers, now: now.toISOString() }))
  await input.recorded?.()
  if (await settleRefund(db, providerById(taken.asked.provider)!, taken.asked, taken.steps, claim.key, now)) return taken.result
  throw new AppError('CLIENT_FETCH_ERROR', { provider: taken.asked.provider })
}

/** The providers a payment may have been made with (`providerById`). */
const PROVIDER_IDS = ['stripe', 'sandbox']

/** What `takeRefund` is told: the reader, their payment, the key, the providers this worker can ask. */
type RefundOrder = { userId: number; paymentId: string; claim: IdempotencyClaim; providers: string[]; now: string }

/**
 * The coins of a reader's refund leave, inside their object (procedures.server.ts): reads the key, the payment and the
 * lots it caused; plans (`planRefund`: NOT_EXIST, or INVALID_PARAMETER with reason NOT_REFUNDABLE; a payment of a
 * provider this worker cannot ask is NOT_FOUND_PAYMENT_METHOD); then writes ONE batch with nothing in between: every
 * lot emptied with its REFUND_PURCHASE ledger row (amount `-take` only when the guarded update changed one row, else 0,
 * which the ledger's CHECK refuses), the payment PAID → REFUNDED with `refunded_at` still null (asked, not yet
 * confirmed), its reversal row and the idempotency row holding the answer.
 */
export function takeRefund(
  run: MoneyRun,
  order: RefundOrder,
): Decision<{ result: RefundResult; asked: AskedRefund; steps: { lotId: number; take: number }[] }> {
  const { userId, paymentId, claim, now: nowIso } = order
  const read = run([
    keyTaken(claim),
    {
      sql: `SELECT state, paid_at AS paidAt, provider, provider_ref AS ref, amount, currency FROM payments WHERE id = ? AND user_id = ?`,
      params: [paymentId, userId],
    },
    { sql: CAUSED_LOTS_SQL, params: [userId, paymentId, paymentId] },
  ])
  if (!read.ok) return read
  const [keyRes, paymentRes, lotsRes] = read.results
  if (keyRes!.results.length > 0) return { taken: true }
  const payment = firstRow<
    Cols<'payments', 'state' | 'paid_at' | 'provider' | 'amount' | 'currency'> & { ref: PaymentsRow['provider_ref'] }
  >(paymentRes)
  const plan = planRefund(payment ?? null, rows<CausedLotRow>(lotsRes), new Date(nowIso))
  if (!plan.ok)
    return plan.code === 'NOT_EXIST'
      ? { refused: 'NOT_EXIST' }
      : { refused: 'INVALID_PARAMETER', details: { fields: 'paymentId', reason: 'NOT_REFUNDABLE' } }
  if (!order.providers.includes(payment!.provider)) return { refused: 'NOT_FOUND_PAYMENT_METHOD' }
  const refunded = { coin: 0, bonus: 0, freeCoin: 0, mileage: 0 }
  const key = { COIN: 'coin', BONUS: 'bonus', FREE_COIN: 'freeCoin', MILEAGE: 'mileage' } as const
  const written = run([
    ...plan.steps.flatMap((s) => {
      refunded[key[s.type]] += s.take
      return [
        {
          sql: `UPDATE coin_lots SET remaining = 0 WHERE id = ? AND user_id = ? AND remaining = ? AND amount = ?`,
          params: [s.lotId, userId, s.take, s.take],
        },
        {
          sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, description, idempotency_key, created_at)
                SELECT ?, 'REFUND_PURCHASE', id, type, source, CASE WHEN changes() = 1 THEN ? ELSE 0 END, 'COIN_PRODUCT', ?, 'refund', ?, ? FROM coin_lots WHERE id = ?`,
          params: [userId, -s.take, paymentId, claim.key, nowIso, s.lotId],
        },
      ]
    }),
    {
      sql: `UPDATE payments SET state = 'REFUNDED', refunded_at = NULL WHERE id = ? AND user_id = ? AND state = 'PAID'`,
      params: [paymentId, userId],
    },
    {
      sql: `INSERT INTO payment_reversals (payment_id, user_id, reason, debt, created_at) VALUES (?, ?, 'REFUND', 0, ?)`,
      params: [paymentId, userId, nowIso],
    },
    storeResponseStatement(
      claim,
      200,
      `json_object('result', 'SUCCESS', 'data', json_object('paymentId', ?, 'refunded', json(?), 'coin', json(${COIN_SUMMARY_SQL})))`,
      [paymentId, JSON.stringify(refunded), ...coinSummaryParams(userId, nowIso)],
    ),
  ])
  if (!written.ok) return written
  return {
    result: {
      result: storedData<RefundResult>(written.results),
      asked: {
        id: paymentId,
        userId,
        provider: payment!.provider,
        ref: payment!.ref,
        amount: payment!.amount,
        currency: payment!.currency,
      },
      steps: plan.steps,
    },
  }
}

/** A refund whose coins left and whose money the provider was asked for. */
type AskedRefund = { id: string; userId: number; provider: string; ref: string | null; amount: number; currency: string }

/**
 * Asks the provider for the money of a refund whose coins already left, then records its answer: confirmed
 * (`refunded_at` set) or refused (`giveRefundBack`). True when the money went back.
 */
async function settleRefund(
  db: Db,
  provider: PaymentProvider,
  payment: AskedRefund,
  steps: readonly { lotId: number; take: number }[],
  claimKey: string | null,
  now: Date,
): Promise<boolean> {
  let paid = true
  try {
    await provider.refund(payment)
  } catch (e) {
    console.error(`payment ${payment.id}: ${provider.id} refund failed, the coins go back`, e)
    await giveRefundBack(db, payment, steps, claimKey, now)
    paid = false
  }
  // the daily report counts the refund where it is confirmed, once (the cron may settle it beside a slow worker)
  if (
    paid &&
    (await moneyDb(db, payment.userId).run(
      `UPDATE payments SET refunded_at = ? WHERE id = ? AND state = 'REFUNDED' AND refunded_at IS NULL`,
      new Date().toISOString(),
      payment.id,
    ))
  )
    await countMetric({ name: 'refund', key: payment.currency, total: payment.amount })
  await db.run(`UPDATE payment_readers SET refund_asked_at = NULL WHERE payment_id = ?`, payment.id)
  return paid
}

/**
 * The provider refused a refund whose coins had left: ONE batch gives every lot back (a REFUND_PURCHASE row of
 * `+take` each, described `refund_refused`), the payment REFUNDED → PAID, its reversal row and the idempotency
 * row removed (the reader may try again with the same key). Guarded by the payment still awaiting its answer,
 * so it happens once.
 */
async function giveRefundBack(
  db: Db,
  payment: Pick<AskedRefund, 'id' | 'userId'>,
  steps: readonly { lotId: number; take: number }[],
  claimKey: string | null,
  now: Date,
): Promise<void> {
  const pending = `EXISTS (SELECT 1 FROM payments WHERE id = ? AND state = 'REFUNDED' AND refunded_at IS NULL)`
  await moneyDb(db, payment.userId).batch([
    ...steps.flatMap((s) => [
      {
        sql: `UPDATE coin_lots SET remaining = ? WHERE id = ? AND user_id = ? AND remaining = 0 AND ${pending}`,
        params: [s.take, s.lotId, payment.userId, payment.id],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, product_kind, ref, description, created_at)
              SELECT ?, 'REFUND_PURCHASE', id, type, source, ?, 'COIN_PRODUCT', ?, 'refund_refused', ? FROM coin_lots WHERE id = ? AND changes() = 1`,
        params: [payment.userId, s.take, payment.id, now.toISOString(), s.lotId],
      },
    ]),
    { sql: `DELETE FROM payment_reversals WHERE payment_id = ? AND reason = 'REFUND' AND ${pending}`, params: [payment.id, payment.id] },
    { sql: `DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND ${pending}`, params: [payment.userId, claimKey, payment.id] },
    { sql: `UPDATE payments SET state = 'PAID' WHERE id = ? AND state = 'REFUNDED' AND refunded_at IS NULL`, params: [payment.id] },
  ])
}

/** A refund still unconfirmed this long after its coins left was cut off (a worker stopped): the cron finishes it. */
const REFUND_SETTLE_AFTER_MS = 5 * 60_000

/**
 * Cron: refunds whose coins left but whose provider answer was never recorded (the worker stopped in between) are
 * asked again under the same provider key (`refund-<payment id>`: a refund made the first time is not made twice),
 * then confirmed or given back. Returns how many were settled. They are found through the shared index's mark
 * (`refund_asked_at`, set before the reader's batch), then read on their reader's rows; a mark whose refund never
 * committed, or was settled, is cleared.
 */
export async function settleRefunds(db: Db, now = new Date()): Promise<number> {
  const marked = await db.all<{ paymentId: string; userId: number }>(
    `SELECT payment_id AS paymentId, user_id AS userId FROM payment_readers WHERE refund_asked_at < ? LIMIT 50`,
    isoAfter(now, -REFUND_SETTLE_AFTER_MS),
  )
  let settled = 0
  for (const { paymentId, userId } of marked) {
    const money = moneyDb(db, userId)
    const [paymentRes, stepsRes] = await money.batch([
      {
        sql: `SELECT p.id, p.user_id AS userId, p.provider, p.provider_ref AS ref, p.amount, p.currency FROM payments p
               WHERE p.id = ? AND p.state = 'REFUNDED' AND p.refunded_at IS NULL
                 AND EXISTS (SELECT 1 FROM payment_reversals r WHERE r.payment_id = p.id AND r.reason = 'REFUND')`,
        params: [paymentId],
      },
      {
        // what the refund took: the REFUND_PURCHASE rows of its batch (one per lot)
        sql: `SELECT lot_id AS lotId, -amount AS take FROM coin_ledger WHERE user_id = ? AND ref = ? AND kind = 'REFUND_PURCHASE' AND description = 'refund' AND amount < 0`,
        params: [userId, paymentId],
      },
    ])
    const payment = firstRow<AskedRefund>(paymentRes)
    const provider = payment ? providerById(payment.provider) : undefined
    if (!payment || !provider) {
      await db.run(`UPDATE payment_readers SET refund_asked_at = NULL WHERE payment_id = ?`, paymentId)
      continue
    }
    await settleRefund(db, provider, payment, rows<{ lotId: number; take: number }>(stepsRes), null, now)
    settled++
  }
  return settled
}

/** A payment the reader can still refund (spec §9), for the charge history page. */
export type RefundablePayment = { id: string; coins: number; bonus: number; amount: number; currency: string; paidAt: string }

/** The reader's PAID payments of the last 7 days whose lots are all unused (`planRefund`; newest first, at most 20). */
export async function refundablePayments(db: Db, userId: number, now = new Date()): Promise<RefundablePayment[]> {
  const since = isoAfter(now, -REFUND_DAYS * DAY_MS)
  // paid_at is not null: the query asks p.paid_at > ?
  return moneyDb(db, userId).all<
    Cols<'payments', 'id' | 'coins' | 'bonus' | 'amount' | 'currency'> & { paidAt: NonNullable<PaymentsRow['paid_at']> }
  >(
    `SELECT p.id, p.coins, p.bonus, p.amount, p.currency, p.paid_at AS paidAt FROM payments p
      WHERE p.user_id = ? AND p.state = 'PAID' AND p.paid_at > ?
        AND EXISTS (SELECT 1 FROM coin_lots l WHERE l.user_id = p.user_id AND l.source = 'PAYMENT' AND l.ref = p.id AND l.type = 'COIN')
        AND NOT EXISTS (SELECT 1 FROM coin_lots l WHERE l.user_id = p.user_id AND (l.payment_id = p.id OR (l.source = 'PAYMENT' AND l.ref = p.id)) AND l.remaining <> l.amount)
      ORDER BY p.paid_at DESC LIMIT 20`,
    userId,
    since,
  )
}

/** Coins the reader owes: spent coins of payments whose money went back (a refund at the provider, a dispute). */
export async function debtOf(db: Db, userId: number): Promise<number> {
  return (
    (
      await moneyDb(db, userId).first<Pick<PaymentReversalsRow, 'debt'>>(
        `SELECT coalesce(sum(debt), 0) AS debt FROM payment_reversals WHERE user_id = ? AND debt > 0`,
        userId,
      )
    )?.debt ?? 0
  )
}

/** A reader's open debts for the operator (`npm run ops -- coins show`): oldest first, as the next top-up settles them. */
export type DebtRow = Cols<'payment_reversals', 'payment_id' | 'reason' | 'debt' | 'created_at'>

export async function openDebts(db: Db, userId: number): Promise<DebtRow[]> {
  return moneyDb(db, userId).all<DebtRow>(
    `SELECT payment_id AS paymentId, reason, debt, created_at AS createdAt FROM payment_reversals
      WHERE user_id = ? AND debt > 0 ORDER BY created_at, payment_id`,
    userId,
  )
}

/**
 * The operator settles a reader's open debts without coins (`npm run ops -- coins forgive`): each goes to 0 in one
 * statement; the coins forgiven, and the reason in the route's log line (the route records its audit row after).
 */
export async function forgiveDebts(db: Db, userId: number): Promise<number> {
  // one batch is one transaction: the sum is what the update zeroes
  const [sum] = await moneyDb(db, userId).batch([
    { sql: `SELECT coalesce(sum(debt), 0) AS forgiven FROM payment_reversals WHERE user_id = ? AND debt > 0`, params: [userId] },
    { sql: `UPDATE payment_reversals SET debt = 0 WHERE user_id = ? AND debt > 0`, params: [userId] },
  ])
  return firstRow<{ forgiven: number }>(sum)?.forgiven ?? 0
}

/** The reader's saved address (spec §3 address form), or null: kept in the reader's object. */
export async function addressOf(userId: number): Promise<Address | null> {
  return withReader(userId, (r) => r.address(userId))
}

/** Saves (replaces) the reader's address; the phone is stored with the country's dial code. */
export async function saveAddress(userId: number, a: AddressRequest, now = new Date()): Promise<Address> {
  const row: Address = {
    name: a.name,
    city: a.city,
    zipCode: a.zipCode.toUpperCase(),
    address1: a.address1,
    address2: a.address2 || null,
    phone: normalizePhone(a.phone, a.country),
    country: a.country,
  }
  await withReader(userId, (r) => r.saveAddress(userId, row, now.toISOString()))
  return row
}

/** One payment as the operator sees it (`GET /api/ops/payments/{id}`, `npm run ops -- payment show`). */
export type OpsPaymentReport = {
  payment: {
    id: string
    userId: number
    email: string | null
    state: PaymentsRow['state']
    provider: string
    method: string | null
    providerRef: string | null
    amount: number
    currency: string
    coins: number
    bonus: number
    createdAt: string
    paidAt: string | null
    cancelledAt: string | null
    refundedAt: string | null
  }
  /** The lots it caused (its coins, its bonus, a top-up coupon's reward) and what is left of each. */
  lots: CausedLotRow[]
  /** The provider's events about it (`payment_events`: checkout, refunds and disputes made at the provider), oldest first. */
  events: { provider: string; eventId: string; type: string | null; receivedAt: string }[]
  /** What took its coins back (a refund, a refund made at the provider, a dispute) and the debt left. */
  reversals: { reason: PaymentReversalsRow['reason']; debt: number; createdAt: string }[]
  /** Why the refund rule refuses it now (`refundRefusal`), or null: `payment refund` would refund it. */
  refusal: string | null
}

/**
 * A payment by id with its lots, provider events and reversals; null for an id that is not one of ours or unknown.
 * Its reader and their e-mail come from the shared side first (the index, migration 0037), then the payment's rows
 * from the reader's money rows in one batch.
 */
export async function opsPayment(db: Db, paymentId: string, now = new Date()): Promise<OpsPaymentReport | null> {
  if (!isPaymentId(paymentId)) return null
  const reader = await db.first<{ userId: number; email: string | null }>(
    `SELECT r.user_id AS userId, u.email FROM payment_readers r LEFT JOIN users u ON u.id = r.user_id WHERE r.payment_id = ?`,
    paymentId,
  )
  if (!reader) return null
  const [paymentRes, lotsRes, eventsRes, reversalsRes] = await moneyDb(db, reader.userId).batch([
    {
      sql: `SELECT id, user_id AS userId, ? AS email, state, provider, method, provider_ref AS providerRef, amount, currency,
              coins, bonus, created_at AS createdAt, paid_at AS paidAt, cancelled_at AS cancelledAt, refunded_at AS refundedAt
            FROM payments WHERE id = ?`,
      params: [reader.email, paymentId],
    },
    { sql: CAUSED_LOTS_SQL, params: [reader.userId, paymentId, paymentId] },
    {
      sql: `SELECT provider, event_id AS eventId, type, received_at AS receivedAt FROM payment_events WHERE payment_id = ? ORDER BY received_at, event_id LIMIT 100`,
      params: [paymentId],
    },
    { sql: `SELECT reason, debt, created_at AS createdAt FROM payment_reversals WHERE payment_id = ?`, params: [paymentId] },
  ])
  const payment = firstRow<OpsPaymentReport['payment']>(paymentRes)
  if (!payment) return null
  const lots = rows<CausedLotRow>(lotsRes)
  return {
    payment,
    lots,
    events: rows<OpsPaymentReport['events'][number]>(eventsRes),
    reversals: rows<OpsPaymentReport['reversals'][number]>(reversalsRes),
    refusal: refundRefusal(payment, lots, now),
  }
}

/** The reader a payment belongs to, for the operator's snapshots (the shared index, migration 0037); null if unknown. */
export async function paymentReader(db: Db, paymentId: string): Promise<number | null> {
  return isPaymentId(paymentId) ? readerOfPayment(db, paymentId) : null
}

/**
 * An operator's refund (issue 39 point 8): the reader's own refund path (`refundPayment`: the coins leave in one
 * guarded batch — the operator's audit row, `audit`, recorded right after it — before the provider is asked, and come
 * back if it refuses), under a fresh idempotency key of the reader. `{refused}` says in one line why the rule refuses it (spent, refunded,
 * too late, …), nothing written; NOT_EXIST for an unknown payment; CLIENT_FETCH_ERROR when the provider refused (the
 * coins are back).
 */
export async function opsRefund(
  db: Db,
  paymentId: string,
  audit: (userId: number) => Promise<unknown>,
  now = new Date(),
): Promise<{ result: RefundResult; userId: number } | { refused: string }> {
  const report = await opsPayment(db, paymentId, now)
  if (!report) throw new AppError('NOT_EXIST')
  if (report.refusal) return { refused: report.refusal }
  const { userId } = report.payment
  const claim = { userId, key: `ops-refund-${crypto.randomUUID()}`, scope: 'POST /api/ops/payments/refund', requestHash: '' }
  try {
    return { result: await refundPayment(db, { userId, paymentId, claim, recorded: () => audit(userId) }, now), userId }
  } catch (e) {
    // refunded, reversed or spent since the read above: nothing was written and the provider was not asked
    if (e instanceof AppError && e.code === 'INVALID_PARAMETER' && e.details?.reason === 'NOT_REFUNDABLE') {
      const again = await opsPayment(db, paymentId, now)
      return { refused: again?.refusal ?? 'refunded, reversed or spent meanwhile' }
    }
    throw e
  }
}
