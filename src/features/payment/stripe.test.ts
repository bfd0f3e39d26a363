import { describe, expect, it } from 'vitest'
import Stripe from 'stripe'
import { eventOf, fromStripeAmount, toStripeAmount } from './stripe.ts'

describe("amounts in Stripe's units", () => {
  it('keeps cents for two-decimal currencies and whole units for JPY and KRW, both ways', () => {
    for (const [currency, ours, stripe] of [
      ['EUR', 799, 799],
      ['USD', 499, 499],
      ['THB', 9900, 9900],
      ['TWD', 15000, 15000],
      ['JPY', 480, 480],
      ['KRW', 5900, 5900],
    ] as const) {
      expect(toStripeAmount(ours, currency), currency).toBe(stripe)
      expect(fromStripeAmount(stripe, currency), currency).toBe(ours)
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

  it('a paid completed session pays; an unpaid one (delayed method) waits for async_payment_succeeded', () => {
    expect(eventOf(event('checkout.session.completed', { ...session, payment_status: 'paid' }))).toEqual({
      id: 'evt_1',
      type: 'checkout.completed',
      paymentId: 'pay_ab',
      amount: 799,
      currency: 'EUR',
      ref: 'pi_1',
    })
    expect(eventOf(event('checkout.session.completed', { ...session, payment_status: 'unpaid' }))).toEqual({ id: 'evt_1', type: 'other' })
    expect(eventOf(event('checkout.session.async_payment_succeeded', { ...session, payment_status: 'paid' })).type).toBe(
      'checkout.completed',
    )
  })
  it('expired and failed sessions cancel; refunds and disputes reverse by PaymentIntent; the rest is ignored', () => {
    expect(eventOf(event('checkout.session.expired', { ...session, payment_intent: null }))).toMatchObject({
      type: 'checkout.cancelled',
      paymentId: 'pay_ab',
      ref: null,
    })
    expect(eventOf(event('checkout.session.async_payment_failed', session)).type).toBe('checkout.cancelled')
    expect(eventOf(event('charge.refunded', { payment_intent: 'pi_1', metadata: { paymentId: 'pay_ab' } }))).toEqual({
      id: 'evt_1',
      type: 'charge.refunded',
      ref: 'pi_1',
      paymentId: 'pay_ab',
    })
    expect(eventOf(event('charge.dispute.created', { payment_intent: { id: 'pi_1' } }))).toEqual({
      id: 'evt_1',
      type: 'charge.disputed',
      ref: 'pi_1',
      paymentId: null,
    })
    expect(eventOf(event('charge.refunded', { payment_intent: null })).type).toBe('other')
    expect(
      eventOf(event('checkout.session.completed', { ...session, client_reference_id: null, metadata: {}, payment_status: 'paid' })).type,
    ).toBe('other')
    expect(eventOf(event('customer.created', {})).type).toBe('other')
  })
})
