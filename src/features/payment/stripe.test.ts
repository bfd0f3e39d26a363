import { describe, expect, it } from 'vitest'
import Stripe from 'stripe'
import { stripeProvider } from './stripe.ts'

const WEBHOOK_SECRET = 'whsec_unit_test'
const provider = stripeProvider({ secretKey: 'sk_test_unit', webhookSecret: WEBHOOK_SECRET })
const sdk = new Stripe('sk_test_unit')
const cryptoProvider = Stripe.createSubtleCryptoProvider()

/** What the shop's Stripe provider makes of a webhook carrying `event`, signed with its secret (the SDK's test signature). */
async function eventOf(event: Stripe.Event) {
  const payload = JSON.stringify(event)
  const signature = await sdk.webhooks.generateTestHeaderStringAsync({ payload, secret: WEBHOOK_SECRET, cryptoProvider })
  const verified = await provider.verifyWebhook(payload, (name) => (name.toLowerCase() === 'stripe-signature' ? signature : undefined))
  expect(verified).not.toBeNull()
  return verified!
}

describe("amounts in Stripe's units", () => {
  // our amount → Stripe's at checkout: tests/worker/payment.stripe.test.ts (the amounts the Stripe double receives)
  it('keeps cents for two-decimal currencies and whole units for JPY and KRW, back from Stripe', async () => {
    for (const [currency, ours, stripe] of [
      ['EUR', 799, 799],
      ['USD', 499, 499],
      ['THB', 9900, 9900],
      ['TWD', 15000, 15000],
      ['JPY', 480, 480],
      ['KRW', 5900, 5900],
    ] as const) {
      const paid = {
        id: 'evt_1',
        type: 'checkout.session.completed',
        data: {
          object: {
            client_reference_id: 'pay_ab',
            amount_total: stripe,
            currency: currency.toLowerCase(),
            payment_status: 'paid',
            payment_intent: 'pi_1',
          },
        },
      }
      expect(await eventOf(paid as unknown as Stripe.Event), currency).toMatchObject({ amount: ours, currency })
    }
  })
})

describe('eventOf (a verified Stripe event → what the shop does)', () => {
  const event = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', type, data: { object } }) as unknown as Stripe.Event
  const session = {
    client_reference_id: 'pay_ab',
    metadata: { paymentId: 'pay_ab' },
    amount_total: 799,
    currency: 'eur',
    payment_intent: 'pi_1',
  }

  it('a paid completed session pays; an unpaid one (delayed method) waits for async_payment_succeeded', async () => {
    expect(await eventOf(event('checkout.session.completed', { ...session, payment_status: 'paid' }))).toEqual({
      id: 'evt_1',
      type: 'checkout.completed',
      paymentId: 'pay_ab',
      amount: 799,
      currency: 'EUR',
      ref: 'pi_1',
    })
    expect(await eventOf(event('checkout.session.completed', { ...session, payment_status: 'unpaid' }))).toEqual({
      id: 'evt_1',
      type: 'other',
    })
    expect((await eventOf(event('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' }))).type).toBe(
      'checkout.completed',
    )
  })
  it('expired and failed sessions cancel; refunds and disputes reverse by PaymentIntent; the rest is ignored', async () => {
    expect(await eventOf(event('checkout.session.expired', { ...session, payment_intent: null }))).toMatchObject({
      type: 'checkout.cancelled',
      paymentId: 'pay_ab',
      ref: null,
    })
    expect((await eventOf(event('checkout.session.async_payment_failed', session))).type).toBe('checkout.cancelled')
    expect(await eventOf(event('charge.refunded', { payment_intent: 'pi_1', metadata: { paymentId: 'pay_ab' } }))).toEqual({
      id: 'evt_1',
      type: 'charge.refunded',
      ref: 'pi_1',
      paymentId: 'pay_ab',
    })
    expect(await eventOf(event('charge.dispute.created', { payment_intent: { id: 'pi_1' } }))).toEqual({
      id: 'evt_1',
      type: 'charge.disputed',
      ref: 'pi_1',
      paymentId: null,
    })
    expect((await eventOf(event('charge.refunded', { payment_intent: null }))).type).toBe('other')
    expect(
      (await eventOf(event('checkout.session.completed', { ...session, client_reference_id: null, metadata: {}, payment_status: 'paid' })))
        .type,
    ).toBe('other')
    expect((await eventOf(event('customer.created', {}))).type).toBe('other')
  })
})
