/**
 * ASVS 5.0 7.4.1/7.4.3 on real workerd + D1: a password change, a password reset and a withdrawal end every
 * session of the account at once — access tokens issued before are refused on the next call (GET /api/v1/coin,
 * POST /api/v1/purchase, the session service, any other route), the other device's browser session ends (its
 * cookie is cleared), and tokens issued afterwards work. The round trips of the checked routes stay as they were.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { bearer, expectError, json, latestResetLink, makeUser, outboxFor, read, tokensFor, webCookie } from './account.helpers.ts'
import { buy, give, newSeries, snapshot } from './purchase.helpers.ts'
import { appFor, request } from './app.ts'

const app = appFor()
beforeAll(async () => {
  await seedDemo(env.DB)
})

type Pair = { accessToken: { value: string }; refreshToken: { value: string } }
const get = (path: string, headers: Record<string, string>) => request(app, path, { headers, redirect: 'manual' })
const coin = (headers: Record<string, string>) => get('/api/v1/coin', headers)
const sessionOf = async (headers: Record<string, string>) =>
  (await get('/api/auth/session', headers)).json() as Promise<{ user?: { id: number } }>
const clearsCookie = (res: Response) => /wt_session=;/.test(res.headers.get('set-cookie') ?? '')

/** A reader with 20 coins, a signed-in app (Bearer pair) and a signed-in browser (cookie), and a 2-coin episode. */
async function readerWithSessions() {
  const user = await makeUser()
  await give(user.id, 'COIN', 20)
  const app = await tokensFor(user.email)
  const browser = await webCookie(user.email)
  const { episodeIds } = await newSeries({ episodes: 2 })
  return { user, app, browser, episodeIds }
}

/** Everything the old app token and the old browser cookie can no longer do; nothing moves. */
async function expectEnded(r: Awaited<ReturnType<typeof readerWithSessions>>) {
  const old = bearer(r.app.accessToken.value)
  const before = await snapshot(r.user.id)
  await expectError(await coin(old), 401, 'NEED_TO_REFRESH')
  await expectError(await buy({ headers: old }, { episodeIds: [r.episodeIds[0]], kind: 'RENT' }), 401, 'NEED_TO_REFRESH')
  await expectError(await get('/api/v1/user/me', old), 401, 'NEED_TO_REFRESH')
  expect(await sessionOf(old)).toEqual({})
  expect(await snapshot(r.user.id)).toEqual(before)
  // the app's refresh then fails: its family was revoked in the same batch (the app signs out)
  await expectError(
    await json('POST', '/api/v1/auth/refresh', { accessToken: r.app.accessToken.value, refreshToken: r.app.refreshToken.value }),
    401,
    'NOT_FOUND_REFRESH_TOKEN',
  )

  // the other browser: each checked route answers as signed out and clears the cookie
  const cookie = { cookie: r.browser }
  const session = await get('/api/auth/session', cookie)
  expect(await session.json()).toEqual({})
  expect(clearsCookie(session)).toBe(true)
  const coinRes = await coin(cookie)
  expect(coinRes.status).toBe(401)
  expect(clearsCookie(coinRes)).toBe(true)
  const purchase = await request(app, '/api/v1/purchase', {
    method: 'POST',
    headers: { ...cookie, origin: 'http://localhost', 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ episodeIds: [r.episodeIds[0]], kind: 'RENT' }),
  })
  expect(purchase.status).toBe(401)
  expect(clearsCookie(purchase)).toBe(true)
  // its next page: a protected one goes to the login route, the cookie is cleared
  const page = await get('/library/my', cookie)
  expect(page.status).toBe(302)
  expect(page.headers.get('location')).toMatch(/^\/user\/login\?/)
  expect(clearsCookie(page)).toBe(true)
  expect(await snapshot(r.user.id)).toEqual(before)
}

/** A pair issued after the change works everywhere. */
async function expectWorks(pair: Pair, userId: number, episodeId: number) {
  const headers = bearer(pair.accessToken.value)
  expect((await coin(headers)).status).toBe(200)
  expect((await sessionOf(headers)).user?.id).toBe(userId)
  expect((await get('/api/v1/user/me', headers)).status).toBe(200)
  expect((await buy({ headers }, { episodeIds: [episodeId], kind: 'RENT' })).status).toBe(200)
}

describe('ASVS 7.4.3: every session ends at once', () => {
  it('after a password change: the other app and browser are signed out, the changing client goes on', async () => {
    const r = await readerWithSessions()
    // both worked before
    expect((await coin(bearer(r.app.accessToken.value))).status).toBe(200)
    expect((await sessionOf({ cookie: r.browser })).user?.id).toBe(r.user.id)
    const device = await tokensFor(r.user.email)
    const res = await json(
      'PUT',
      '/api/v1/auth/local/change/password',
      { oldPassword: 'Reader-2026!', newPassword: 'abc123' },
      bearer(device.accessToken.value),
    )
    expect(res.status).toBe(200)
    const pair = (await read(res)).data as Pair
    await expectError(await coin(bearer(device.accessToken.value)), 401, 'NEED_TO_REFRESH') // its own old token too
    await expectEnded(r)
    await expectWorks(pair, r.user.id, r.episodeIds[1]!)
    await expectWorks(await tokensFor(r.user.email, 'abc123'), r.user.id, r.episodeIds[0]!)
  })

  it('after a password change through the form: the browser that changed it keeps a working cookie', async () => {
    const r = await readerWithSessions()
    const mine = await webCookie(r.user.email)
    const res = await request(app, '/api/v1/auth/web/change-password', {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: mine, origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ oldPassword: 'Reader-2026!', newPassword: 'abc123', newPasswordConfirm: 'abc123' }).toString(),
    })
    expect(res.headers.get('location')).toBe('/user/changePassword?done=1')
    const renewed = `wt_session=${/wt_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]}`
    expect((await sessionOf({ cookie: renewed })).user?.id).toBe(r.user.id)
    expect((await get('/library/my', { cookie: renewed })).status).toBe(200)
    await expectEnded(r)
  })

  it('after a password reset by e-mail link', async () => {
    const r = await readerWithSessions()
    await json('POST', '/api/v1/auth/mail/password', { email: r.user.email })
    const link = await latestResetLink(r.user.email)
    expect(
      (
        await json('POST', '/api/v1/auth/local/reset/password', {
          userId: link.userId,
          uuid: link.uuid,
          newPassword: 'Fresh2026x',
          newPasswordConfirm: 'Fresh2026x',
        })
      ).status,
    ).toBe(200)
    await expectEnded(r)
    await expectWorks(await tokensFor(r.user.email, 'Fresh2026x'), r.user.id, r.episodeIds[1]!)
  })

  it('after a withdrawal', async () => {
    const r = await readerWithSessions()
    await json('POST', '/api/v1/user/withdrawal', { reasons: ['PRIVACY'], agree: true }, bearer(r.app.accessToken.value))
    const url = new URL(/https?:\/\/\S+/.exec((await outboxFor(r.user.email, 'withdrawal'))[0]!.body)![0])
    expect((await json('POST', '/api/v1/user/withdrawal/approve', { userId: r.user.id, uuid: url.searchParams.get('uuid') })).status).toBe(
      200,
    )
    await expectEnded(r)
  })

  it('sign out of every device (/setting): the other app and browsers end, and this browser too', async () => {
    const r = await readerWithSessions()
    const mine = await webCookie(r.user.email)
    const logoutAll = (headers: Record<string, string>) =>
      request(app, '/api/v1/auth/web/logout-all', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: '',
        redirect: 'manual',
      })
    // a form posted from another site and a guest's post end nothing
    await expectError(await logoutAll({ cookie: mine, origin: 'https://evil.example' }), 403, 'FORBIDDEN_ORIGIN')
    const guest = await logoutAll({ origin: 'http://localhost' })
    expect(guest.status).toBe(303)
    expect(guest.headers.get('location')).toBe('/user/login?callback=%2Fsetting')
    expect((await coin(bearer(r.app.accessToken.value))).status).toBe(200)
    expect((await sessionOf({ cookie: mine })).user?.id).toBe(r.user.id)

    const res = await logoutAll({ cookie: mine, origin: 'http://localhost' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/callback/logout-success')
    expect(clearsCookie(res)).toBe(true)
    await expectEnded(r)
    expect(await sessionOf({ cookie: mine })).toEqual({})
    // signing in again works
    await expectWorks(await tokensFor(r.user.email), r.user.id, r.episodeIds[1]!)
  })

  it('a refused change (wrong current password) ends nothing', async () => {
    const r = await readerWithSessions()
    await expectError(
      await json(
        'PUT',
        '/api/v1/auth/local/change/password',
        { oldPassword: 'Wrong-2026!', newPassword: 'abc123' },
        bearer(r.app.accessToken.value),
      ),
      400,
      'INCORRECT_PASSWORD',
    )
    expect((await coin(bearer(r.app.accessToken.value))).status).toBe(200)
    expect((await sessionOf({ cookie: r.browser })).user?.id).toBe(r.user.id)
  })
})

describe('cost: the routes that check the session in their own read add no D1 round trip', () => {
  it('GET /coin 0, POST /purchase 1, GET /api/auth/session and /user/me 0 D1 queries, the session checked by the call to the reader’s object they make anyway', async () => {
    const r = await readerWithSessions()
    const headers = bearer(r.app.accessToken.value)
    const cost = (res: Response) => [res.headers.get('x-d1-queries'), res.headers.get('x-reader-calls')]
    // the session checked in the reader's object by the balance's own call: no D1 query
    expect(cost(await coin(headers))).toEqual([null, '1'])
    expect(cost(await coin({ cookie: r.browser }))).toEqual([null, '1'])
    // the catalogue's read (D1), then the session checked and the sale decided and written in one call to the reader's object
    expect(cost(await buy({ headers }, { episodeIds: [r.episodeIds[0]], kind: 'RENT' }))).toEqual(['1', '1'])
    // the profile (the account card), the balance and the bell's unread count from one call to the object
    expect(cost(await get('/api/auth/session', headers))).toEqual([null, '1'])
    expect(cost(await get('/api/auth/session', { cookie: r.browser }))).toEqual([null, '1'])
    expect(cost(await get('/api/v1/user/me', headers))).toEqual([null, '1'])
  })
})
