/**
 * The coin shop without I/O (spec §3 payment state UNPAID/PAID, product kind COIN_PRODUCT; §5 "Shop requires
 * the agreement checkbox"; §8 Payment errors; docs/API.md `GET /payment/products`, `POST /payment/charge`,
 * `POST /payment/webhook/{provider}`): which products a reader may charge, and what a paid charge grants.
 */
import { z } from 'zod'
import { RowId, RowIdText } from '../../lib/ids.ts'
import { OpsReason } from '../../lib/ops.ts'
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { DAY_MS, isoAfter } from '../../lib/time.ts'

/**
 * Payment methods the checkout offers. Unknown ones answer NOT_FOUND_PAYMENT_METHOD (spec §8): the method is
 * checked against this list rather than by the schema so the reader gets the catalogue's own code.
 */
export const PAYMENT_METHODS = ['card', 'paypal'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]

export function isPaymentMethod(m: string): m is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(m)
}

/** docs/API.md `POST /api/v1/payment/charge` body. */
export const ChargeRequest = z.object({
  /** A coin product id of `GET /payment/products`. */
  productId: RowId,
  /** One of `PAYMENT_METHODS` (anything else: NOT_FOUND_PAYMENT_METHOD). */
  method: z.string().min(1).max(32),
})
export type ChargeRequest = z.infer<typeof ChargeRequest>

/**
 * The shop's plain form (spec §5): the product, the method, the agreement checkbox and the idempotency key the
 * page generated when it was rendered (the client makes the key, docs/CONVENTIONS.md "Money"). Fields arrive as text.
 */
export const ShopForm = z.object({
  productId: RowIdText,
  method: z.string().min(1).max(32).default('card'),
  /** Absent when the box is unchecked: the form handler refuses the charge. */
  agree: z.literal('on').optional(),
  key: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/),
})
export type ShopForm = z.infer<typeof ShopForm>

/** A coin product as the shop shows it (docs/API.md: price in minor units of the edition's currency). */
export type CoinProduct = {
  id: number
  coins: number
  bonus: number
  price: number
  currency: string
  label: string | null
  /** Spec §8 LIMITED_COIN_PRODUCT_USER: how often one reader may buy it (null: no limit). */
  perUserLimit: number | null
  /** Spec §8 LIMITED_COIN_PRODUCT: how many may be sold in all (null: no limit). */
  stockLimit: number | null
  soldCount: number
}

/**
 * Whether `product` may be charged by a reader who already paid for it `paidByUser` times (PAID payments).
 * Stock first (the offer is gone for everyone), then the reader's own limit.
 */
export function checkCharge(product: CoinProduct | null, paidByUser: number): { ok: true } | { ok: false; code: ErrorCode } {
  if (!product) return { ok: false, code: 'NOT_FOUND_COIN_PRODUCT' }
  if (product.stockLimit !== null && product.soldCount >= product.stockLimit) return { ok: false, code: 'LIMITED_COIN_PRODUCT' }
  if (product.perUserLimit !== null && paidByUser >= product.perUserLimit) return { ok: false, code: 'LIMITED_COIN_PRODUCT_USER' }
  return { ok: true }
}

/**
 * How long the bonus coins of a paid charge stay spendable. The spec gives no figure; the demo data's paid
 * bonus lots run 90 days, so do these. Paid coins (COIN) never expire.
 */
const PAYMENT_BONUS_DAYS = 90

/** The lots a paid charge grants: the product's coins (never expire) and its bonus (if any, `PAYMENT_BONUS_DAYS`). */
export function paymentGrants(
  p: { coins: number; bonus: number },
  paidAt: Date,
): { type: 'COIN' | 'BONUS'; amount: number; expiresAt: string | null }[] {
  const grants: { type: 'COIN' | 'BONUS'; amount: number; expiresAt: string | null }[] = [
    { type: 'COIN', amount: p.coins, expiresAt: null },
  ]
  if (p.bonus > 0) grants.push({ type: 'BONUS', amount: p.bonus, expiresAt: isoAfter(paidAt, PAYMENT_BONUS_DAYS * DAY_MS) })
  return grants
}

/** Payment ids are unguessable (`pay_` + 128 random bits): a checkout URL cannot be found by counting. */
export function newPaymentId(): string {
  return `pay_${randomHex(16)}`
}

/** Provider event ids of the sandbox (`evt_` + 128 random bits). */
export function newEventId(): string {
  return `evt_${randomHex(16)}`
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** True when `id` has the shape of one of our payment ids (anything else is not looked up). */
export function isPaymentId(id: string | null | undefined): id is string {
  return typeof id === 'string' && /^pay_[0-9a-z_]{1,64}$/.test(id)
}

/** Spec §3 payment state; CANCELLED when the reader gave up at the provider's checkout. */
export type PaymentState = 'UNPAID' | 'PAID' | 'CANCELLED' | 'REFUNDED'

/** A payment as its owner sees it (checkout and result pages). */
export type PaymentView = {
  id: string
  productId: number | null
  state: PaymentState
  method: string | null
  amount: number
  currency: string
  coins: number
  bonus: number
  createdAt: string
  paidAt: string | null
}

/** Spec §9: unused paid coins can be refunded within 7 days of the payment. */
export const REFUND_DAYS = 7

/** docs/API.md-style body of `POST /api/v1/payment/refund`. */
export const RefundRequest = z.object({ paymentId: z.string().regex(/^pay_[0-9a-z_]{1,64}$/) })
export type RefundRequest = z.infer<typeof RefundRequest>

/** A lot a payment caused (its coins, its bonus, a top-up coupon's reward), as the refund rule sees it. */
export type PaymentLot = { id: number; type: 'COIN' | 'BONUS' | 'FREE_COIN' | 'MILEAGE'; amount: number; remaining: number }

/**
 * Spec §9 "refund of unused coins within 7 days": a PAID payment can be refunded while fewer than `REFUND_DAYS`
 * have passed since it was paid and every lot it caused is untouched — its paid coins, its bonus and the reward
 * of a top-up coupon it triggered (a refund that left the coupon's reward would hand out free coins). The refund
 * takes all of them back: one REFUND_PURCHASE ledger row per lot, each the negative of the lot. Returns what
 * leaves each lot (paid coins first), or `not_refundable` (not paid, refunded already, too late, or something spent).
 */
export function planRefund(
  payment: { state: PaymentState; paidAt: string | null } | null,
  lots: readonly PaymentLot[],
  now: Date,
): { ok: true; steps: { lotId: number; type: PaymentLot['type']; take: number }[] } | { ok: false; code: 'NOT_EXIST' | 'not_refundable' } {
  if (!payment) return { ok: false, code: 'NOT_EXIST' }
  if (payment.state !== 'PAID' || payment.paidAt === null) return { ok: false, code: 'not_refundable' }
  if (now.getTime() - Date.parse(payment.paidAt) >= REFUND_DAYS * DAY_MS) return { ok: false, code: 'not_refundable' }
  if (!lots.some((l) => l.type === 'COIN') || lots.some((l) => l.remaining !== l.amount)) return { ok: false, code: 'not_refundable' }
  const steps = lots.map((l) => ({ lotId: l.id, type: l.type, take: l.amount }))
  return { ok: true, steps: steps.sort((a, b) => (a.type === 'COIN' ? -1 : b.type === 'COIN' ? 1 : a.lotId - b.lotId)) }
}

/**
 * Why `planRefund` refuses a payment, in one line for the operator (`npm run ops -- payment refund`), or null when it
 * would refund it. The same rules in the same order as `planRefund`.
 */
export function refundRefusal(
  payment: { state: PaymentState; paidAt: string | null; refundedAt?: string | null } | null,
  lots: readonly PaymentLot[],
  now: Date,
): string | null {
  if (!payment) return 'no such payment'
  if (payment.state === 'REFUNDED')
    return payment.refundedAt === null ? 'a refund of it is waiting for the provider' : `already refunded (${payment.refundedAt})`
  if (payment.state !== 'PAID' || payment.paidAt === null) return `it is ${payment.state}, not PAID`
  if (now.getTime() - Date.parse(payment.paidAt) >= REFUND_DAYS * DAY_MS)
    return `paid ${payment.paidAt}: past the ${REFUND_DAYS}-day refund window (spec §9)`
  if (!lots.some((l) => l.type === 'COIN')) return 'no paid coins of it are left to take back'
  const used = lots.filter((l) => l.remaining !== l.amount)
  if (used.length > 0) return `its coins were used: ${used.map((l) => `${l.type} ${l.amount - l.remaining} of ${l.amount}`).join(', ')}`
  return null
}

/** `POST /api/ops/coins/debt/forgive`: the account whose open debts the operator settles, and why. */
export const DebtForgiveRequest = z.object({ email: z.email().max(254), reason: OpsReason })
export type DebtForgiveRequest = z.infer<typeof DebtForgiveRequest>

/** An open debt: coins spent of a payment whose money went back (`payment_reversals.debt`). */
export type OpenDebt = { paymentId: string; debt: number }

/**
 * Issue 34 point 3: a new top-up's paid coins (`credit`) settle the reader's open debts first, oldest first, as far
 * as they go; what each debt gives up. The rest of the top-up is the reader's.
 */
export function planDebtNetting(debts: readonly OpenDebt[], credit: number): { paymentId: string; take: number }[] {
  const steps: { paymentId: string; take: number }[] = []
  let left = credit
  for (const d of debts) {
    if (left <= 0) break
    const take = Math.min(d.debt, left)
    if (take > 0) steps.push({ paymentId: d.paymentId, take })
    left -= take
  }
  return steps
}

/**
 * What a reversal (a refund made at the provider, a dispute) does to the lots a payment caused: everything left
 * is taken back; what the reader already spent of them (mileage aside, which is not coins) becomes a debt.
 */
export function planReversal(lots: readonly PaymentLot[]): {
  steps: { lotId: number; type: PaymentLot['type']; take: number }[]
  debt: number
} {
  const steps = lots.filter((l) => l.remaining > 0).map((l) => ({ lotId: l.id, type: l.type, take: l.remaining }))
  const debt = lots.filter((l) => l.type !== 'MILEAGE').reduce((sum, l) => sum + (l.amount - l.remaining), 0)
  return { steps, debt }
}
