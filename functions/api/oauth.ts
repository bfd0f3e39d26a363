/**
 * OAuth sign-in routes (issue 3 item 2), mounted at `/api/v1/auth/oauth`:
 * - `GET /{provider}?callback=` → 302 to the provider with state + PKCE + nonce kept in `wt_oauth`
 *   (encrypted, HttpOnly, 10 minutes, path of these routes);
 * - `GET|POST /{provider}/callback` (POST: Apple's form_post) → checks, exchange, account rule, the
 *   `wt_session` cookie, then 302 to /callback/login-success or /callback/login-newuser, or
 *   /callback/login-error?error=CODE on any failure. The state cookie is spent either way.
 */
import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError, type ErrorCode } from '../../src/lib/errors/catalogue.ts'
import { safeCallback } from '../../src/features/auth/auth.ts'
import { sessionKeys } from '../../src/features/auth/auth.server.ts'
import {
  OAUTH_BASE_PATH,
  OAUTH_STATE_COOKIE,
  OAUTH_STATE_TTL_SECONDS,
  checkCallback,
  isOAuthProvider,
  oauthErrorPath,
  oauthSuccessPath,
  openOAuthState,
  type OAuthProviderConfig,
} from '../../src/features/auth/oauth.ts'
import { beginOAuth, finishOAuth, oauthStateKey, providerConfig, signInWithOAuth } from '../../src/features/auth/oauth.server.ts'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { sealSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import type { AppEnv } from '../lib/env.ts'
import { authContext } from './auth.ts'

/** Cross-site form_post (Apple) needs SameSite=None, which browsers accept only with Secure. */
function stateCookieOptions(c: Context<AppEnv>, config: OAuthProviderConfig | null) {
  const base = sessionCookieOptions(c.req.url)
  const crossSite = config?.responseMode === 'form_post' && base.secure
  return { ...base, path: `${OAUTH_BASE_PATH}/`, sameSite: crossSite ? ('None' as const) : ('Lax' as const) }
}

/** The edition offers it and it is configured. */
function offered(c: Context<AppEnv>, id: string): OAuthProviderConfig | null {
  if (!isOAuthProvider(id) || !c.var.edition.loginProviders.includes(id)) return null
  return providerConfig(id)
}

function toError(c: Context<AppEnv>, code: ErrorCode) {
  c.header('Cache-Control', 'no-store')
  return c.redirect(oauthErrorPath(code), 302)
}

export const oauth = new Hono<AppEnv>()
  .get('/:provider', async (c) => {
    const config = offered(c, c.req.param('provider'))
    if (!config) return toError(c, 'INVALID_PARAMETER')
    try {
      const { url, cookie } = await beginOAuth(config, new URL(c.req.url).origin, safeCallback(c.req.query('callback')))
      setCookie(c, OAUTH_STATE_COOKIE, cookie, { ...stateCookieOptions(c, config), maxAge: OAUTH_STATE_TTL_SECONDS })
      c.header('Cache-Control', 'no-store')
      return c.redirect(url, 302)
    } catch (e) {
      if (e instanceof AppError) return toError(c, e.code)
      throw e
    }
  })
  .on(['GET', 'POST'], '/:provider/callback', async (c) => {
    const id = c.req.param('provider')
    const config = offered(c, id)
    const raw = getCookie(c, OAUTH_STATE_COOKIE)
    if (raw !== undefined) deleteCookie(c, OAUTH_STATE_COOKIE, stateCookieOptions(c, config))
    if (!config || !isOAuthProvider(id)) return toError(c, 'OAuthCallbackError')
    const params: Record<string, string | undefined> =
      c.req.method === 'POST' ? ((await c.req.parseBody().catch(() => ({}))) as Record<string, string | undefined>) : c.req.query()
    const pick = (k: string) => (typeof params[k] === 'string' ? params[k] : null)
    const checked = checkCallback(id, { code: pick('code'), state: pick('state'), error: pick('error') }, await openOAuthState(await oauthStateKey(), raw))
    if (!checked) return toError(c, 'OAuthCallbackError')
    try {
      const origin = new URL(c.req.url).origin
      const profile = await finishOAuth(config, origin, checked.code, checked.stored)
      const pair = await signInWithOAuth(c.var.db, id, profile, authContext(c))
      setCookie(c, SESSION_COOKIE, await sealSession(await sessionKeys(), pair), sessionCookieOptions(c.req.url, pair.refreshToken.expiredAt))
      c.header('Cache-Control', 'no-store')
      return c.redirect(oauthSuccessPath(pair.isNewUser, checked.stored.callback), 302)
    } catch (e) {
      if (e instanceof AppError) return toError(c, e.code)
      throw e
    }
  })
