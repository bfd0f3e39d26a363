/**
 * docs/API.md `/payment`: the coin shop's products, charges and provider webhooks, plus the plain-form routes of the
 * shop page and of the sandbox provider's hosted checkout (they work without JavaScript and answer with 303s).
 */
import { Hono, type Context } from 'hono'
import { env } from 'cloudflare:workers'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { loginRedirect } from '../../src/features/session/routes.ts'
import { ChargeRequest, RefundRequest, ShopForm } from '../../src/features/payment/payment.ts'
import { addressOf, chargeOnce, createCharge, debtOf, paymentOf, saveAddress, listProducts, receiveWebhook, refundPayment, sandboxCheckout, type ShopScope } from '../../src/features/payment/payment.server.ts'
import { IdempotencyKeyTaken } from '../../src/features/wallet/idempotency.server.ts'
import { providerById, shopProvider } from '../../src/features/payment/providers.server.ts'
import { conversionFor } from '../../src/features/payment/conversion.ts'
import { AddressRequest } from '../../src/features/payment/address.ts'
import { requestHash } from '../../src/features/wallet/idempotency.ts'
import { MileageExchangeRequest } from '../../src/features/mileage/mileage.ts'
import { exchangeMileage } from '../../src/features/mileage/mileage.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { currentUserId, requireUser, sessionPlatform } from '../middleware/session.ts'
import { assertSameOrigin } from './forms.ts'
import { PERSONAL } from '../../src/lib/cache.ts'

const CHARGE_SCOPE = 'POST /payment/charge'

/** The edition's currency and the session's platform (fixed at sign-in; WEB for a guest, never X-Platform). */
function shopScope(c: Context<AppEnv>): ShopScope {
  return { currency: c.var.edition.currency, platform: sessionPlatform(c) }
}

/** The edition's payment provider; the coins bought are named in the reader's language on its checkout page. */
function provider(c: Context<AppEnv>) {
  return shopProvider(c.var.edition, (p) => (p.bonus > 0 ? `${c.var.t('wallet.shop.coins', { count: p.coins })} ${c.var.t('wallet.shop.bonus', { count: p.bonus })}` : c.var.t('wallet.shop.coins', { count: p.coins })))
}

/** Spec §7 Facebook conversion on a paid charge when the edition's flag is on (local provider records it). */
function conversion(c: Context<AppEnv>) {
  const provider = conversionFor(c.var.edition.features)
  return provider ? { provider, actionUrl: new URL('/shop', c.req.url).href } : null
}

/** ASVS 3.5: the web forms are accepted only from the site's own Origin. */
/** A form post: 303 to the login route for a guest, to `failed(code)` on a refusal with a catalogue code. */
async function formRoute(c: Context<AppEnv>, back: string, run: (userId: number) => Promise<string>, failed: (code: string) => string) {
  assertSameOrigin(c)
  c.header('Cache-Control', 'no-store')
  const state = c.get('session')
  if (!state || state.userId === null) return c.redirect(loginRedirect(new URL(back, c.req.url)) ?? '/user/login', 303)
  try {
    return c.redirect(await run(state.userId), 303)
  } catch (e) {
    if (e instanceof AppError && e.status < 500) return c.redirect(failed(e.code), 303)
    throw e
  }
}

export const payment = new Hono<AppEnv>()
  /** Active coin products, price in minor units of the edition's currency. */
  .get('/products', async (c) => {
    const scope = shopScope(c)
    const items = (await listProducts(c.var.db, scope)).map(({ id, coins, bonus, price, currency }) => ({ id, coins, bonus, price, currency }))
    // the list depends on the session's platform: an app's is never kept by a shared cache, nor served to another
    c.header('Cache-Control', scope.platform === 'WEB' ? 'public, max-age=60' : PERSONAL)
    c.header('Vary', 'Authorization')
    return ok(c, { items })
  })
  /** An UNPAID payment and the provider's checkout URL, once per Idempotency-Key. */
  .post('/charge', requireUser, validate('json', ChargeRequest), idempotent(CHARGE_SCOPE), async (c) => {
    const result = await createCharge(c.var.db, {
      userId: currentUserId(c),
      request: c.req.valid('json'),
      claim: c.var.idempotency,
      scope: shopScope(c),
      origin: new URL(c.req.url).origin,
      provider: provider(c),
    })
    return ok(c, result)
  })
  /** Spec §5/§9 mileage exchange, once per Idempotency-Key: `{amount}` points → `{coin}` (edition rate). */
  .post('/mileage', requireUser, validate('json', MileageExchangeRequest), idempotent('POST /payment/mileage'), async (c) => {
    const { mileagePerCoin, mileageMinimum } = c.var.edition
    const result = await exchangeMileage(c.var.db, {
      userId: currentUserId(c),
      amount: c.req.valid('json').amount,
      rate: { mileagePerCoin, mileageMinimum },
      claim: c.var.idempotency,
    })
    return ok(c, result)
  })
  /**
   * Spec §9 refund of unused paid coins within 7 days, once per Idempotency-Key: `{paymentId}` →
   * `{paymentId, refunded:{coin, bonus}, coin}`; NOT_EXIST (unknown or another reader's payment),
   * INVALID_PARAMETER with reason NOT_REFUNDABLE (not paid, refunded, too late, or paid coins spent).
   */
  .post('/refund', requireUser, validate('json', RefundRequest), idempotent('POST /payment/refund'), async (c) => {
    const result = await refundPayment(c.var.db, { userId: currentUserId(c), paymentId: c.req.valid('json').paymentId, claim: c.var.idempotency })
    return ok(c, result)
  })
  /** The charge history page's refund form (same Origin): 303 to /history/charge?refunded=1 or ?error=CODE. */
  .post('/web/refund', async (c) => {
    const raw = ((await c.req.parseBody().catch(() => null)) ?? {}) as Record<string, unknown>
    const form = RefundRequest.extend({ key: ShopForm.shape.key }).safeParse(raw)
    return formRoute(
      c,
      '/history/charge',
      async (userId) => {
        if (!form.success) throw new AppError('INVALID_PARAMETER')
        const scope = 'POST /payment/refund'
        const { paymentId } = form.data
        const claim = { userId, key: `web-${form.data.key}`, scope, requestHash: await requestHash(scope, JSON.stringify({ paymentId })) }
        try {
          await refundPayment(c.var.db, { userId, paymentId, claim })
        } catch (e) {
          if (!(e instanceof IdempotencyKeyTaken)) throw e // a double submit: the first one refunded
        }
        return '/history/charge?refunded=1'
      },
      (code) => `/history/charge?error=${code}`,
    )
  })
  /** A payment of the reader (the shop island polls it while the checkout pop-up is open); NOT_EXIST for others'. */
  .get('/status/:paymentId', requireUser, async (c) => {
    const found = await paymentOf(c.var.db, currentUserId(c), c.req.param('paymentId'))
    if (!found) throw new AppError('NOT_EXIST')
    return ok(c, found)
  })
  /** Coins the reader owes (spent coins of payments whose money went back: a refund at the provider, a dispute). */
  .get('/debt', requireUser, async (c) => {
    return ok(c, { debt: await debtOf(c.var.db, currentUserId(c)) })
  })
  /** Spec §3 address form: the saved address (null when none) / save it (29 European countries, dial codes). */
  .get('/address', requireUser, async (c) => {
    return ok(c, { address: await addressOf(c.var.db, currentUserId(c)) })
  })
  .put('/address', requireUser, validate('json', AddressRequest), async (c) => {
    return ok(c, { address: await saveAddress(c.var.db, currentUserId(c), c.req.valid('json')) })
  })
  /** The /shop/address page's form (same Origin): 303 to /shop/address?saved=1 or ?error=INVALID_PARAMETER&fields=…. */
  .post('/web/address', async (c) => {
    const raw = ((await c.req.parseBody().catch(() => null)) ?? {}) as Record<string, unknown>
    return formRoute(
      c,
      '/shop/address',
      async (userId) => {
        const form = AddressRequest.safeParse(raw)
        if (!form.success) return `/shop/address?error=INVALID_PARAMETER&fields=${encodeURIComponent([...new Set(form.error.issues.map((i) => i.path.join('.')))].join(','))}`
        await saveAddress(c.var.db, userId, form.data)
        return '/shop/address?saved=1'
      },
      (code) => `/shop/address?error=${code}`,
    )
  })
  /**
   * The provider's signed event: bad signature or a payment not (yet) known → 400 INVALID_PARAMETER, which the
   * provider redelivers later; replay → 200, nothing credited twice; a provider not configured here → 404.
   */
  .post('/webhook/:provider', async (c) => {
    const provider = providerById(c.req.param('provider'))
    if (!provider) throw new AppError('NOT_EXIST')
    const outcome = await receiveWebhook(c.var.db, provider, await c.req.text(), (n) => c.req.header(n), new Date(), conversion(c))
    c.header('Cache-Control', 'no-store')
    return ok(c, { received: true, outcome })
  })
  /** The /shop form: the agreement checkbox is required (spec §5); then the checkout page. */
  .post('/web/charge', async (c) => {
    const raw = ((await c.req.parseBody().catch(() => null)) ?? {}) as Record<string, unknown>
    const form = ShopForm.safeParse(raw)
    const product = form.success ? `&product=${form.data.productId}` : ''
    return formRoute(
      c,
      '/shop',
      async (userId) => {
        if (!form.success) throw new AppError('INVALID_PARAMETER')
        if (form.data.agree !== 'on') return `/shop?agree=required${product}#shop-form`
        const request = { productId: form.data.productId, method: form.data.method }
        const claim = { userId, key: `web-${form.data.key}-${request.productId}`, scope: CHARGE_SCOPE, requestHash: await requestHash(CHARGE_SCOPE, JSON.stringify(request)) }
        const { checkoutUrl } = await chargeOnce(c.var.db, { userId, request, claim, scope: shopScope(c), origin: new URL(c.req.url).origin, provider: provider(c) })
        const url = new URL(checkoutUrl)
        return url.origin === new URL(c.req.url).origin ? url.pathname : url.href
      },
      (code) => `/shop?error=${code}${product}#shop-form`,
    )
  })
  /** The sandbox's hosted checkout buttons (Pay / Cancel), local runs only: its signed webhook, then the result page. */
  .post('/sandbox/:paymentId/:action{pay|cancel}', async (c) => {
    const sandbox = providerById('sandbox')
    const secret = (env as unknown as Record<string, string | undefined>).PAYMENT_WEBHOOK_SECRET
    if (!sandbox || !secret) throw new AppError('NOT_EXIST')
    const paymentId = c.req.param('paymentId')
    const action = c.req.param('action') === 'pay' ? 'pay' : 'cancel'
    return formRoute(
      c,
      `/shop/checkout/${encodeURIComponent(paymentId)}`,
      async (userId) => {
        const done = await sandboxCheckout(c.var.db, userId, paymentId, action, { provider: sandbox, secret }, new Date(), conversion(c))
        return `/shop/result?payment=${encodeURIComponent(done.id)}`
      },
      (code) => `/shop?error=${code}`,
    )
  })
