import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { checkCoupon, couponGrant, CouponCodeRequest, CouponCreateRequest, couponState, MAX_TICKETS, type Coupon } from './coupon.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const inDays = (d: number) => new Date(NOW.getTime() + d * 86_400_000).toISOString()
const coupon = (over: Partial<Coupon> = {}): Coupon => ({
  id: 1,
  type: 'EXTRA_EARN',
  minimumAmount: 0,
  startsAt: inDays(-10),
  expiresAt: inDays(10),
  platform: null,
  rewardType: 'COIN',
  rewardAmount: 100,
  rewardLotType: 'BONUS',
  rewardExpiresDays: 30,
  stock: null,
  usedCount: 0,
  ...over,
})

describe('CouponCodeRequest (spec §5: code non-empty)', () => {
  it('trims and upper-cases the code', () => {
    expect(CouponCodeRequest.parse({ code: '  welcome100 ' })).toEqual({ code: 'WELCOME100' })
    expect(CouponCodeRequest.parse({ code: '\tFlash50\n' })).toEqual({ code: 'FLASH50' })
  })
  it('refuses empty, blank, oversized, non-string and odd-character codes', () => {
    for (const bad of [
      {},
      { code: '' },
      { code: '   ' },
      { code: 'A'.repeat(65) },
      { code: 12 },
      { code: null },
      { code: 'A B' },
      { code: "x';--" },
      [],
    ]) {
      expect(CouponCodeRequest.safeParse(bad).success).toBe(false)
    }
  })
  it('never throws on any input', () => {
    fc.assert(fc.property(fc.anything(), (v) => void CouponCodeRequest.safeParse(v)))
  })
})

describe('checkCoupon (spec §8 coupon codes)', () => {
  it('accepts a live coupon', () => expect(checkCoupon(coupon(), 'WEB', false, NOW)).toEqual({ ok: true }))
  it('NOT_FOUND_COUPON: unknown, not started, other platform', () => {
    expect(checkCoupon(null, 'WEB', false, NOW)).toEqual({ ok: false, code: 'NOT_FOUND_COUPON' })
    expect(checkCoupon(coupon({ startsAt: inDays(1) }), 'WEB', false, NOW)).toEqual({ ok: false, code: 'NOT_FOUND_COUPON' })
    expect(checkCoupon(coupon({ platform: 'IOS_APP' }), 'WEB', false, NOW)).toEqual({ ok: false, code: 'NOT_FOUND_COUPON' })
    expect(checkCoupon(coupon({ platform: 'IOS_APP' }), 'IOS_APP', false, NOW)).toEqual({ ok: true })
  })
  it('EXPIRED_COUPON at the expiry instant', () => {
    expect(checkCoupon(coupon({ expiresAt: NOW.toISOString() }), 'WEB', false, NOW)).toEqual({ ok: false, code: 'EXPIRED_COUPON' })
    expect(checkCoupon(coupon({ expiresAt: null }), 'WEB', false, NOW)).toEqual({ ok: true })
  })
  it('ALREADY_USED_COUPON before SOLD_OUT_COUPON', () => {
    expect(checkCoupon(coupon({ stock: 1, usedCount: 1 }), 'WEB', true, NOW)).toEqual({ ok: false, code: 'ALREADY_USED_COUPON' })
    expect(checkCoupon(coupon({ stock: 1, usedCount: 1 }), 'WEB', false, NOW)).toEqual({ ok: false, code: 'SOLD_OUT_COUPON' })
    expect(checkCoupon(coupon({ stock: 2, usedCount: 1 }), 'WEB', false, NOW)).toEqual({ ok: true })
  })
  it('INVALID_MINIMUM_AMOUNT_COUPON for a coupon tied to a top-up', () => {
    expect(checkCoupon(coupon({ type: 'DISCOUNT', minimumAmount: 499 }), 'WEB', false, NOW)).toEqual({
      ok: false,
      code: 'INVALID_MINIMUM_AMOUNT_COUPON',
    })
  })
})

describe('couponGrant (spec §3 rewards)', () => {
  it('coins become a lot of the coupon lot type, FREE_COIN when unset, expiring after the reward days', () => {
    expect(couponGrant(coupon(), NOW)).toEqual({ kind: 'LOT', lotType: 'BONUS', amount: 100, expiresAt: inDays(30) })
    expect(couponGrant(coupon({ rewardLotType: null, rewardExpiresDays: null }), NOW)).toEqual({
      kind: 'LOT',
      lotType: 'FREE_COIN',
      amount: 100,
      expiresAt: null,
    })
  })
  it('mileage becomes a MILEAGE lot, tickets become tickets (capped)', () => {
    expect(couponGrant(coupon({ rewardType: 'MILEAGE', rewardLotType: null, rewardAmount: 500 }), NOW)).toMatchObject({
      kind: 'LOT',
      lotType: 'MILEAGE',
      amount: 500,
    })
    expect(couponGrant(coupon({ rewardType: 'ROULETTE_TICKET', rewardAmount: 3, rewardExpiresDays: null }), NOW)).toEqual({
      kind: 'TICKETS',
      count: 3,
      expiresAt: null,
    })
    expect(couponGrant(coupon({ rewardType: 'ROULETTE_TICKET', rewardAmount: 10_000 }), NOW)).toMatchObject({ count: MAX_TICKETS })
  })
})

describe('operator coupon requests (docs/API.md POST /api/ops/coupons)', () => {
  const ok = { code: ' winter ', title: 'Hiver', type: 'EXTRA_EARN', rewardType: 'COIN', rewardAmount: 5, reason: 'r' }
  it('normalizes the code, dates a bare start at its start and a bare expiry at its end (UTC)', () => {
    expect(CouponCreateRequest.parse({ ...ok, startsAt: '2026-12-01', expiresAt: '2027-01-31' })).toEqual({
      ...ok,
      code: 'WINTER',
      downloadable: false,
      minimumAmount: 0,
      startsAt: '2026-12-01T00:00:00.000Z',
      expiresAt: '2027-01-31T23:59:59.999Z',
    })
    expect(CouponCreateRequest.parse({ ...ok, code: undefined, downloadable: true, minimumAmount: 500 }).minimumAmount).toBe(500)
  })
  it('refuses what could not be redeemed as meant, naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, code: undefined }, 'code'],
      [{ ...ok, downloadable: true }, 'code'],
      [{ ...ok, rewardType: 'MILEAGE', rewardLotType: 'BONUS' }, 'rewardLotType'],
      [{ ...ok, rewardLotType: 'MILEAGE' }, 'rewardLotType'],
      [{ ...ok, rewardType: 'ROULETTE_TICKET', rewardAmount: MAX_TICKETS + 1 }, 'rewardAmount'],
      [{ ...ok, minimumAmount: 100 }, 'minimumAmount'],
      [{ ...ok, startsAt: '2027-02-01', expiresAt: '2027-01-31' }, 'expiresAt'],
      [{ ...ok, quantity: 0 }, 'quantity'],
      [{ ...ok, reason: ' ' }, 'reason'],
    ]
    for (const [bad, field] of cases) {
      const res = CouponCreateRequest.safeParse(bad)
      expect(res.success, JSON.stringify(bad)).toBe(false)
      expect(
        res.error!.issues.map((i) => i.path[0]),
        JSON.stringify(bad),
      ).toContain(field)
    }
  })
  it('states a coupon in the order of checkCoupon: not started, expired, sold out, live', () => {
    expect(couponState(coupon({ startsAt: inDays(1) }), NOW)).toBe('NOT_STARTED')
    expect(couponState(coupon({ expiresAt: NOW.toISOString() }), NOW)).toBe('EXPIRED')
    expect(couponState(coupon({ stock: 2, usedCount: 2 }), NOW)).toBe('SOLD_OUT')
    expect(couponState(coupon(), NOW)).toBe('LIVE')
  })
})
