/**
 * OAuth sign-in end to end (issue 3 item 2) on real workerd + D1 against a REAL OpenID provider
 * (oidc-provider, started by tests/worker/oidc-global-setup.ts): the test is the browser, following the
 * redirects between the app and the provider by hand and carrying each side's cookies. The account at the
 * provider is picked with `login_hint` (the provider's minimal login interaction), `deny` refuses consent.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from 'arctic'
import { createRemoteJWKSet } from 'jose'
import { appFor, request } from './app.ts'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import kr from '../../editions/kr/edition.json'
import { verifyIdToken } from '../../src/features/auth/oauth.ts'

const app = appFor()
const ORIGIN = 'http://localhost'
const bindings = env as unknown as Record<string, string>
const ISSUER = bindings.TEST_OIDC_ISSUER!
const READER = DEMO_ACCOUNTS.reader

/** A tiny cookie jar: name → value, from Set-Cookie headers (deletions remove). */
class Jar {
  cookies = new Map<string, string>()
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      const expired = attrs.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && new Date(a.split('=')[1]!).getTime() < Date.now()),
      )
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

const appGet = async (jar: Jar, path: string) => {
  const res = await request(app, path, { redirect: 'manual', headers: { cookie: jar.header() } })
  jar.take(res)
  return res
}

/** Follows the provider's redirects (login interaction, resume) until it sends the browser back to the app. */
async function throughProvider(authorizeUrl: string, idp = new Jar()): Promise<URL> {
  let next = new URL(authorizeUrl)
  for (let hops = 0; hops < 8; hops++) {
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: idp.header() } })
    idp.take(res)
    const location = res.headers.get('location')
    if (!location) throw new Error(`provider answered ${res.status}: ${await res.text()}`)
    next = new URL(location, next)
    if (next.origin === ORIGIN) return next
  }
  throw new Error('too many redirects at the provider')
}

type Flow = { jar: Jar; start: Response; back: URL; final: Response; location: string }

/** The browser's whole round trip: app start → provider (as `account`) → app callback. */
async function signInWith(
  provider: string,
  account: string,
  opts: { callback?: string; tamper?: (back: URL) => void; jar?: Jar } = {},
): Promise<Flow> {
  const jar = opts.jar ?? new Jar()
  const start = await appGet(jar, `/api/v1/auth/oauth/${provider}${opts.callback ? `?callback=${encodeURIComponent(opts.callback)}` : ''}`)
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get('location')!)
  authorize.searchParams.set('login_hint', account)
  const back = await throughProvider(authorize.href)
  opts.tamper?.(back)
  const final = await appGet(jar, back.pathname + back.search)
  return { jar, start, back, final, location: final.headers.get('location') ?? '' }
}

const pathOf = (url: URL) => url.pathname + url.search

/** A browser signed in with e-mail and password through the login form. */
async function passwordSession(email: string, password: string): Promise<Jar> {
  const jar = new Jar()
  const res = await request(app, '/api/v1/auth/web/sign-in', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: new URLSearchParams({ email, password, callback: '/setting' }).toString(),
  })
  jar.take(res)
  expect(jar.cookies.has('wt_session')).toBe(true)
  return jar
}

/**
 * The /setting "link" button of `provider`: a page that moves on to the provider by itself (CSP form-action
 * forbids a form's redirect to another site); the provider's authorization URL it goes to.
 */
async function linkStart(jar: Jar, provider: string): Promise<URL> {
  const res = await request(app, `/api/v1/auth/oauth/${provider}/link`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: ORIGIN, cookie: jar.header() },
  })
  jar.take(res)
  expect(res.status).toBe(200)
  const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(await res.text())
  expect(refresh).toBeTruthy()
  return new URL(refresh![1]!.replace(/&amp;/g, '&'))
}

/** The demo reader signs in with the password and links `provider` (as `account` there); the jar of that browser. */
async function linkFromSetting(provider: string, account: string, error?: string): Promise<Jar> {
  const jar = await passwordSession(READER.email, READER.password)
  const authorize = await linkStart(jar, provider)
  authorize.searchParams.set('login_hint', account)
  const final = await appGet(jar, pathOf(await throughProvider(authorize.href)))
  expect(final.headers.get('location')).toBe(error ? `/setting?error=${error}` : `/setting?linked=${provider}`)
  return jar
}

const session = async (jar: Jar) =>
  (await (await appGet(jar, '/api/auth/session')).json()) as {
    user?: { id: number; email: string | null; snsProvider: string | null; snsId: string | null }
  }

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('OAuth start', () => {
  it('redirects to the provider with state, PKCE S256 and nonce kept in a 10-minute encrypted HttpOnly cookie', async () => {
    const jar = new Jar()
    const res = await appGet(jar, '/api/v1/auth/oauth/google?callback=%2Flibrary%2Fmy')
    const url = new URL(res.headers.get('location')!)
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/auth`)
    expect(url.searchParams.get('client_id')).toBe(bindings.OAUTH_GOOGLE_CLIENT_ID)
    expect(url.searchParams.get('redirect_uri')).toBe(`${ORIGIN}/api/v1/auth/oauth/google/callback`)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(url.searchParams.get('scope')).toBe('openid email profile')
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wt_oauth='))!
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/Max-Age=600/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\/(;|$)/i) // `__Host-` needs Path=/ (below)
    // encrypted: neither the state nor anything else readable
    expect(cookie).not.toContain(url.searchParams.get('state')!)
    expect(cookie.split(';')[0]!.split('.')).toHaveLength(5)
  })

  it('on https the state cookie is __Host- prefixed and Secure, so a sibling site (another edition) cannot plant one', async () => {
    const res = await app.request(new Request('https://localhost/api/v1/auth/oauth/google', { redirect: 'manual' }))
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-wt_oauth='))!
    expect(cookie).toMatch(/; Secure/i)
    expect(cookie).toMatch(/Path=\/(;|$)/i)
    expect(cookie).not.toMatch(/Domain=/i)
    expect(res.headers.getSetCookie().some((c) => c.startsWith('wt_oauth='))).toBe(false)
  })

  it('an unknown provider or one the edition does not offer goes to login-error', async () => {
    expect((await appGet(new Jar(), '/api/v1/auth/oauth/myspace')).headers.get('location')).toBe(
      '/callback/login-error?error=INVALID_PARAMETER',
    )
    const krApp = appFor(parseEdition('kr', kr))
    const res = await krApp.request(new Request(`${ORIGIN}/api/v1/auth/oauth/facebook`, { redirect: 'manual' }))
    expect(res.headers.get('location')).toBe('/callback/login-error?error=INVALID_PARAMETER')
  })
})

describe('OAuth callback against a real OpenID provider', () => {
  it('creates a new user with the verified e-mail and signs in (login-newuser, callback kept)', async () => {
    const flow = await signInWith('google', 'alice', { callback: '/library/my' })
    expect(flow.final.status).toBe(302)
    expect(flow.location).toBe('/callback/login-newuser?callback=%2Flibrary%2Fmy')
    expect(flow.final.headers.getSetCookie().find((c) => c.startsWith('wt_session='))).toMatch(/HttpOnly/i)
    expect(flow.jar.cookies.has('wt_oauth')).toBe(false) // spent
    const me = await session(flow.jar)
    expect(me.user).toMatchObject({ email: 'alice@example.test', snsProvider: 'google', snsId: 'alice' })
    const row = await env.DB.prepare(`SELECT email_verified_at AS v, password_hash AS p FROM users WHERE id = ?`)
      .bind(me.user!.id)
      .first<{ v: string | null; p: string | null }>()
    expect(row?.v).not.toBeNull()
    expect(row?.p).toBeNull()
  })

  it('a second login finds the identity: same account, login-success, no new row', async () => {
    const first = await session((await signInWith('google', 'alice')).jar)
    const again = await signInWith('google', 'alice')
    expect(again.location).toBe('/callback/login-success')
    expect((await session(again.jar)).user?.id).toBe(first.user!.id)
    const count = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM identities WHERE provider = 'google' AND provider_user_id = 'alice'`,
    ).first<{ n: number }>()
    expect(count?.n).toBe(1)
  })

  it('never links by e-mail: the verified reader@example.com of the provider gets AccountNotLinkedError, nothing linked', async () => {
    const flow = await signInWith('facebook', 'reader', { callback: '/gift' })
    expect(flow.location).toBe('/callback/login-error?error=AccountNotLinkedError')
    expect(flow.jar.cookies.has('wt_session')).toBe(false)
    const linked = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM identities WHERE provider = 'facebook' AND provider_user_id = 'reader'`,
    ).first<{ n: number }>()
    expect(linked?.n).toBe(0)
  })

  it('the owner signs in, links the provider from /setting, then signs in with it', async () => {
    const jar = await linkFromSetting('facebook', 'reader')
    expect((await session(jar)).user?.id).toBe(READER.id)
    const linked = await env.DB.prepare(
      `SELECT user_id AS u FROM identities WHERE provider = 'facebook' AND provider_user_id = 'reader'`,
    ).first<{ u: number }>()
    expect(linked?.u).toBe(READER.id)
    const flow = await signInWith('facebook', 'reader', { callback: '/gift' })
    expect(flow.location).toBe('/callback/login-success?callback=%2Fgift')
    expect((await session(flow.jar)).user?.id).toBe(READER.id)
    // the provider identity of another account cannot be linked: it stays where it is
    const other = await linkFromSetting('google', 'alice', 'ALREADY_USED_ANOTHER_PLATFORM')
    expect((await session(other)).user?.id).toBe(READER.id)
  })

  it('a link that comes back to a browser signed in to another account (or signed out) links nothing', async () => {
    const jar = await passwordSession(READER.email, READER.password)
    const authorize = await linkStart(jar, 'twitter')
    jar.cookies.delete('wt_session') // the reader signed out meanwhile
    authorize.searchParams.set('login_hint', 'bob-noemail')
    const back = await throughProvider(authorize.href)
    const final = await appGet(jar, back.pathname + back.search)
    expect(final.headers.get('location')).toBe('/setting?error=NOT_LOGIN_USER')
    const linked = await env.DB.prepare(`SELECT COUNT(*) AS n FROM identities WHERE provider = 'twitter' AND user_id = ?`)
      .bind(READER.id)
      .first<{ n: number }>()
    expect(linked?.n).toBe(0)
  })

  it('a saved state cookie cannot finish a second sign-in: the state is single use on the server', async () => {
    const jar = new Jar()
    const start = await appGet(jar, '/api/v1/auth/oauth/google')
    const saved = jar.cookies.get('wt_oauth')!
    const authorize = new URL(start.headers.get('location')!)
    authorize.searchParams.set('login_hint', 'alice')
    const first = await appGet(jar, pathOf(await throughProvider(authorize.href)))
    expect(first.headers.get('location')).toBe('/callback/login-success')
    // the attacker replays the same authorization request (same state and PKCE challenge) for a fresh code
    const replay = new Jar()
    replay.cookies.set('wt_oauth', saved)
    const again = await appGet(replay, pathOf(await throughProvider(authorize.href)))
    expect(again.headers.get('location')).toBe('/callback/login-error?error=OAuthCallbackError')
    expect(replay.cookies.has('wt_session')).toBe(false)
  })

  it('two state cookies in one request (the attacker planted theirs from a sibling site: login CSRF) are refused', async () => {
    // the attacker's own flow, stopped at the callback; the victim's browser gets the attacker's cookie besides its own
    const attacker = new Jar()
    const start = await appGet(attacker, '/api/v1/auth/oauth/google')
    const authorize = new URL(start.headers.get('location')!)
    authorize.searchParams.set('login_hint', 'bob-noemail')
    const back = pathOf(await throughProvider(authorize.href))
    const victim = new Jar()
    await appGet(victim, '/api/v1/auth/oauth/google')
    for (const cookie of [
      `wt_oauth=${attacker.cookies.get('wt_oauth')}; wt_oauth=${victim.cookies.get('wt_oauth')}`,
      `wt_oauth=${victim.cookies.get('wt_oauth')}; wt_oauth=${attacker.cookies.get('wt_oauth')}`,
    ]) {
      const res = await request(app, back, { redirect: 'manual', headers: { cookie } })
      expect(res.headers.get('location')).toBe('/callback/login-error?error=OAuthCallbackError')
      expect(res.headers.getSetCookie().some((c) => c.startsWith('wt_session=') && !c.startsWith('wt_session=;'))).toBe(false)
    }
  })

  it("RFC 9207: a response whose iss is another provider's (mix-up), or without iss from a provider that always sends it, is refused", async () => {
    const mixUp = await signInWith('google', 'alice', { tamper: (back) => back.searchParams.set('iss', 'https://attacker-idp.example') })
    expect(mixUp.back.searchParams.get('iss')).toBe('https://attacker-idp.example')
    expect(mixUp.location).toBe('/callback/login-error?error=OAuthCallbackError')
    const stripped = await signInWith('google', 'alice', { tamper: (back) => back.searchParams.delete('iss') })
    expect(stripped.location).toBe('/callback/login-error?error=OAuthCallbackError')
    const honest = await signInWith('google', 'alice')
    expect(honest.back.searchParams.get('iss')).toBe(ISSUER)
    expect(honest.location).toBe('/callback/login-success')
  })

  it("refuses to link when the provider's e-mail is unverified: AccountNotLinkedError, nothing linked", async () => {
    const flow = await signInWith('google', 'minor-unverified')
    expect(flow.location).toBe('/callback/login-error?error=AccountNotLinkedError')
    expect(flow.final.headers.getSetCookie().some((c) => c.startsWith('wt_session=') && !c.startsWith('wt_session=;'))).toBe(false)
    const linked = await env.DB.prepare(`SELECT COUNT(*) AS n FROM identities WHERE provider_user_id = 'minor-unverified'`).first<{
      n: number
    }>()
    expect(linked?.n).toBe(0)
  })

  it('a plain OAuth 2.0 provider (userinfo, no e-mail) creates an account without e-mail', async () => {
    const flow = await signInWith('twitter', 'bob-noemail')
    expect(flow.location).toBe('/callback/login-newuser')
    expect((await session(flow.jar)).user).toMatchObject({ email: null, snsProvider: 'twitter', snsId: 'bob-noemail' })
  })

  it('a tampered state is refused (OAuthCallbackError) and the code is never redeemed', async () => {
    const flow = await signInWith('google', 'alice', { tamper: (back) => back.searchParams.set('state', 'forged-state-value-0123456789') })
    expect(flow.location).toBe('/callback/login-error?error=OAuthCallbackError')
    expect(flow.jar.cookies.has('wt_session')).toBe(false)
  })

  it('a callback without the state cookie (login CSRF) or after it was spent is refused', async () => {
    const flow = await signInWith('google', 'alice')
    expect(flow.location).toBe('/callback/login-success')
    // replay of the same redirect in the same browser: the state cookie is gone
    const replay = await appGet(new Jar(), flow.back.pathname + flow.back.search)
    expect(replay.headers.get('location')).toBe('/callback/login-error?error=OAuthCallbackError')
  })

  it('denied consent at the provider gives login-error', async () => {
    const flow = await signInWith('google', 'deny')
    expect(flow.back.searchParams.get('error')).toBe('access_denied')
    expect(flow.location).toBe('/callback/login-error?error=OAuthCallbackError')
  })

  it("a code issued to another client is refused by the provider's token endpoint (OAuthCallbackError)", async () => {
    const jar = new Jar()
    const start = await appGet(jar, '/api/v1/auth/oauth/google')
    const ours = new URL(start.headers.get('location')!)
    // the attacker's authorization for another client, delivered to our callback with our state
    const other = new OAuth2Client(
      bindings.TEST_OIDC_OTHER_CLIENT_ID!,
      bindings.TEST_OIDC_OTHER_CLIENT_SECRET!,
      `${ORIGIN}/api/v1/auth/oauth/google/callback`,
    )
    const url = other.createAuthorizationURLWithPKCE(`${ISSUER}/auth`, generateState(), CodeChallengeMethod.S256, generateCodeVerifier(), [
      'openid',
      'email',
    ])
    url.searchParams.set('login_hint', 'alice')
    const back = await throughProvider(url.href)
    back.searchParams.set('state', ours.searchParams.get('state')!)
    const final = await appGet(jar, back.pathname + back.search)
    expect(final.headers.get('location')).toBe('/callback/login-error?error=OAuthCallbackError')
  })

  it('an ID token issued by the real provider for another audience is rejected; for ours it is accepted', async () => {
    const verifier = generateCodeVerifier()
    const other = new OAuth2Client(
      bindings.TEST_OIDC_OTHER_CLIENT_ID!,
      bindings.TEST_OIDC_OTHER_CLIENT_SECRET!,
      `${ORIGIN}/api/v1/auth/oauth/google/callback`,
    )
    const url = other.createAuthorizationURLWithPKCE(`${ISSUER}/auth`, generateState(), CodeChallengeMethod.S256, verifier, [
      'openid',
      'email',
    ])
    url.searchParams.set('nonce', 'nonce-of-the-test')
    url.searchParams.set('login_hint', 'alice')
    const back = await throughProvider(url.href)
    const tokens = await other.validateAuthorizationCode(`${ISSUER}/token`, back.searchParams.get('code')!, verifier)
    const keys = createRemoteJWKSet(new URL(`${ISSUER}/jwks`))
    const expected = { issuer: ISSUER, nonce: 'nonce-of-the-test' }
    expect(await verifyIdToken(tokens.idToken(), keys, { ...expected, clientId: bindings.OAUTH_GOOGLE_CLIENT_ID! })).toBeNull()
    expect((await verifyIdToken(tokens.idToken(), keys, { ...expected, clientId: bindings.TEST_OIDC_OTHER_CLIENT_ID! }))?.sub).toBe('alice')
    expect(
      await verifyIdToken(tokens.idToken(), keys, { ...expected, clientId: bindings.TEST_OIDC_OTHER_CLIENT_ID!, nonce: 'another-nonce' }),
    ).toBeNull()
    expect(
      await verifyIdToken(tokens.idToken(), keys, {
        ...expected,
        issuer: 'https://evil.example',
        clientId: bindings.TEST_OIDC_OTHER_CLIENT_ID!,
      }),
    ).toBeNull()
  })
})

describe('session service with OAuth providers', () => {
  it('signin/{provider} answers the start of the flow; providers lists the configured ones', async () => {
    const csrfRes = await request(app, '/api/auth/csrf')
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const cookie = csrfRes.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const res = await request(app, '/api/auth/signin/apple', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${ORIGIN}/gift`, json: 'true' }).toString(),
    })
    expect(await res.json()).toEqual({ url: `${ORIGIN}/api/v1/auth/oauth/apple?callback=%2Fgift` })
    const providers = (await (await request(app, '/api/auth/providers')).json()) as Record<string, unknown>
    expect(Object.keys(providers)).toEqual(['credentials', 'google', 'facebook', 'twitter', 'apple'])
  })

  it('apple (OpenID by discovery) signs in the linked reader too', async () => {
    await linkFromSetting('apple', 'reader')
    const jar = new Jar()
    const flow = await signInWith('apple', 'reader', { jar })
    expect(flow.location).toBe('/callback/login-success')
    expect((await session(jar)).user?.id).toBe(READER.id)
  })
})
