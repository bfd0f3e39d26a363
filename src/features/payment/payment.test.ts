import { describe, expect, it } from 'vitest'
import {
  ChargeRequest,
  PAYMENT_BONUS_DAYS,
  ShopForm,
  checkCharge,
  isPaymentId,
  isPaymentMethod,
  newPaymentId,
  paymentGrants,
  planRefund,
  planReversal,
  type CoinProduct,
} from './payment.ts'

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
