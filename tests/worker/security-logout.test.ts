/**
 * Logout ends the session at once (issue 26 point 5, ASVS 7.4.1), on real workerd + D1 through the app's router:
 * each access token names its session (claim `sid`, the refresh-token family); a logout revokes that family, so a
 * copied session cookie and the old access token are refused right away, not when the token's 15 minutes end.
 * The reader's other sessions stay signed in.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { request } from './app.ts'
import { app, bearer, expectError, form, json, makeUser, read, tokensFor, webCookie } from './account.helpers.ts'
import { newSeries } from './comment.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const get = (path: string, headers: Record<string, string>) => request(app, path, { headers })
const postComment = (headers: Record<string, string>, contentsId: number) =>
  request(app, '/api/v1/comment', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost', ...headers },
    body: JSON.stringify({ contentsId, text: 'Un commentaire après la déconnexion' }),
  })

/** Everything a copied credential could still do: read the profile, read the session, post a comment. */
async function expectRefused(headers: Record<string, string>, contentsId: number) {
  expect((await get('/api/v1/user/me', headers)).status).toBe(401)
  expect(await (await get('/api/auth/session', headers)).json()).toEqual({})
  expect((await postComment(headers, contentsId)).status).toBe(401)
}

describe('logout ends the session at once', () => {
  it('web logout (POST /api/v1/auth/web/logout): the copied cookie is refused at once; another session stays', async () => {
    const user = await makeUser()
    const { seriesId } = await newSeries({ episodes: 1 })
    const cookie = await webCookie(user.email)
    const other = await webCookie(user.email)
    expect((await get('/api/v1/user/me', { cookie })).status).toBe(200)
    expect((await postComment({ cookie }, seriesId)).status).toBe(201)
    expect((await form('/api/v1/auth/web/logout', {}, { cookie })).status).toBe(303)
    await expectRefused({ cookie }, seriesId)
    expect((await get('/api/v1/user/me', { cookie: other })).status).toBe(200)
  })

  it('session service signout (POST /api/auth/signout): the copied cookie is refused at once', async () => {
    const user = await makeUser()
    const { seriesId } = await newSeries({ episodes: 1 })
    const csrfRes = await get('/api/auth/csrf', {})
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const csrfCookie = /wt_csrf=[^;]*/.exec(csrfRes.headers.get('set-cookie') ?? '')![0]
    const cookie = `${csrfCookie}; ${await webCookie(user.email)}`
    expect(((await (await get('/api/auth/session', { cookie })).json()) as { user?: { email: string } }).user?.email).toBe(user.email)
    const out = await request(app, '/api/auth/signout', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', cookie },
      body: new URLSearchParams({ csrfToken, json: 'true' }).toString(),
    })
    expect(out.status).toBe(200)
    await expectRefused({ cookie }, seriesId)
  })

  it("the app's PUT /api/v1/auth/logout: the old access token is refused at once (GET /user/me, GET /coin, posting)", async () => {
    const user = await makeUser()
    const { seriesId } = await newSeries({ episodes: 1 })
    const t = await tokensFor(user.email)
    const other = await tokensFor(user.email)
    const headers = bearer(t.accessToken.value)
    expect((await get('/api/v1/user/me', headers)).status).toBe(200)
    expect((await read(await json('PUT', '/api/v1/auth/logout', { refreshToken: t.refreshToken.value }))).result).toBe('SUCCESS')
    await expectError(await get('/api/v1/user/me', headers), 401, 'NEED_TO_REFRESH')
    await expectError(await get('/api/v1/coin', headers), 401, 'NEED_TO_REFRESH')
    await expectError(await postComment(headers, seriesId), 401, 'NEED_TO_REFRESH')
    // the refresh the app tries next is refused too: the app signs out
    await expectError(
      await json('POST', '/api/v1/auth/refresh', { accessToken: t.accessToken.value, refreshToken: t.refreshToken.value }),
      401,
      'NOT_FOUND_REFRESH_TOKEN',
    )
    expect((await get('/api/v1/user/me', bearer(other.accessToken.value))).status).toBe(200)
  })
})
