/**
 * Stripe as a payment provider (issue 20), through the official SDK with its fetch HTTP client and SubtleCrypto
 * provider, so the same code runs in workerd and in Node:
 * - checkout: a Checkout Session in the payment's currency, the payment id as `client_reference_id`, metadata
 *   and Stripe idempotency key, success and cancel URLs back to /shop/result;
 * - webhook: `constructEventAsync` on the raw body; `checkout.session.completed` (and
 *   `async_payment_succeeded`) pays, `checkout.session.expired` (and `async_payment_failed`) cancels,
 *   `charge.refunded` and `charge.dispute.created` give the money back;
 * - refund: the Refunds API under the idempotency key `refund-<payment id>`.
 */
import Stripe from 'stripe'
import type { PaymentProvider, ProviderEvent } from './provider.ts'

export type StripeConfig = {
  secretKey: string
  webhookSecret: string
  /** Another API address (a test double): `http://127.0.0.1:1234`. Absent: Stripe's own. */
  apiUrl?: string
  /** Per request, in milliseconds (one retry on a network failure or a 5xx, same idempotency key). */
  timeoutMs?: number
}

/** Stripe's zero-decimal currencies among the ones an edition can sell in (amounts in whole units). */
const ZERO_DECIMAL = new Set(['JPY', 'KRW'])

/** Fraction digits of our minor units: the ones `formatMoney` divides by (Intl's for the currency). */
function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

/**
 * Our amount (minor units as the shop stores them) in Stripe's units for `currency` (cents for EUR, USD, THB, TWD;
 * whole yen and won for JPY and KRW). Throws when the amount cannot be expressed exactly.
 */
function toStripeAmount(amount: number, currency: string): number {
  const shift = (ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2) - minorDigits(currency)
  const value = amount * 10 ** shift
  if (!Number.isSafeInteger(value)) throw new Error(`amount ${amount} ${currency} has no exact Stripe amount`)
  return value
}

/** Stripe's amount back in our minor units (the inverse of `toStripeAmount`; NaN when not exact). */
function fromStripeAmount(amount: number, currency: string): number {
  const shift = (ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2) - minorDigits(currency)
  const value = amount / 10 ** shift
  return Number.isSafeInteger(value) ? value : Number.NaN
}

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null))

/** What a verified Stripe event means for the shop (`other`: nothing to do). */
function eventOf(event: Stripe.Event): ProviderEvent {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const s = event.data.object
      const paymentId = s.client_reference_id ?? s.metadata?.paymentId ?? null
      if (!paymentId) return { id: event.id, type: 'other' }
      const currency = (s.currency ?? '').toUpperCase()
      const paid =
        event.type === 'checkout.session.async_payment_succeeded' ||
        (event.type === 'checkout.session.completed' && s.payment_status === 'paid')
      const cancelled = event.type === 'checkout.session.expired' || event.type === 'checkout.session.async_payment_failed'
      // a completed session still waiting for a delayed method (bank debit) pays with async_payment_succeeded
      if (!paid && !cancelled) return { id: event.id, type: 'other' }
      return {
        id: event.id,
        type: paid ? 'checkout.completed' : 'checkout.cancelled',
        paymentId,
        amount: fromStripeAmount(s.amount_total ?? 0, currency),
        currency,
        ref: idOf(s.payment_intent),
      }
    }
    case 'charge.refunded': {
      const charge = event.data.object
      const ref = idOf(charge.payment_intent)
      return ref
        ? { id: event.id, type: 'charge.refunded', ref, paymentId: charge.metadata?.paymentId ?? null }
        : { id: event.id, type: 'other' }
    }
    case 'charge.dispute.created': {
      const ref = idOf(event.data.object.payment_intent)
      return ref ? { id: event.id, type: 'charge.disputed', ref, paymentId: null } : { id: event.id, type: 'other' }
    }
    default:
      return { id: event.id, type: 'other' }
  }
}

const STRIPE_SIGNATURE_HEADER = 'Stripe-Signature'
const cryptoProvider = Stripe.createSubtleCryptoProvider()

/** The SDK client: fetch HTTP client (workerd has no Node http), pointed at `apiUrl` when given. */
function stripeClient(config: Pick<StripeConfig, 'secretKey' | 'apiUrl' | 'timeoutMs'>): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : null
  return new Stripe(config.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: config.timeoutMs ?? 10_000,
    telemetry: false,
    ...(api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  })
}

/** The reader-facing name of the coins bought (Stripe shows it on its checkout page). */
export type NameOf = (p: { coins: number; bonus: number }) => string

/** How far ahead of our clock a webhook's signing time may be (clocks differ a little, never minutes). */
const MAX_CLOCK_SKEW_MS = 30_000

export function stripeProvider(config: StripeConfig, nameOf: NameOf = (p) => `${p.coins} coins`): PaymentProvider {
  const stripe = stripeClient(config)
  return {
    id: 'stripe',
    async createCheckout(payment, origin) {
      const result = (state: 'return' | 'cancel') =>
        new URL(`/shop/result?payment=${encodeURIComponent(payment.id)}${state === 'cancel' ? '&cancelled=1' : ''}`, origin).href
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: payment.id,
          metadata: { paymentId: payment.id },
          payment_intent_data: { metadata: { paymentId: payment.id } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: payment.currency.toLowerCase(),
                unit_amount: toStripeAmount(payment.amount, payment.currency),
                product_data: { name: nameOf(payment) },
              },
            },
          ],
          success_url: result('return'),
          cancel_url: result('cancel'),
        },
        { idempotencyKey: payment.id },
      )
      if (!session.url) throw new Error(`Stripe checkout session ${session.id} has no url`)
      return { checkoutUrl: session.url }
    },
    async verifyWebhook(rawBody, header, now = new Date()) {
      const signature = header(STRIPE_SIGNATURE_HEADER)
      if (!signature || signature.length > 4096) return null
      // the SDK refuses a signature older than 5 minutes but not one from the future (issue 34 point 7)
      const signedAt = Number(/(?:^|,)t=(\d{1,12})(?:,|$)/.exec(signature)?.[1] ?? NaN)
      if (!(signedAt * 1000 <= now.getTime() + MAX_CLOCK_SKEW_MS)) return null
      let event: Stripe.Event
      try {
        event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signature,
          config.webhookSecret,
          undefined,
          cryptoProvider,
          now.getTime(),
        )
      } catch {
        return null
      }
      return eventOf(event)
    },
    async refund(payment) {
      if (!payment.ref) throw new Error(`payment ${payment.id} has no Stripe PaymentIntent`)
      const refund = await stripe.refunds.create(
        { payment_intent: payment.ref, metadata: { paymentId: payment.id } },
        { idempotencyKey: `refund-${payment.id}` },
      )
      if (refund.status !== 'succeeded' && refund.status !== 'pending') throw new Error(`Stripe refund ${refund.id} is ${refund.status}`)
    },
  }
}
