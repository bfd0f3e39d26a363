/**
 * Downloadable coupons (issue 4 §5, spec §3 minimum amount, §8 coupon codes) on real workerd + D1: a coupon
 * without minimum gives its reward at download; one with a minimum waits and gives it with the first paid top-up
 * at least that large, once; refusals answer their code and move nothing.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, expectInvariant, get, newReader, read, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { downloadCoupon } from '../../src/features/coupon/coupon.server.ts'
import { claimFailing, withMoneyFaultAt } from './faults.ts'
import { readerRows } from './reader-rows.ts'

const days = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString()

async function newDownloadable(
  o: {
    minimum?: number
    stock?: number | null
    used?: number
    expiresIn?: number
    platform?: string | null
    amount?: number
    downloadable?: boolean
    reward?: 'COIN' | 'ROULETTE_TICKET'
  } = {},
) {
  const row = await db.first<{ id: number }>(
    `INSERT INTO coupons (code, title, type, minimum_amount, starts_at, expires_at, platform, reward_type, reward_amount, reward_lot_type, reward_expires_days, stock, used_count, is_downloadable)
     VALUES (NULL, 'Téléchargeable', ?, ?, ?, ?, ?, ?, ?, 'BONUS', 30, ?, ?, ?) RETURNING id`,
    o.minimum ? 'DISCOUNT' : 'EXTRA_EARN',
    o.minimum ?? 0,
    days(-1),
    days(o.expiresIn ?? 30),
    o.platform ?? null,
    o.reward ?? 'COIN',
    o.amount ?? 20,
    o.stock ?? null,
    o.used ?? 0,
    o.downloadable === false ? 0 : 1,
  )
  return row!.id
}

const download = (reader: Pick<Reader, 'headers'>, id: number | string, headers: Record<string, string> = {}) =>
  request(app, `/api/v1/coupon/download/${id}`, { method: 'POST', headers: { ...reader.headers, ...headers } })

const couponLots = (userId: number) =>
  readerRows.all(userId, `SELECT type, amount, ref FROM coin_lots WHERE user_id = ? AND source = 'COUPON' ORDER BY id`, userId)

describe('downloadable coupons', () => {
  it('a coupon without minimum gives its reward at download, once', async () => {
    const reader = await newReader()
    const id = await newDownloadable({ amount: 25 })
    const listed = (await read(await get(reader, '/api/v1/coupon/download'))).data.items.find((c: { id: number }) => c.id === id)
    expect(listed).toMatchObject({ received: false, used: false, soldOut: false, rewardAmount: 25 })
    const body = await read(await download(reader, id))
    expect(body.data).toEqual({ couponId: id, reward: { type: 'COIN', amount: 25 } })
    expect(await couponLots(reader.id)).toEqual([{ type: 'BONUS', amount: 25, ref: `coupon:${id}` }])
    await expectError(await download(reader, id), 409, 'ALREADY_RECEIVED_COUPON')
    expect((await read(await get(reader, '/api/v1/coupon/download'))).data.items.find((c: { id: number }) => c.id === id)).toMatchObject({
      received: true,
      used: true,
    })
    await expectInvariant(reader.id)
  })

  it('a coupon with a minimum waits for a paid top-up at least that large, then gives its reward once', async () => {
    const reader = await newReader()
    const id = await newDownloadable({ minimum: 1000, amount: 20 })
    expect((await read(await download(reader, id))).data).toEqual({ couponId: id, reward: null })
    expect(await couponLots(reader.id)).toEqual([])
    // a small top-up does not reach the minimum
    const small = await paymentFor(reader, await newProduct({ price: 499, coins: 30, bonus: 0 }))
    expect((await postWebhook(await signedEvent(small))).status).toBe(200)
    expect(await couponLots(reader.id)).toEqual([])
    // a large one does; the replayed webhook grants nothing twice
    const big = await paymentFor(reader, await newProduct({ price: 1499, coins: 100, bonus: 15 }))
    const event = await signedEvent(big)
    expect((await postWebhook(event)).status).toBe(200)
    expect((await postWebhook(event)).status).toBe(200)
    expect(await couponLots(reader.id)).toEqual([{ type: 'BONUS', amount: 20, ref: `coupon:${id}` }])
    expect(
      await readerRows.first(
        reader.id,
        `SELECT used_at IS NOT NULL AS used FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`,
        reader.id,
        id,
      ),
    ).toEqual({ used: 1 })
    const third = await paymentFor(reader, await newProduct({ price: 1499 }))
    expect((await postWebhook(await signedEvent(third))).status).toBe(200)
    expect(await couponLots(reader.id)).toHaveLength(1)
    await expectInvariant(reader.id)
  })

  it('a roulette-ticket coupon with a minimum gives its tickets with the first top-up that large, once, and no coins', async () => {
    const reader = await newReader()
    const id = await newDownloadable({ minimum: 1000, amount: 3, reward: 'ROULETTE_TICKET' })
    const tickets = async () =>
      await readerRows.all<{ ref: string; expires: number }>(
        reader.id,
        `SELECT ref, expires_at > created_at AS expires FROM event_tickets WHERE user_id = ? AND source = 'COUPON' ORDER BY id`,
        reader.id,
      )
    expect((await read(await download(reader, id))).data).toEqual({ couponId: id, reward: null })
    const small = await paymentFor(reader, await newProduct({ price: 499 }))
    expect((await postWebhook(await signedEvent(small))).status).toBe(200)
    expect(await tickets()).toEqual([])
    const event = await signedEvent(await paymentFor(reader, await newProduct({ price: 1499 })))
    expect((await postWebhook(event)).status).toBe(200)
    expect((await postWebhook(event)).status).toBe(200)
    expect(await tickets()).toEqual(Array.from({ length: 3 }, () => ({ ref: `coupon:${id}`, expires: 1 })))
    expect(await couponLots(reader.id)).toEqual([])
    expect(
      await readerRows.first(
        reader.id,
        `SELECT used_at IS NOT NULL AS used FROM coupon_redemptions WHERE user_id = ? AND coupon_id = ?`,
        reader.id,
        id,
      ),
    ).toEqual({ used: 1 })
    await postWebhook(await signedEvent(await paymentFor(reader, await newProduct({ price: 1499 }))))
    expect(await tickets()).toHaveLength(3)
    await expectInvariant(reader.id)
  })

  it('refuses with the coupon codes of §8 and moves nothing', async () => {
    const reader = await newReader()
    const notDownloadable = await newDownloadable({ downloadable: false })
    const expired = await newDownloadable({ expiresIn: -1 })
    const soldOut = await newDownloadable({ stock: 3, used: 3 })
    const appOnly = await newDownloadable({ platform: 'IOS_APP' })
    await expectError(await download(reader, notDownloadable), 404, 'NOT_FOUND_COUPON')
    await expectError(await download(reader, 999_999_999), 404, 'NOT_FOUND_COUPON')
    await expectError(await download(reader, expired), 410, 'EXPIRED_COUPON')
    await expectError(await download(reader, soldOut), 410, 'SOLD_OUT_COUPON')
    await expectError(await download(reader, appOnly), 404, 'NOT_FOUND_COUPON')
    // the header is not the platform: the session's is (issue 20)
    await expectError(await download(reader, appOnly, { 'x-platform': 'IOS_APP' }), 404, 'NOT_FOUND_COUPON')
    expect((await download(await newReader({ platform: 'IOS_APP' }), appOnly)).status).toBe(200)
    for (const bad of ['0', 'abc', '-1']) await expectError(await download(reader, bad), 400, 'INVALID_PARAMETER')
    await expectError(await download({ headers: {} }, soldOut), 401, 'NOT_LOGIN_USER')
    expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coupon_redemptions WHERE user_id = ?`, reader.id)).toEqual({ n: 0 })
  })

  it('20 concurrent downloads of the last 5 units: 5 readers get one, the rest SOLD_OUT_COUPON', async () => {
    const id = await newDownloadable({ stock: 5 })
    const readers = await Promise.all(Array.from({ length: 20 }, () => newReader()))
    const codes = await Promise.all(
      readers.map(async (r) => {
        const res = await download(r, id)
        return `${res.status} ${(await read(res)).code ?? 'SUCCESS'}`
      }),
    )
    expect(codes.filter((c) => c === '200 SUCCESS')).toHaveLength(5)
    expect(codes.filter((c) => c === '410 SOLD_OUT_COUPON')).toHaveLength(15)
    expect(await db.first(`SELECT used_count FROM coupons WHERE id = ?`, id)).toEqual({ used_count: 5 })
  }, 30_000)

  it('a failure injected at each step of a download leaves no partial state', async () => {
    const reader = await newReader()
    const id = await newDownloadable()
    // step 0: the claim of the coupon's unit; 1-3: the statements of the reader's money batch
    for (let at = 0; at < 4; at++) {
      const input = { userId: reader.id, couponId: id, platform: 'WEB' } as const
      await expect(
        at > 0 ? withMoneyFaultAt(at - 1, () => downloadCoupon(db, input)) : downloadCoupon(claimFailing(db), input),
      ).rejects.toThrow()
      expect(await readerRows.first(reader.id, `SELECT count(*) AS n FROM coupon_redemptions WHERE user_id = ?`, reader.id)).toEqual({
        n: 0,
      })
      expect(await couponLots(reader.id)).toEqual([])
      expect(await db.first(`SELECT used_count FROM coupons WHERE id = ?`, id)).toEqual({ used_count: 0 })
    }
  })
})
