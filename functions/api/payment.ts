/**
 * docs/API.md `/payment`: the coin shop's products, charges and provider webhooks, plus the plain-form routes of the
 * shop page and of the sandbox provider's hosted checkout (they work without JavaScript and answer with 303s).
 */
import { Hono, type Context } from 'hono'
import { env } from 'cloudflare:workers'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { raiseAlert } from '../../src/features/operator/alerts.server.ts'
import { ChargeRequest, RefundRequest, ShopForm } from '../../src/features/payment/payment.ts'
import {
  addressOf,
  createCharge,
  debtOf,
  paymentOf,
  saveAddress,
  listProducts,
  receiveWebhook,
  refundPayment,
  sandboxCheckout,
  type ShopScope,
} from '../../src/features/payment/payment.server.ts'
import { providerById, shopProvider } from '../../src/features/payment/providers.server.ts'
import { conversionFor } from '../../src/features/payment/conversion.ts'
import { AddressRequest } from '../../src/features/payment/address.ts'
import { ExchangePage, MileageExchangeRequest } from '../../src/features/mileage/mileage.ts'
import { exchangeCoins } from '../../src/features/mileage/exchange.ts'
import { exchangeMileage } from '../../src/features/mileage/mileage.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { checksSessionItself, currentSession, currentUserId, requireUser, sessionPlatform } from '../middleware/session.ts'
import { FormKey, formRoute, fromForm, toLogin, type RawForm } from './forms.ts'
import { z } from 'zod'
import { PERSONAL } from '../../src/lib/cache.ts'

const CHARGE_SCOPE = 'POST /payment/charge'

/** The edition's mileage rate (spec §9). */
const mileageRate = (c: Context<AppEnv>) => ({ mileagePerCoin: c.var.edition.mileagePerCoin, mileageMinimum: c.var.edition.mileageMinimum })

/** The exchange popup's plain form: the JSON body's amount, the rendered key and the page it was sent from. */
const MileageForm = fromForm(MileageExchangeRequest.extend({ key: FormKey, page: ExchangePage }))
/** The page a mileage form came from (/my when the field is missing or not one of them). */
const exchangePage = (raw: RawForm) => ExchangePage.catch('/my').parse(raw.page)

/** The edition's currency and the session's platform (fixed at sign-in; WEB for a guest, never X-Platform). */
function shopScope(c: Context<AppEnv>): ShopScope {
  return { currency: c.var.edition.currency, platform: sessionPlatform(c) }
}

/** The edition's payment provider; the coins bought are named in the reader's language on its checkout page. */
function provider(c: Context<AppEnv>) {
  return shopProvider(c.var.edition, (p) =>
    p.bonus > 0
      ? `${c.var.t('wallet.shop.coins', { count: p.coins })} ${c.var.t('wallet.shop.bonus', { count: p.bonus })}`
      : c.var.t('wallet.shop.coins', { count: p.coins }),
  )
}

/** Spec §7 Facebook conversion on a paid charge when the edition's flag is on (local provider records it). */
function conversion(c: Context<AppEnv>) {
  const provider = conversionFor(c.var.edition.features)
  return provider ? { provider, actionUrl: new URL('/shop', c.req.url).href } : null
}

export const payment = new Hono<AppEnv>()
  /** Active coin products, price in minor units of the edition's currency. */
  .get('/products', async (c) => {
    const scope = shopScope(c)
    const items = (await listProducts(c.var.db, scope)).map(({ id, coins, bonus, price, currency }) => ({
      id,
      coins,
      bonus,
      price,
      currency,
    }))
    // the list depends on the session's platform: an app's is never kept by a shared cache, nor served to another
    c.header('Cache-Control', scope.platform === 'WEB' ? 'public, max-age=60' : PERSONAL)
    c.header('Vary', 'Authorization')
    return ok(c, { items })
  })
  /**
   * The provider's signed event: bad signature or a payment not (yet) known → 400 INVALID_PARAMETER, which the
   * provider redelivers later; replay → 200, nothing credited twice; a provider not configured here → 404.
   */
  .post('/webhook/:provider', async (c) => {
    const provider = providerById(c.req.param('provider'))
    if (!provider) throw new AppError('NOT_EXIST')
    const outcome = await receiveWebhook(c.var.db, provider, await c.req.text(), (n) => c.req.header(n), new Date(), conversion(c)).catch(
      async (e: unknown) => {
        // a bad signature or a failure while it was applied; a payment not known yet is a race the redelivery settles
        const code = e instanceof AppError ? e.code : 'UNKNOWN'
        const fields = e instanceof AppError ? e.details?.fields : undefined
        if (code !== 'INVALID_PARAMETER' || fields === 'signature')
          await raiseAlert(c.var.db, 'webhook', `${provider.id}: ${fields === 'signature' ? 'signature refused' : String(e)}`)
        throw e
      },
    )
    c.header('Cache-Control', 'no-store')
    return ok(c, { received: true, outcome })
  })
  /**
   * The exchange popup's plain form (same Origin, works without JavaScript), once per rendered key: 303 to its page
   * with `?exchanged=<coins>`, or `?error=CODE` with the popup open again and the amount kept.
   */
  .post(
    '/web/mileage',
    ...formRoute({
      schema: MileageForm,
      guest: (raw, c) => toLogin(exchangePage(raw))(raw, c),
      keep: ['amount'],
      fields: { EXCHANGE_MILEAGE_INSUFFICIENT: 'amount', MILEAGE_INSUFFICIENT: 'amount' },
      once: { scope: 'POST /payment/web/mileage' },
      run: (data, c) => exchangeMileage({ userId: currentUserId(c), amount: data.amount, rate: mileageRate(c), claim: c.var.idempotency }),
      done: (data, _result, c) => `${data.page}?exchanged=${exchangeCoins(data.amount, mileageRate(c))}#exchange-done`,
      failed: (code, raw) => `${exchangePage(raw)}?error=${code}#mileage-exchange`,
    }),
  )
  /** The charge history page's refund form (same Origin): 303 to /history/charge?refunded=1 or ?error=CODE. */
  .post(
    '/web/refund',
    ...formRoute({
      schema: RefundRequest.extend({ key: ShopForm.shape.key }),
      guest: toLogin('/history/charge'),
      once: { scope: 'POST /payment/web/refund' },
      run: (data, c) => refundPayment(c.var.db, { userId: currentUserId(c), paymentId: data.paymentId, claim: c.var.idempotency }),
      done: () => '/history/charge?refunded=1',
      failed: (code) => `/history/charge?error=${code}`,
    }),
  )
  /** The /shop/address page's form (same Origin): 303 to /shop/address?saved=1 or ?error=INVALID_PARAMETER&fields=…. */
  .post(
    '/web/address',
    ...formRoute({
      schema: AddressRequest,
      guest: toLogin('/shop/address'),
      run: (data, c) => saveAddress(currentUserId(c), data),
      done: () => '/shop/address?saved=1',
      failed: (code, _raw, details) =>
        `/shop/address?error=${code}${code === 'INVALID_PARAMETER' && typeof details?.fields === 'string' ? `&fields=${encodeURIComponent(details.fields)}` : ''}`,
    }),
  )
  /** The /shop form: the agreement checkbox is required (spec §5); then the checkout page, once per rendered key and product. */
  .post(
    '/web/charge',
    ...formRoute({
      schema: ShopForm,
      guest: toLogin('/shop'),
      before: (data) => {
        if (data.agree !== 'on') throw new AppError('INVALID_PARAMETER', { field: 'agree' })
      },
      keep: ['method'],
      once: { scope: CHARGE_SCOPE, key: (data) => `web-${data.key}-${data.productId}` },
      run: (data, c) =>
        createCharge(c.var.db, {
          userId: currentUserId(c),
          request: { productId: data.productId, method: data.method },
          claim: c.var.idempotency,
          scope: shopScope(c),
          origin: new URL(c.req.url).origin,
          provider: provider(c),
        }),
      done: (_data, { checkoutUrl }, c) => {
        const url = new URL(checkoutUrl)
        return url.origin === new URL(c.req.url).origin ? url.pathname : url.href
      },
      failed: (code, raw, details) => {
        const form = ShopForm.safeParse(raw)
        return `/shop?error=${code}${form.success ? `&product=${form.data.productId}` : ''}#${details?.field === 'agree' ? 'shop-agree' : 'shop-error'}`
      },
    }),
  )
  /** The sandbox's hosted checkout buttons (Pay / Cancel), local runs only: its signed webhook, then the result page. */
  .post(
    '/sandbox/:paymentId/:action{pay|cancel}',
    async (c, next) => {
      if (!providerById('sandbox') || !(env as unknown as Record<string, string | undefined>).PAYMENT_WEBHOOK_SECRET)
        throw new AppError('NOT_EXIST')
      await next()
    },
    ...formRoute({
      schema: z.object({}),
      guest: (raw, c) => toLogin(`/shop/checkout/${encodeURIComponent(c.req.param('paymentId') ?? '')}`)(raw, c),
      run: (_data, c) => {
        const secret = (env as unknown as Record<string, string>).PAYMENT_WEBHOOK_SECRET!
        return sandboxCheckout(
          c.var.db,
          currentUserId(c),
          c.req.param('paymentId')!,
          c.req.param('action') === 'pay' ? 'pay' : 'cancel',
          { provider: providerById('sandbox')!, secret },
          new Date(),
          conversion(c),
        )
      },
      done: (_data, done) => `/shop/result?payment=${encodeURIComponent(done.id)}`,
      failed: (code) => `/shop?error=${code}`,
    }),
  )
  // members only below (the routes above are open, or forms that send a guest to log in)
  .use(requireUser)
  /** An UNPAID payment and the provider's checkout URL, once per Idempotency-Key. */
  .post('/charge', validate('json', ChargeRequest), idempotent(CHARGE_SCOPE), async (c) => {
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
  .post(
    '/mileage',
    checksSessionItself,
    validate('json', MileageExchangeRequest),
    idempotent('POST /payment/mileage', { handlerChecksKey: true }),
    async (c) => {
      const session = currentSession(c)
      const result = await exchangeMileage(
        { userId: session.userId, amount: c.req.valid('json').amount, rate: mileageRate(c), claim: c.var.idempotency },
        session,
      )
      return ok(c, result)
    },
  )
  /**
   * Spec §9 refund of unused paid coins within 7 days, once per Idempotency-Key: `{paymentId}` →
   * `{paymentId, refunded:{coin, bonus}, coin}`; NOT_EXIST (unknown or another reader's payment),
   * INVALID_PARAMETER with reason NOT_REFUNDABLE (not paid, refunded, too late, or paid coins spent).
   */
  .post('/refund', validate('json', RefundRequest), idempotent('POST /payment/refund'), async (c) => {
    const result = await refundPayment(c.var.db, {
      userId: currentUserId(c),
      paymentId: c.req.valid('json').paymentId,
      claim: c.var.idempotency,
    })
    return ok(c, result)
  })
  /** A payment of the reader (the shop island polls it while the checkout pop-up is open); NOT_EXIST for others'. */
  .get('/status/:paymentId', async (c) => {
    const found = await paymentOf(c.var.db, currentUserId(c), c.req.param('paymentId'))
    if (!found) throw new AppError('NOT_EXIST')
    return ok(c, found)
  })
  /** Coins the reader owes (spent coins of payments whose money went back: a refund at the provider, a dispute). */
  .get('/debt', async (c) => {
    return ok(c, { debt: await debtOf(c.var.db, currentUserId(c)) })
  })
  /** Spec §3 address form: the saved address (null when none) / save it (29 European countries, dial codes). */
  .get('/address', async (c) => {
    return ok(c, { address: await addressOf(currentUserId(c)) })
  })
  .put('/address', validate('json', AddressRequest), async (c) => {
    return ok(c, { address: await saveAddress(currentUserId(c), c.req.valid('json')) })
  })
