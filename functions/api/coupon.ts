/**
 * docs/API.md `/coupon`: redeem a coupon code (spec §5: code non-empty; §8 coupon codes), as JSON for the apps
 * and as the plain form of the /coupon page (works without JavaScript, answers with a 303).
 * The code's platform restriction is checked against the session's platform, fixed at sign-in (an app's only with
 * its client credential; never the X-Platform header).
 *
 * Downloadable coupons (spec §7 coupon check/download): `GET /download` → `{items:[{id, title, type, minimumAmount,
 * expiresAt, rewardType, rewardAmount, received, used, soldOut}]}`; `POST /download/{id}` → `{couponId, reward}`
 * (reward null: the coupon waits for a top-up of at least its minimum amount); NOT_FOUND_COUPON, EXPIRED_COUPON,
 * ALREADY_RECEIVED_COUPON, SOLD_OUT_COUPON. `POST /web/download/{id}` is the /coupon page's form (303).
 */
import { Hono } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { CouponCodeRequest } from '../../src/features/coupon/coupon.ts'
import { downloadableCoupons, downloadCoupon, redeemCoupon } from '../../src/features/coupon/coupon.server.ts'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { formRoute, toLogin } from './forms.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { clientIp, currentUserId, requireUser, sessionPlatform } from '../middleware/session.ts'
import type { Context } from 'hono'
import { RowIdText } from '../../src/lib/ids.ts'

/** Who types a coupon code, for its limits: the client's address and the edition. */
const couponClient = (c: Context<AppEnv>) => ({ ip: clientIp((n) => c.req.header(n)), issuer: c.var.edition.siteUrl })

const CouponParam = z.object({
  id: RowIdText,
})

export const coupon = new Hono<AppEnv>()
  .post(
    '/web/download/:id',
    ...formRoute({
      schema: z.object({}),
      guest: toLogin('/coupon'),
      run: (_data, c) => {
        const param = CouponParam.safeParse({ id: c.req.param('id') })
        if (!param.success) throw new AppError('NOT_FOUND_COUPON')
        return downloadCoupon(c.var.db, { userId: currentUserId(c), couponId: param.data.id, platform: 'WEB' })
      },
      done: (_data, { couponId, reward }) =>
        reward ? `/coupon?reward=${reward.type}:${reward.amount}#coupon-form` : `/coupon?downloaded=${couponId}#downloads`,
      failed: (code) => `/coupon?error=${code}#downloads`,
    }),
  )
  /** The /coupon page's form (same Origin only): 303 to /coupon?reward=TYPE:AMOUNT or /coupon?error=CODE. */
  .post(
    '/web/code',
    ...formRoute({
      schema: CouponCodeRequest,
      invalid: 'NOT_FOUND_COUPON',
      keep: ['code'], // a refused code stays in its field, to correct (issue 35 point 9)
      guest: toLogin('/coupon'),
      run: (data, c) => redeemCoupon(c.var.db, { userId: currentUserId(c), code: data.code, platform: 'WEB', client: couponClient(c) }),
      done: (_data, { reward }) => `/coupon?reward=${reward.type}:${reward.amount}#coupon-form`,
      failed: (code) => `/coupon?error=${code}#coupon-form`,
    }),
  )
  // members only below (the forms above send a guest to log in instead)
  .use(requireUser)
  .get('/download', async (c) => {
    return ok(c, { items: await downloadableCoupons(c.var.db, currentUserId(c), sessionPlatform(c)) })
  })
  .post('/download/:id', validate('param', CouponParam), async (c) => {
    const result = await downloadCoupon(c.var.db, {
      userId: currentUserId(c),
      couponId: c.req.valid('param').id,
      platform: sessionPlatform(c),
    })
    return ok(c, result)
  })
  /** `{code}` → `{reward:{type, amount}}`. */
  .post('/code', validate('json', CouponCodeRequest), async (c) => {
    const result = await redeemCoupon(c.var.db, {
      userId: currentUserId(c),
      code: c.req.valid('json').code,
      platform: sessionPlatform(c),
      client: couponClient(c),
    })
    return ok(c, result)
  })
