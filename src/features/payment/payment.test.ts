import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  ChargeRequest,
  ShopForm,
  checkCharge,
  isPaymentId,
  isPaymentMethod,
  newPaymentId,
  paymentGrants,
  planRefund,
  planReversal,
  refundRefusal,
  type CoinProduct,
  type PaymentState,
} from './payment.ts'

/** A paid charge's bonus coins expire after 90 days. */
const PAYMENT_BONUS_DAYS = 90

const product = (o: Partial<CoinProduct> = {}): CoinProduct => ({
  id: 1,
  coins: 100,
  bonus: 15,
  price: 1499,
  currency: 'EUR',
  label: null,
  perUserLimit: null,
  stockLimit: null,
  soldCount: 0,
  ...o,
})

describe('checkCharge (spec §8 Payment errors)', () => {
  it('refuses an unknown product', () => {
    expect(checkCharge(null, 0)).toEqual({ ok: false, code: 'NOT_FOUND_COIN_PRODUCT' })
  })
  it('LIMITED_COIN_PRODUCT once the stock is sold, whatever the reader bought', () => {
    expect(checkCharge(product({ stockLimit: 100, soldCount: 99 }), 0)).toEqual({ ok: true })
    expect(checkCharge(product({ stockLimit: 100, soldCount: 100 }), 0)).toEqual({ ok: false, code: 'LIMITED_COIN_PRODUCT' })
    expect(checkCharge(product({ stockLimit: 0 }), 0)).toEqual({ ok: false, code: 'LIMITED_COIN_PRODUCT' })
  })
  it('LIMITED_COIN_PRODUCT_USER once the reader paid it per-user-limit times', () => {
    expect(checkCharge(product({ perUserLimit: 1 }), 0)).toEqual({ ok: true })
    expect(checkCharge(product({ perUserLimit: 1 }), 1)).toEqual({ ok: false, code: 'LIMITED_COIN_PRODUCT_USER' })
    expect(checkCharge(product({ perUserLimit: 3 }), 2)).toEqual({ ok: true })
  })
  it('reports the stock before the personal limit', () => {
    expect(checkCharge(product({ perUserLimit: 1, stockLimit: 1, soldCount: 1 }), 1)).toEqual({ ok: false, code: 'LIMITED_COIN_PRODUCT' })
  })
})

describe('paymentGrants', () => {
  const at = new Date('2026-03-01T10:00:00.000Z')
  it('grants never-expiring coins and bonus coins that expire after PAYMENT_BONUS_DAYS', () => {
    expect(paymentGrants({ coins: 100, bonus: 15 }, at)).toEqual([
      { type: 'COIN', amount: 100, expiresAt: null },
      { type: 'BONUS', amount: 15, expiresAt: new Date(at.getTime() + PAYMENT_BONUS_DAYS * 86_400_000).toISOString() },
    ])
  })
  it('no bonus lot for a product without bonus', () => {
    expect(paymentGrants({ coins: 10, bonus: 0 }, at)).toEqual([{ type: 'COIN', amount: 10, expiresAt: null }])
  })
})

describe('ids, methods and forms', () => {
  it('payment ids are random and recognisable', () => {
    const a = newPaymentId()
    expect(a).toMatch(/^pay_[0-9a-f]{32}$/)
    expect(newPaymentId()).not.toBe(a)
    expect(isPaymentId(a)).toBe(true)
    for (const bad of ['', 'pay_', '1', 'pay_../x', 'PAY_1', `pay_${'a'.repeat(65)}`]) expect(isPaymentId(bad)).toBe(false)
  })
  it('knows its methods', () => {
    expect(isPaymentMethod('card')).toBe(true)
    expect(isPaymentMethod('toString')).toBe(false)
  })
  it('the API body takes a positive integer product and a method text', () => {
    expect(ChargeRequest.safeParse({ productId: 1, method: 'card' }).success).toBe(true)
    for (const bad of [
      { productId: 0, method: 'card' },
      { productId: 1.5, method: 'card' },
      { productId: '1', method: 'card' },
      { productId: 1 },
      { productId: 1, method: '' },
    ]) {
      expect(ChargeRequest.safeParse(bad).success).toBe(false)
    }
  })
  it('the shop form leaves the agreement to the handler and needs a key', () => {
    expect(ShopForm.parse({ productId: '3', key: 'abcdefgh12' })).toEqual({ productId: 3, method: 'card', key: 'abcdefgh12' })
    expect(ShopForm.parse({ productId: '3', key: 'abcdefgh12', agree: 'on' }).agree).toBe('on')
    expect(ShopForm.safeParse({ productId: '3' }).success).toBe(false)
    expect(ShopForm.safeParse({ productId: 'x', key: 'abcdefgh12' }).success).toBe(false)
  })
})

describe('planRefund and planReversal (issue 20: a refund takes back what the payment brought)', () => {
  const paid = { state: 'PAID' as const, paidAt: '2026-11-20T00:00:00.000Z' }
  const now = new Date('2026-11-22T00:00:00.000Z')
  const lots = [
    { id: 1, type: 'COIN' as const, amount: 50, remaining: 50 },
    { id: 2, type: 'BONUS' as const, amount: 7, remaining: 7 },
    { id: 3, type: 'BONUS' as const, amount: 20, remaining: 20 }, // the top-up coupon's reward
  ]
  it('takes every lot the payment caused, paid coins first', () => {
    expect(planRefund(paid, lots, now)).toEqual({
      ok: true,
      steps: [
        { lotId: 1, type: 'COIN', take: 50 },
        { lotId: 2, type: 'BONUS', take: 7 },
        { lotId: 3, type: 'BONUS', take: 20 },
      ],
    })
  })
  it('is not refundable when any of them was spent, too late, or not paid', () => {
    expect(planRefund(paid, [lots[0]!, lots[1]!, { ...lots[2]!, remaining: 19 }], now)).toEqual({ ok: false, code: 'not_refundable' })
    expect(planRefund(paid, lots, new Date('2026-11-27T00:00:00.000Z'))).toEqual({ ok: false, code: 'not_refundable' })
    expect(planRefund({ state: 'UNPAID', paidAt: null }, lots, now)).toEqual({ ok: false, code: 'not_refundable' })
    expect(planRefund(null, lots, now)).toEqual({ ok: false, code: 'NOT_EXIST' })
  })
  it('refundRefusal says in one line why planRefund refuses, and is null exactly when it refunds (issue 39 point 8)', () => {
    expect(refundRefusal(paid, lots, now)).toBeNull()
    expect(refundRefusal(paid, [lots[0]!, { ...lots[1]!, remaining: 3 }], now)).toBe('its coins were used: BONUS 4 of 7')
    expect(refundRefusal(paid, lots, new Date('2026-11-27T00:00:00.000Z'))).toBe(
      'paid 2026-11-20T00:00:00.000Z: past the 7-day refund window (spec §9)',
    )
    expect(refundRefusal({ state: 'UNPAID', paidAt: null }, lots, now)).toBe('it is UNPAID, not PAID')
    expect(refundRefusal({ state: 'REFUNDED', paidAt: paid.paidAt, refundedAt: null }, lots, now)).toBe(
      'a refund of it is waiting for the provider',
    )
    expect(refundRefusal({ state: 'REFUNDED', paidAt: paid.paidAt, refundedAt: '2026-11-21T00:00:00.000Z' }, lots, now)).toBe(
      'already refunded (2026-11-21T00:00:00.000Z)',
    )
    expect(refundRefusal(null, lots, now)).toBe('no such payment')
    const lot = fc.record({
      id: fc.integer({ min: 1, max: 99 }),
      type: fc.constantFrom('COIN' as const, 'BONUS' as const, 'FREE_COIN' as const, 'MILEAGE' as const),
      amount: fc.integer({ min: 1, max: 100 }),
      remaining: fc.integer({ min: 0, max: 100 }),
    })
    const payment = fc.option(
      fc.record({
        state: fc.constantFrom<PaymentState>('UNPAID', 'PAID', 'CANCELLED', 'REFUNDED'),
        paidAt: fc.option(fc.constantFrom('2026-11-15T00:00:00.000Z', '2026-11-20T00:00:00.000Z', '2026-11-21T23:59:59.999Z')),
      }),
    )
    fc.assert(
      fc.property(payment, fc.array(lot, { maxLength: 4 }), (p, ls) => {
        const why = refundRefusal(p, ls, now)
        expect(why === null).toBe(planRefund(p, ls, now).ok)
        if (why !== null) expect(why).not.toContain('\n')
      }),
      { numRuns: 1000 },
    )
  })
  it('a reversal takes what is left and counts what was spent (mileage aside) as the debt', () => {
    expect(
      planReversal([
        { ...lots[0]!, remaining: 46 },
        { ...lots[1]!, remaining: 0 },
        { id: 4, type: 'MILEAGE', amount: 100, remaining: 0 },
      ]),
    ).toEqual({ steps: [{ lotId: 1, type: 'COIN', take: 46 }], debt: 11 })
  })
})
