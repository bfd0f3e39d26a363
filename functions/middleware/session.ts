import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError, type ErrorCode } from '../../src/lib/errors/catalogue.ts'
import { isProtectedPath, loginRedirect, skipsUser, SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { openSession, sealSession, sessionCookieOptions, type WebSession } from '../../src/features/session/cookie.ts'
import { needsRefresh, verifyAccessToken } from '../../src/features/auth/tokens.ts'
import { type TokenKeys } from '../../src/lib/tokens.ts'
import { currentReader, refreshTokens, sessionKeys } from '../../src/features/auth/auth.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { membersOnly } from '../lib/openapi.ts'
import type { AudienceFlags } from '../../src/features/age/age.ts'
import type { Platform } from '../../src/lib/platform.ts'
import { PERSONAL } from '../../src/lib/cache.ts'

/**
 * Who is calling: a user id from `Authorization: Bearer` (apps) or the `wt_session` cookie (web), or a
 * guest with the reason (`error`) a credential was refused.
 */
export type SessionState =
  /**
   * `expires`: when the session ends (refresh-token expiry for the cookie, access-token expiry for Bearer).
   * `sessionVersion`, `sessionId`: the access token's; a route marked `checksSessionItself` checks them in its own read.
   * `reader`: the adult flags and switches read with the session check (absent when no check ran).
   * `platform`: fixed at sign-in (the token's claim), what platform rules check — never the X-Platform header.
   */
  | {
      userId: number
      source: 'bearer' | 'cookie'
      expires: string
      sessionVersion: number
      sessionId: string
      platform: Platform
      reader?: AudienceFlags
    }
  | { userId: null; error: ErrorCode | null }

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by the session middleware on every request it runs for. */
    session: SessionState
  }
}

const GUEST: SessionState = { userId: null, error: null }
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,4096})$/i

/** Static files and the pages that skip loading the user (spec §2) never pay for a session. */
function skips(path: string): boolean {
  return skipsUser(path) || path.startsWith('/_astro/') || path.startsWith('/media/') || /\/[^/]+\.[a-z0-9]+$/i.test(path)
}

/**
 * ASVS 7.4.1/7.4.3: a password change, a password reset and a withdrawal end every session of the account at
 * once. They revoke its refresh-token families and move `users.session_version` on in the same D1 batch; an
 * access token (claim `sv`) of an older version is refused although its 15 minutes are not over. A logout
 * revokes its session's family: an access token of that session (claim `sid`) is refused at once too.
 *
 * Cost: checking the version is one indexed read per signed-in request. The routes below read the reader's
 * row in their first D1 round trip anyway and compare the version there (no extra round trip: the purchase
 * path stays at 2, GET /coin and the session service at what they were); the middleware leaves it to them.
 * Every other request with a token is checked here. A stale Bearer token answers NEED_TO_REFRESH (the app
 * refreshes; the revoked family refuses it; the app signs out); a stale cookie goes through the refresh below,
 * which fails for the same reason, and the cookie is cleared: the reader is a guest again.
 *
 * Such a route says so itself: `checksSessionItself` is placed in its own handler list, where the middleware
 * finds it among the routes the router matched (a renamed or moved route keeps its flag; a route without it
 * is checked here).
 */
export const checksSessionItself: MiddlewareHandler = (_c, next) => next()

const routeChecksSession = (c: Context) => matchedRoutes(c).some((r) => r.handler === checksSessionItself)

/**
 * A route that needs no session at all, only who holds the credential (a slice image: its signed URL carries the
 * decision, docs/ARCHITECTURE.md "Slices"). The middleware leaves such a request alone — no D1 read, no refresh, no
 * cookie change — and the route asks `credentialHolder`.
 */
export const readsCredentialItself: MiddlewareHandler = (_c, next) => next()

const routeReadsCredential = (c: Context) => matchedRoutes(c).some((r) => r.handler === readsCredentialItself)

/**
 * The reader a request's credential names, from the credential alone (no D1, no refresh): a Bearer access token or
 * the session cookie's, still counted `graceSeconds` after it expired (whatever it names was proven by a session
 * check when it was issued). A guest without a credential; NOT_LOGIN_USER for one that is not ours, NEED_TO_REFRESH
 * for one expired longer ago.
 */
export async function credentialHolder(
  c: Context<AppEnv>,
  graceSeconds: number,
): Promise<{ userId: number } | { userId: null; error: ErrorCode | null }> {
  const authorization = c.req.header('authorization')
  const raw = getCookie(c, SESSION_COOKIE)
  if (authorization === undefined && raw === undefined) return { userId: null, error: null }
  const keys = await sessionKeys().catch(() => null)
  if (!keys) return { userId: null, error: 'NO_SECRET' }
  let token: string | undefined
  if (authorization !== undefined) token = BEARER.exec(authorization.trim())?.[1]
  else token = (await openSession(keys, raw))?.accessToken.value
  if (token === undefined) return { userId: null, error: 'NOT_LOGIN_USER' }
  const check = await verifyAccessToken(keys, token, c.var.edition.siteUrl, new Date(), graceSeconds)
  if (check.ok) return { userId: check.userId }
  return { userId: null, error: check.reason === 'expired' ? 'NEED_TO_REFRESH' : 'NOT_LOGIN_USER' }
}

/**
 * The client's address (per-address limits, the refresh result's `ipAddress`): CF-Connecting-IP only, which
 * Cloudflare sets itself on a deployment (a client's own value is replaced) and the local runtime fills from the
 * socket. X-Real-IP and X-Forwarded-For are anyone's to write and never read.
 */
export function clientIp(header: (name: string) => string | undefined): string | null {
  return header('cf-connecting-ip') ?? null
}

/**
 * Session middleware (spec §4 token handling, ASVS 3.3/9.1/10.4.5):
 * - Bearer: the access token is verified (HS256, typ, iss/aud, exp/nbf); an expired one gives
 *   NEED_TO_REFRESH to routes that need a user, the app refreshes on its own.
 * - Cookie: decrypted; while the access token has more than 5 minutes left it is used, else the edge
 *   rotates the pair and writes the new cookie. A refused refresh (EXPIRED_REFRESH_TOKEN, a replayed or
 *   revoked token) clears the cookie: the reader is a guest again.
 * - A protected page (spec §2) opened with a cookie that no longer holds a session goes to the login route.
 * Idempotent: mounted globally and again on a sub-app, it runs once.
 */
export const session = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('session') !== undefined) return next()
  const path = c.req.path
  if (skips(path) || routeReadsCredential(c)) {
    c.set('session', GUEST)
    return next()
  }
  const checkVersion = !routeChecksSession(c)
  const authorization = c.req.header('authorization')
  if (authorization !== undefined) {
    const state = await fromBearer(authorization, c.var.edition.siteUrl, c.var.db, checkVersion)
    c.set('session', state)
    return next()
  }
  const raw = getCookie(c, SESSION_COOKIE)
  if (raw === undefined) {
    c.set('session', GUEST)
    return next()
  }

  let cookieChange: { set: string; refreshExpiredAt: string } | 'clear' | null
  let state: SessionState = GUEST
  const keys = await sessionKeys().catch(() => null)
  const web = keys ? await openSession(keys, raw) : null
  if (!keys || !web) cookieChange = 'clear'
  else {
    const result = await fromCookie(
      keys,
      web,
      c.var.edition.siteUrl,
      c.var.db,
      c.var.t,
      clientIp((n) => c.req.header(n)),
      checkVersion,
    )
    state = result.state
    cookieChange = result.cookie
  }
  c.set('session', state)

  const options = sessionCookieOptions(c.req.url)
  if (state.userId === null && (c.req.method === 'GET' || c.req.method === 'HEAD') && isProtectedPath(path)) {
    // refresh grace (another tab holds the new cookie): the same page again, with the browser's new cookie
    const url = new URL(c.req.url)
    const location = state.error === 'NEED_TO_REFRESH' && cookieChange === null ? url.pathname + url.search : loginRedirect(url)
    if (location) {
      if (cookieChange !== null) deleteCookie(c, SESSION_COOKIE, options)
      c.header('Cache-Control', 'no-store')
      return c.redirect(location, 302)
    }
  }
  await next()
  // a route marked `checksSessionItself` found the cookie's session ended (its refresh token is revoked with it)
  if (state.userId !== null && c.error instanceof AppError && ['NEED_TO_REFRESH', 'NOT_FOUND_ACCESS_TOKEN'].includes(c.error.code))
    cookieChange = 'clear'
  if (cookieChange === 'clear') deleteCookie(c, SESSION_COOKIE, options)
  else if (cookieChange) {
    setCookie(c, SESSION_COOKIE, cookieChange.set, sessionCookieOptions(c.req.url, cookieChange.refreshExpiredAt))
    // a response that renews a personal cookie is never stored by a shared cache
    c.header('Cache-Control', PERSONAL)
  }
})

async function fromBearer(
  authorization: string,
  issuer: string,
  db: AppEnv['Variables']['db'],
  checkVersion: boolean,
): Promise<SessionState> {
  const match = BEARER.exec(authorization.trim())
  if (!match) return { userId: null, error: 'NOT_LOGIN_USER' }
  // without a secret no token can be ours; other Bearer users (e.g. /api/ops) must not fail because of it
  const keys = await sessionKeys().catch(() => null)
  if (!keys) return { userId: null, error: 'NO_SECRET' }
  const check = await verifyAccessToken(keys, match[1]!, issuer)
  const reader = check.ok && checkVersion ? await currentReader(check.userId, check) : undefined
  if (reader === null) return { userId: null, error: 'NEED_TO_REFRESH' }
  if (check.ok)
    return {
      userId: check.userId,
      source: 'bearer',
      expires: check.expiresAt.toISOString(),
      sessionVersion: check.sessionVersion,
      sessionId: check.sessionId,
      platform: check.platform,
      reader,
    }
  return { userId: null, error: check.reason === 'expired' ? 'NEED_TO_REFRESH' : 'NOT_LOGIN_USER' }
}

async function fromCookie(
  keys: TokenKeys,
  web: WebSession,
  issuer: string,
  db: AppEnv['Variables']['db'],
  t: AppEnv['Variables']['t'],
  ip: string | null,
  checkVersion: boolean,
): Promise<{ state: SessionState; cookie: { set: string; refreshExpiredAt: string } | 'clear' | null }> {
  const now = new Date()
  const check = await verifyAccessToken(keys, web.accessToken.value, issuer, now)
  const usable = check.ok && !needsRefresh(check.expiresAt, now)
  const reader = usable && checkVersion ? await currentReader(check.userId, check) : undefined
  if (usable && reader !== null) {
    return {
      state: {
        userId: check.userId,
        source: 'cookie',
        expires: web.refreshToken.expiredAt,
        sessionVersion: check.sessionVersion,
        sessionId: check.sessionId,
        platform: check.platform,
        reader,
      },
      cookie: null,
    }
  }
  try {
    const fresh = await refreshTokens(
      db,
      { accessToken: web.accessToken.value, refreshToken: web.refreshToken.value },
      { issuer, t, now, ip },
    )
    // spec §4: tokens of another account than the cookie's are dropped (refresh already refuses a foreign access token)
    if (check.ok && fresh.userId !== check.userId) return { state: { userId: null, error: 'NOT_LOGIN_USER' }, cookie: 'clear' }
    const sealed = await sealSession(keys, { accessToken: fresh.accessToken, refreshToken: fresh.refreshToken })
    return {
      state: {
        userId: fresh.userId,
        source: 'cookie',
        expires: fresh.refreshToken.expiredAt,
        sessionVersion: fresh.sessionVersion,
        sessionId: fresh.sessionId,
        platform: fresh.platform,
      },
      cookie: { set: sealed, refreshExpiredAt: fresh.refreshToken.expiredAt },
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e
    // another tab rotated this pair a moment ago and the browser already holds its new cookie: keep it
    // (clearing would log that tab out too); this request goes on with the access token while it is valid
    // (never a stale one: ending the sessions revoked this family, so its refresh is not "rotated recently")
    if (e.details?.rotatedRecently === true)
      return {
        state: check.ok
          ? {
              userId: check.userId,
              source: 'cookie',
              expires: web.refreshToken.expiredAt,
              sessionVersion: check.sessionVersion,
              sessionId: check.sessionId,
              platform: check.platform,
            }
          : { userId: null, error: 'NEED_TO_REFRESH' },
        cookie: null,
      }
    return { state: { userId: null, error: e.code }, cookie: 'clear' }
  }
}

/**
 * For routes that need a reader: NOT_LOGIN_USER without credentials (or with refused ones),
 * NEED_TO_REFRESH for an expired Bearer token (spec §4: the client refreshes and retries once). Marked members-only in
 * the API reference (functions/lib/openapi.ts).
 */
export const requireUser = membersOnly(
  createMiddleware<AppEnv>(async (c, next) => {
    const state = c.get('session')
    if (!state || state.userId === null) {
      const reason = state?.userId === null ? state.error : null
      throw new AppError(reason === 'NEED_TO_REFRESH' || reason === 'NO_SECRET' ? reason : 'NOT_LOGIN_USER')
    }
    return next()
  }),
)

/** The signed-in reader's session inside a route behind `requireUser`. */
export function currentSession(c: { get: (key: 'session') => SessionState }): Extract<SessionState, { userId: number }> {
  const state = c.get('session')
  if (state.userId === null) throw new AppError('NOT_LOGIN_USER')
  return state
}

/** The platform that rules check (app-only coupons and products): the session's, WEB for a guest. */
export function sessionPlatform(c: { get: (key: 'session') => SessionState | undefined }): Platform {
  const state = c.get('session')
  return state && state.userId !== null ? state.platform : 'WEB'
}

/** The signed-in reader's id inside a route behind `requireUser`. */
export function currentUserId(c: { get: (key: 'session') => SessionState }): number {
  return currentSession(c).userId
}
