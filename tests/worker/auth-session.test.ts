/**
 * The session service at /api/auth in NextAuth's wire format (docs/API.md, spec §7/§8) on real workerd + D1:
 * session, csrf (double-submit cookie), providers, callback/credentials, signin/{provider}, signout, _log;
 * a POST with a wrong CSRF token changes nothing; callbackUrl never leaves the site.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'
import { deriveKeys } from '../../src/features/auth/tokens.ts'
import { openSession } from '../../src/features/session/cookie.ts'

const app = appFor()
const ORIGIN = 'http://localhost'
const READER = DEMO_ACCOUNTS.reader
const MINOR = DEMO_ACCOUNTS.minor
const secret = (env as unknown as Record<string, string>).SESSION_SECRET!

const cookieValue = (res: Response, name: string) => new RegExp(`(?:^|, )${name}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '')?.[1]
const get = (path: string, cookie = '') => request(app, path, { headers: cookie ? { cookie } : {} })
const post = (path: string, fields: Record<string, string>, cookie = '') =>
  request(app, path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  })

/** A csrf token and its cookie, as a NextAuth client gets them. */
async function csrf() {
  const res = await get('/api/auth/csrf')
  const { csrfToken } = (await res.json()) as { csrfToken: string }
  return { csrfToken, cookie: `wt_csrf=${cookieValue(res, 'wt_csrf')}` }
}
async function signedIn(email: string = READER.email, password: string = READER.password) {
  const { csrfToken, cookie } = await csrf()
  const res = await post(
    '/api/auth/callback/credentials',
    { email, password, csrfToken, callbackUrl: `${ORIGIN}/gift`, json: 'true' },
    cookie,
  )
  expect(res.status).toBe(200)
  return { csrfToken, cookie: `${cookie}; wt_session=${cookieValue(res, 'wt_session')}` }
}
const refreshWith = async (sessionCookie: string) => {
  const web = (await openSession(await deriveKeys(secret), /wt_session=([^;]*)/.exec(sessionCookie)![1]))!
  return request(app, '/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessToken: web.accessToken.value, refreshToken: web.refreshToken.value }),
  })
}

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('GET session, csrf, providers', () => {
  it('session is {} for a guest and {user, expires, coin, alarms} when signed in', async () => {
    const guest = await get('/api/auth/session')
    expect(guest.status).toBe(200)
    expect(await guest.json()).toEqual({})
    const { cookie } = await signedIn()
    const res = await get('/api/auth/session', cookie)
    expect(res.headers.get('cache-control')).toContain('no-store')
    const body = (await res.json()) as { user: { id: number; email: string }; expires: string; coin: { total: number }; alarms: number }
    expect(Object.keys(body).sort()).toEqual(['alarms', 'coin', 'expires', 'user'])
    // the bell's number: the same count as GET /alarm/count
    const unread = (await (await get('/api/v1/alarm/count', cookie)).json()) as { data: { count: number } }
    expect(body.alarms).toBe(unread.data.count)
    expect(body.user).toMatchObject({ id: READER.id, email: READER.email })
    expect(new Date(body.expires).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000)
    expect(body.coin.total).toBeGreaterThan(0)
  })

  it('csrf gives a token and an HttpOnly double-submit cookie, and the same token while the cookie lives', async () => {
    const res = await get('/api/auth/csrf')
    const { csrfToken } = (await res.json()) as { csrfToken: string }
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(res.headers.get('set-cookie')).toMatch(/wt_csrf=.*HttpOnly.*SameSite=Lax/i)
    const again = await get('/api/auth/csrf', `wt_csrf=${cookieValue(res, 'wt_csrf')}`)
    expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(csrfToken)
    expect(again.headers.get('set-cookie')).toBeNull()
  })

  it("providers lists credentials and the edition's OAuth providers", async () => {
    const body = (await (await get('/api/auth/providers')).json()) as Record<
      string,
      { id: string; type: string; signinUrl: string; callbackUrl: string }
    >
    expect(Object.keys(body)).toEqual(['credentials', 'google', 'facebook', 'twitter', 'apple'])
    expect(body.credentials).toMatchObject({
      type: 'credentials',
      signinUrl: `${ORIGIN}/api/auth/signin/credentials`,
      callbackUrl: `${ORIGIN}/api/auth/callback/credentials`,
    })
    expect(body.google).toMatchObject({
      id: 'google',
      name: 'Google',
      type: 'oauth',
      callbackUrl: `${ORIGIN}/api/v1/auth/oauth/google/callback`,
    })
  })
})

describe('POST callback/credentials', () => {
  it('signs in: {url} of the callback and a session cookie; without json=true a redirect', async () => {
    const { csrfToken, cookie } = await csrf()
    const res = await post(
      '/api/auth/callback/credentials',
      { email: READER.email, password: READER.password, csrfToken, callbackUrl: `${ORIGIN}/library/my?x=1`, json: 'true' },
      cookie,
    )
    expect(await res.json()).toEqual({ url: `${ORIGIN}/library/my?x=1` })
    expect(res.headers.get('set-cookie')).toMatch(/wt_session=.*HttpOnly/i)
    const form = await post(
      '/api/auth/callback/credentials',
      { email: MINOR.email, password: MINOR.password, csrfToken, callbackUrl: '/gift' },
      cookie,
    )
    expect(form.status).toBe(302)
    expect(form.headers.get('location')).toBe(`${ORIGIN}/gift`)
  })

  it('puts the failure code into the url (spec §8 sign-in result rule) and sets no session', async () => {
    const { csrfToken, cookie } = await csrf()
    const res = await post(
      '/api/auth/callback/credentials',
      { email: READER.email, password: 'Wrong-2026!', csrfToken, callbackUrl: `${ORIGIN}/gift`, json: 'true' },
      cookie,
    )
    expect(res.status).toBe(401)
    const url = new URL(((await res.json()) as { url: string }).url)
    expect(url.pathname).toBe('/user/login')
    expect(url.searchParams.get('error')).toBe('INVALID_PASSWORD')
    expect(url.searchParams.get('callback')).toBe('/gift')
    expect(cookieValue(res, 'wt_session')).toBeUndefined()
    const malformed = await post('/api/auth/callback/credentials', { email: READER.email, csrfToken, json: 'true' }, cookie)
    expect(new URL(((await malformed.json()) as { url: string }).url).searchParams.get('error')).toBe('INVALID_PARAMETER')
  })

  it('never sends the reader off-site (callbackUrl)', async () => {
    const { csrfToken, cookie } = await csrf()
    for (const callbackUrl of ['https://evil.example/gift', '//evil.example', 'javascript:alert(1)', 'http://localhost.evil.example/']) {
      const res = await post(
        '/api/auth/callback/credentials',
        { email: MINOR.email, password: MINOR.password, csrfToken, callbackUrl, json: 'true' },
        cookie,
      )
      expect(((await res.json()) as { url: string }).url, callbackUrl).toBe(`${ORIGIN}/`)
    }
  })

  it('changes nothing with a wrong, missing or cookie-less csrf token (no session cookie, no sign-in)', async () => {
    const { csrfToken, cookie } = await csrf()
    const other = await csrf()
    const cases: [Record<string, string>, string][] = [
      [{ csrfToken: other.csrfToken }, cookie], // a valid token of another cookie
      [{}, cookie], // none
      [{ csrfToken }, ''], // no cookie
      [{ csrfToken }, `wt_csrf=${csrfToken}|forged`], // planted cookie
    ]
    for (const [extra, jar] of cases) {
      const res = await post(
        '/api/auth/callback/credentials',
        { email: READER.email, password: READER.password, callbackUrl: '/gift', json: 'true', ...extra },
        jar,
      )
      expect(res.status).toBe(403)
      expect(new URL(((await res.json()) as { url: string }).url).searchParams.get('error')).toBe('FORBIDDEN_ORIGIN')
      expect(cookieValue(res, 'wt_session')).toBeUndefined()
    }
  })
})

describe('POST signout, signin/{provider}, _log', () => {
  it('signout with a wrong csrf token changes nothing: the session and its refresh token stay', async () => {
    const { cookie } = await signedIn(MINOR.email, MINOR.password)
    const res = await post('/api/auth/signout', { csrfToken: 'wrong', callbackUrl: '/', json: 'true' }, cookie)
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/wt_session=;/)
    expect(((await (await get('/api/auth/session', cookie)).json()) as { user?: { id: number } }).user?.id).toBe(MINOR.id)
    expect((await refreshWith(cookie)).status).toBe(200)
  })

  it('signout ends the session server-side and clears the cookie', async () => {
    const { csrfToken, cookie } = await signedIn(MINOR.email, MINOR.password)
    const res = await post('/api/auth/signout', { csrfToken, callbackUrl: `${ORIGIN}/callback/logout-success`, json: 'true' }, cookie)
    expect(await res.json()).toEqual({ url: `${ORIGIN}/callback/logout-success` })
    expect(res.headers.get('set-cookie')).toMatch(/wt_session=;/)
    expect((await refreshWith(cookie)).status).toBe(401)
  })

  it('signin/credentials goes to the login form; an OAuth provider to its flow; an unknown one answers with a code', async () => {
    const { csrfToken, cookie } = await csrf()
    const cred = await post('/api/auth/signin/credentials', { csrfToken, callbackUrl: '/gift', json: 'true' }, cookie)
    expect(((await cred.json()) as { url: string }).url).toBe(`${ORIGIN}/user/login?callback=%2Fgift`)
    const google = await post('/api/auth/signin/google', { csrfToken, json: 'true' }, cookie)
    expect(((await google.json()) as { url: string }).url).toBe(`${ORIGIN}/api/v1/auth/oauth/google`)
    const unknown = await post('/api/auth/signin/myspace', { csrfToken, json: 'true' }, cookie)
    expect(new URL(((await unknown.json()) as { url: string }).url).searchParams.get('error')).toBe('INVALID_PARAMETER')
    const forged = await post('/api/auth/signin/google', { csrfToken: 'x', json: 'true' }, cookie)
    expect(forged.status).toBe(403)
  })

  it('_log accepts level/code/details (204) and refuses anything else with INVALID_PARAMETER', async () => {
    const res = await post('/api/auth/_log', { level: 'error', code: 'CLIENT_FETCH_ERROR', details: '{"url":"/api/auth/session"}' })
    expect(res.status).toBe(204)
    const json = await request(app, '/api/auth/_log', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ level: 'warn', code: 'CLIENT_SESSION_ERROR' }),
    })
    expect(json.status).toBe(204)
    for (const bad of [{ level: 'fatal', code: 'X' }, { level: 'error', code: 'a b' }, { level: 'error' }]) {
      const r = await post('/api/auth/_log', bad as Record<string, string>)
      expect(r.status).toBe(400)
      expect(((await r.json()) as { code: string }).code).toBe('INVALID_PARAMETER')
    }
  })
})
