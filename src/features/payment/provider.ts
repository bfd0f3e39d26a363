/**
 * Payment providers behind one small interface (issue 4 §2): a provider makes a checkout for a payment and
 * proves, with a signed webhook, that the payment succeeded or was cancelled. The sandbox provider behaves like
 * a real hosted checkout: its page is on our own site (`/shop/checkout/{paymentId}`), and its webhook is signed
 * Stripe-style — header `Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`,
 * timestamps older than 5 minutes refused, signatures compared in constant time. No I/O besides WebCrypto.
 */
import { z } from 'zod'
import { constantTimeEqual } from '../../lib/secrets.ts'

/** A checkout the provider says was paid or given up (signature verified). */
export type CheckoutEvent = {
  /** The provider's unique event id: a replay carries the same id (payment_events primary key). */
  id: string
  type: 'checkout.completed' | 'checkout.cancelled'
  paymentId: string
  /** Minor units and currency the provider charged: must equal the payment's. */
  amount: number
  currency: string
  /** The provider's own id of the money movement (Stripe: the PaymentIntent), kept to refund it. */
  ref?: string | null
}

/** Money given back at the provider (a refund made in its dashboard, a dispute): the coins go back too. */
export type ReversalEvent = {
  id: string
  type: 'charge.refunded' | 'charge.disputed'
  /** The provider's id of the money movement (`ref` of the completed checkout). */
  ref: string
  /** Our payment id when the provider tells it. */
  paymentId: string | null
}

/** What a provider's webhook tells us, once its signature has been verified (`other`: nothing for the shop). */
export type ProviderEvent = CheckoutEvent | ReversalEvent | { id: string; type: 'other' }

/** The payment a checkout is made for (amount in minor units of the payment's currency). */
type CheckoutPayment = { id: string; amount: number; currency: string; coins: number; bonus: number }

export type PaymentProvider = {
  /** The `{provider}` of `POST /api/v1/payment/webhook/{provider}` and `payments.provider`. */
  readonly id: 'sandbox' | 'stripe'
  /** Where the reader pays (`origin`: the site the reader is on; the provider brings the reader back to /shop/result). */
  createCheckout(payment: CheckoutPayment, origin: string): Promise<{ checkoutUrl: string }>
  /** The event of a webhook request, or null when its signature, timestamp or body is not acceptable. */
  verifyWebhook(rawBody: string, header: (name: string) => string | undefined, now?: Date): Promise<ProviderEvent | null>
  /**
   * Gives the payment's money back at the provider (spec §9 refund), under an idempotency key of the payment;
   * throws when the provider did not accept it (then nothing else may change).
   */
  refund(payment: { id: string; ref: string | null; amount: number; currency: string }): Promise<void>
}

const SANDBOX_SIGNATURE_HEADER = 'Sandbox-Signature'
/** Stripe's default tolerance: a signed event older (or further in the future) than this is refused. */
const SIGNATURE_TOLERANCE_SECONDS = 5 * 60

/** The sandbox's webhook body. */
const SandboxEventBody = z.object({
  id: z.string().regex(/^evt_[0-9A-Za-z_]{1,64}$/),
  type: z.enum(['checkout.completed', 'checkout.cancelled']),
  data: z.object({
    paymentId: z.string().regex(/^pay_[0-9a-z_]{1,64}$/),
    amount: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
})
type SandboxEventBody = z.infer<typeof SandboxEventBody>

const encoder = new TextEncoder()

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)))
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The `Sandbox-Signature` header value for `body` signed at `t` (unix seconds). */
async function signSandbox(secret: string, body: string, t: number): Promise<string> {
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`
}

/**
 * Checks a `Sandbox-Signature` header: `t` within `SIGNATURE_TOLERANCE_SECONDS` of `now` and one `v1` equal (in
 * constant time) to the HMAC of `t.body`. Several `v1` are allowed (secret rotation, as Stripe does).
 */
async function verifySandboxSignature(secret: string, header: string | undefined, body: string, now: Date): Promise<boolean> {
  if (!secret || !header || header.length > 1024) return false
  let t: number | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2)
    if (k === 't' && v !== undefined && /^\d{1,12}$/.test(v)) t = Number(v)
    else if (k === 'v1' && v !== undefined && /^[0-9a-f]{64}$/.test(v)) signatures.push(v)
  }
  if (t === null || signatures.length === 0) return false
  if (Math.abs(now.getTime() / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false
  const expected = await hmacHex(secret, `${t}.${body}`)
  let ok = false
  for (const s of signatures) ok = constantTimeEqual(s, expected) || ok
  return ok
}

/** The sandbox provider (local runs only): checkout page on our site, Stripe-style signed webhook signed with `secret`. */
export function sandboxProvider(secret: string | undefined): PaymentProvider {
  return {
    id: 'sandbox',
    async createCheckout(payment, origin) {
      return { checkoutUrl: new URL(`/shop/checkout/${encodeURIComponent(payment.id)}`, origin).href }
    },
    async verifyWebhook(rawBody, header, now = new Date()) {
      if (!secret || !(await verifySandboxSignature(secret, header(SANDBOX_SIGNATURE_HEADER), rawBody, now))) return null
      let json: unknown
      try {
        json = JSON.parse(rawBody)
      } catch {
        return null
      }
      const parsed = SandboxEventBody.safeParse(json)
      if (!parsed.success) return null
      const { id, type, data } = parsed.data
      return { id, type, paymentId: data.paymentId, amount: data.amount, currency: data.currency }
    },
    async refund() {
      // the sandbox took no money: nothing to give back
    },
  }
}

/**
 * The sandbox's side of the checkout: the signed webhook it sends when the reader presses Pay or Cancel
 * (body and headers exactly as a POST to `/api/v1/payment/webhook/sandbox` carries them).
 */
export async function sandboxWebhook(
  secret: string,
  event: { id: string; type: 'checkout.completed' | 'checkout.cancelled'; paymentId: string; amount: number; currency: string },
  now = new Date(),
): Promise<{ body: string; headers: Record<string, string> }> {
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    data: { paymentId: event.paymentId, amount: event.amount, currency: event.currency },
  } satisfies SandboxEventBody)
  const signature = await signSandbox(secret, body, Math.floor(now.getTime() / 1000))
  return { body, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature } }
}
