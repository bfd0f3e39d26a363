/**
 * Fixtures of the coin shop worker tests: own coin products (so each test owns its rows), charges through the
 * API and the sandbox provider's signed webhooks.
 */
import { app, db, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { newEventId } from '../../src/features/payment/payment.ts'
import { sandboxWebhook } from '../../src/features/payment/provider.ts'
import { readerRows } from './reader-rows.ts'

const SECRET = 'test-webhook-secret'

export type ProductOpts = {
  coins?: number
  bonus?: number
  price?: number
  currency?: string
  perUser?: number | null
  stock?: number | null
  sold?: number
  active?: boolean
  platform?: string | null
}

/** A coin product of the fr edition's currency (EUR unless told). */
export async function newProduct(o: ProductOpts = {}): Promise<number> {
  const row = await db.first<{ id: number }>(
    `INSERT INTO coin_products (coins, bonus, price, currency, per_user_limit, stock_limit, sold_count, platform, is_active, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1000) RETURNING id`,
    o.coins ?? 100,
    o.bonus ?? 15,
    o.price ?? 1499,
    o.currency ?? 'EUR',
    o.perUser ?? null,
    o.stock ?? null,
    o.sold ?? 0,
    o.platform ?? null,
    o.active === false ? 0 : 1,
  )
  return row!.id
}

/** POST /api/v1/payment/charge as `reader`. */
export async function charge(
  reader: Pick<Reader, 'headers'>,
  body: unknown,
  key: string | null = crypto.randomUUID(),
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers, ...extra }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, '/api/v1/payment/charge', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

/**
 * The reader of each payment made by `paymentFor`: a payment row is one reader's (issue 38), so the helpers below that
 * find one by its id read it among that reader's rows.
 */
const payers = new Map<string, number>()

/** The reader whose rows hold payment `paymentId`: `readerId` when given, else the one `paymentFor` made it for. */
function payerOf(paymentId: string, readerId?: number): number | undefined {
  return readerId ?? payers.get(paymentId)
}

/** A charge that must succeed: the new payment's id. */
export async function paymentFor(reader: Reader, productId: number, method = 'card'): Promise<string> {
  const res = await charge(reader, { productId, method })
  const body = (await res.json()) as { data: { paymentId: string } }
  if (res.status !== 200) throw new Error(`charge failed: ${JSON.stringify(body)}`)
  payers.set(body.data.paymentId, reader.id)
  return body.data.paymentId
}

/**
 * A signed sandbox webhook for `paymentId` (as the sandbox would send it at `now`): its amount and currency are the
 * payment's, read among the rows of `readerId` (by default the reader `paymentFor` made it for; a payment of no reader
 * known here, such as an id that does not exist, has none: pass `amount` and `currency`).
 */
export async function signedEvent(
  paymentId: string,
  opts: {
    type?: 'checkout.completed' | 'checkout.cancelled'
    amount?: number
    currency?: string
    id?: string
    now?: Date
    secret?: string
    readerId?: number
  } = {},
) {
  const readerId = payerOf(paymentId, opts.readerId)
  const payment =
    readerId === undefined
      ? null
      : await readerRows.first<{ amount: number; currency: string }>(
          readerId,
          `SELECT amount, currency FROM payments WHERE id = ?`,
          paymentId,
        )
  return sandboxWebhook(
    opts.secret ?? SECRET,
    {
      id: opts.id ?? newEventId(),
      type: opts.type ?? 'checkout.completed',
      paymentId,
      amount: opts.amount ?? payment?.amount ?? 0,
      currency: opts.currency ?? payment?.currency ?? 'EUR',
    },
    opts.now,
  )
}

/** POST /api/v1/payment/webhook/{provider} with exactly this body and these headers (no session). */
export async function postWebhook(event: { body: string; headers: Record<string, string> }, provider = 'sandbox') {
  return request(app, `/api/v1/payment/webhook/${provider}`, { method: 'POST', headers: event.headers, body: event.body })
}

/**
 * What a payment left in the wallet of its reader (`readerId`, by default the reader `paymentFor` made it for): its
 * state, its lots and ledger rows.
 */
export async function credited(paymentId: string, readerId?: number) {
  const payer = payerOf(paymentId, readerId)
  if (payer === undefined) throw new Error(`credited: whose payment is ${paymentId}? Pass its reader's id`)
  const [payment, lots, ledger, events] = await Promise.all([
    readerRows.first<{ state: string; paidAt: string | null }>(
      payer,
      `SELECT state, paid_at AS paidAt FROM payments WHERE id = ?`,
      paymentId,
    ),
    readerRows.all<{ type: string; amount: number; remaining: number; expiresAt: string | null }>(
      payer,
      `SELECT type, amount, remaining, expires_at AS expiresAt FROM coin_lots WHERE ref = ? AND source = 'PAYMENT' ORDER BY id`,
      paymentId,
    ),
    readerRows.all<{ kind: string; type: string; amount: number; source: string }>(
      payer,
      `SELECT kind, type, amount, source FROM coin_ledger WHERE ref = ? ORDER BY id`,
      paymentId,
    ),
    readerRows.first<{ n: number }>(payer, `SELECT count(*) AS n FROM payment_events WHERE payment_id = ?`, paymentId),
  ])
  return { state: payment?.state, lots, ledger, events: events?.n ?? 0 }
}
