/**
 * Which payment provider serves this worker (issue 20). The edition chooses (`payment.provider` in its
 * edition.json); Stripe needs the secrets STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET. The sandbox answers in a
 * local run only (`isLocalRun`), whatever the secrets: a deployed worker without a configured provider sells
 * nothing (the shop says payments are unavailable).
 */
import { env } from 'cloudflare:workers'
import type { Edition } from '../../lib/edition/schema.ts'
import { isLocalRun } from '../../lib/server/local-run.ts'
import { sandboxProvider, type PaymentProvider } from './provider.ts'
import { stripeProvider, type NameOf } from './stripe.ts'

function vars(): Record<string, string | undefined> {
  return env as unknown as Record<string, string | undefined>
}

function stripe(nameOf?: NameOf): PaymentProvider | null {
  const v = vars()
  if (!v.STRIPE_SECRET_KEY || !v.STRIPE_WEBHOOK_SECRET) return null
  const timeoutMs = Number(v.STRIPE_API_TIMEOUT_MS)
  return stripeProvider(
    {
      secretKey: v.STRIPE_SECRET_KEY,
      webhookSecret: v.STRIPE_WEBHOOK_SECRET,
      apiUrl: v.STRIPE_API_URL || undefined,
      timeoutMs: timeoutMs > 0 ? timeoutMs : undefined,
    },
    nameOf,
  )
}

function sandbox(): PaymentProvider | null {
  const secret = vars().PAYMENT_WEBHOOK_SECRET
  return isLocalRun() && secret ? sandboxProvider(secret) : null
}

/** The provider the shop charges with (null: payments are unavailable on this worker). */
export function shopProvider(edition: Pick<Edition, 'payment'>, nameOf?: NameOf): PaymentProvider | null {
  return (edition.payment.provider === 'stripe' ? stripe(nameOf) : null) ?? sandbox()
}

/** The provider of `POST /payment/webhook/{id}` and of a payment's refund (null: none here, 404). */
export function providerById(id: string): PaymentProvider | null {
  if (id === 'stripe') return stripe()
  if (id === 'sandbox') return sandbox()
  return null
}
