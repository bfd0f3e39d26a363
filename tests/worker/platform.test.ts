/**
 * Issue 20 point 5, "the platform is not the client's word", on real workerd + D1: the platform that rules check
 * (the iOS-only coupon APPONLY of the probe) is the session's, fixed at sign-in; an app platform only with that
 * app's client credential (X-Client-Id / X-Client-Secret = the secrets APP_IOS_APP_CLIENT_ID / _SECRET), else
 * WEB whatever X-Platform says; a refresh keeps what the sign-in fixed.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, read } from './purchase.helpers.ts'
import { request } from './app.ts'
import { makeUser } from './account.helpers.ts'
import { readerRows } from './reader-rows.ts'

const IOS = { 'x-client-id': 'ios-app-test', 'x-client-secret': 'ios-app-test-secret-0123456789' }

async function appOnlyCoupon(): Promise<string> {
  const code = `APPONLY${crypto.randomUUID().slice(0, 8).toUpperCase()}`
  await db.run(
    `INSERT INTO coupons (code, title, type, minimum_amount, starts_at, expires_at, platform, reward_type, reward_amount, reward_lot_type, reward_expires_days)
     VALUES (?, 'iOS only', 'EXTRA_EARN', 0, ?, ?, 'IOS_APP', 'COIN', 30, 'FREE_COIN', 30)`,
    code,
    new Date(Date.now() - 86_400_000).toISOString(),
    new Date(Date.now() + 30 * 86_400_000).toISOString(),
  )
  return code
}

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(app, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

async function signIn(email: string, headers: Record<string, string> = {}) {
  const res = await json('/api/v1/auth/sign-in', { email, password: 'Reader-2026!' }, headers)
  expect(res.status).toBe(200)
  return (await read(res)).data as { accessToken: { value: string }; refreshToken: { value: string } }
}

const redeem = (accessToken: string, code: string, headers: Record<string, string> = {}) =>
  json('/api/v1/coupon/code', { code }, { authorization: `Bearer ${accessToken}`, ...headers })
const freeCoins = async (userId: number) =>
  (await readerRows.first<{ n: number }>(userId, `SELECT coalesce(sum(remaining), 0) AS n FROM coin_lots WHERE user_id = ?`, userId))!.n

describe('the platform comes from the session, fixed at sign-in', () => {
  it('the probe: a plain client sending X-Platform: IOS_APP redeems no iOS-only coupon', async () => {
    const user = await makeUser()
    const code = await appOnlyCoupon()
    const web = await signIn(user.email, { 'x-platform': 'IOS_APP' })
    await expectError(await redeem(web.accessToken.value, code, { 'x-platform': 'IOS_APP' }), 404, 'NOT_FOUND_COUPON')
    expect(await freeCoins(user.id)).toBe(0)
  })

  it("a wrong or another app's credential signs in as WEB", async () => {
    const user = await makeUser()
    const code = await appOnlyCoupon()
    for (const headers of [
      { ...IOS, 'x-client-secret': 'ios-app-test-secret-wrong-00000' },
      { ...IOS, 'x-client-id': 'and-play' },
      { 'x-client-id': 'ios-app-test' },
    ]) {
      const session = await signIn(user.email, { ...headers, 'x-platform': 'IOS_APP' })
      await expectError(await redeem(session.accessToken.value, code, { 'x-platform': 'IOS_APP' }), 404, 'NOT_FOUND_COUPON')
    }
    expect(await freeCoins(user.id)).toBe(0)
  })

  it("the iOS app's client credential fixes IOS_APP; a refresh keeps it without the credential", async () => {
    const user = await makeUser()
    const ios = await signIn(user.email, IOS)
    expect((await redeem(ios.accessToken.value, await appOnlyCoupon())).status).toBe(200)
    expect(await freeCoins(user.id)).toBe(30)
    const refreshed = await json(
      '/api/v1/auth/refresh',
      { accessToken: ios.accessToken.value, refreshToken: ios.refreshToken.value },
      { 'x-platform': 'WEB' },
    )
    expect(refreshed.status).toBe(200)
    const next = (await read(refreshed)).data as { accessToken: { value: string } }
    expect((await redeem(next.accessToken.value, await appOnlyCoupon())).status).toBe(200)
    expect(await freeCoins(user.id)).toBe(60)
  })
})
