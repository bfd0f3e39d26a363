/**
 * OAuth sign-in routes (issue 3 item 2), mounted at `/api/v1/auth/oauth`:
 * - `GET /{provider}?callback=` → 302 to the provider with state + PKCE + nonce kept in the state cookie
 *   (encrypted, HttpOnly, 10 minutes, `__Host-` prefixed on https) and the state recorded for single use;
 * - `POST /{provider}/link` (the /setting form, signed in, same origin) → the same, to link the provider to
 *   the signed-in account;
 * - `GET|POST /{provider}/callback` (POST: Apple's form_post) → checks (state cookie, the state's single use,
 *   RFC 9207 `iss`), exchange, account rule, the `wt_session` cookie, then 302 to /callback/login-success or
 *   /callback/login-newuser, or /callback/login-error?error=CODE on any failure; a link goes back to
 *   /setting (`?linked=` or `?error=`). The state cookie is spent either way.
 */
import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError, type ErrorCode } from '../../src/lib/errors/catalogue.ts'
import { safeCallback } from '../../src/lib/redirect.ts'
import { sessionKeys } from '../../src/features/auth/auth.server.ts'
import {
  OAUTH_PROVIDER_NAMES,
  OAUTH_STATE_TTL_SECONDS,
  checkCallback,
  isOAuthProvider,
  oauthErrorPath,
  oauthStateCookieName,
  oauthSuccessPath,
  openOAuthState,
  type OAuthProviderConfig,
} from '../../src/features/auth/oauth.ts'
import {
  beginOAuth,
  claimOAuthState,
  expectedIssuer,
  finishOAuth,
  linkOAuthIdentity,
  oauthStateKey,
  providerConfig,
  signInWithOAuth,
} from '../../src/features/auth/oauth.server.ts'
import { LOGIN_ROUTE, SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { sealSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import type { AppEnv } from '../lib/env.ts'
import { authContext } from './auth.ts'
import { assertSameOrigin } from './forms.ts'

/**
 * Path=/ and no Domain, as the `__Host-` prefix requires; cross-site form_post (Apple) needs SameSite=None,
 * which browsers accept only with Secure.
 */
function stateCookieOptions(c: Context<AppEnv>, config: OAuthProviderConfig | null) {
  const base = sessionCookieOptions(c.req.url)
  const crossSite = config?.responseMode === 'form_post' && base.secure
  return { ...base, sameSite: crossSite ? ('None' as const) : ('Lax' as const) }
}

const stateCookie = (c: Context<AppEnv>) => oauthStateCookieName(sessionCookieOptions(c.req.url).secure)

/** The state cookie, or undefined when absent or sent twice (a planted second cookie: login CSRF). */
function readStateCookie(c: Context<AppEnv>): string | undefined {
  const name = stateCookie(c)
  const sent = (c.req.header('cookie') ?? '').split(';').filter((part) => part.trim().startsWith(`${name}=`)).length
  return sent === 1 ? getCookie(c, name) : undefined
}

async function start(c: Context<AppEnv>, config: OAuthProviderConfig, callback: string, link: number | null) {
  const { url, cookie } = await beginOAuth(c.var.db, config, new URL(c.req.url).origin, callback, link)
  setCookie(c, stateCookie(c), cookie, { ...stateCookieOptions(c, config), maxAge: OAUTH_STATE_TTL_SECONDS })
  c.header('Cache-Control', 'no-store')
  if (link === null) return c.redirect(url, 302)
  // the link starts from a form, and CSP form-action 'self' forbids a form's redirect to another site: a page
  // that moves on by itself (a refresh is a plain navigation), with a link for browsers that do not
  const href = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  const label = c.var.t('auth.oauth.continueWith', { provider: OAUTH_PROVIDER_NAMES[config.id] })
  return c.html(
    `<!doctype html><html lang="${c.var.edition.locale}"><meta http-equiv="refresh" content="0;url=${href}"><title>${label}</title><a href="${href}">${label}</a></html>`,
  )
}

/** Where a link from /setting ends. */
const settingPath = (params: Record<string, string>) => `/setting?${new URLSearchParams(params)}`

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
      return await start(c, config, safeCallback(c.req.query('callback')), null)
    } catch (e) {
      if (e instanceof AppError) return toError(c, e.code)
      throw e
    }
  })
  /** /setting: the signed-in owner links this provider to the account (a form of the site's own pages). */
  .post('/:provider/link', async (c) => {
    assertSameOrigin(c)
    const userId = c.var.session.userId
    if (userId === null) return c.redirect(`${LOGIN_ROUTE}?${new URLSearchParams({ callback: '/setting' })}`, 303)
    const config = offered(c, c.req.param('provider'))
    if (!config) return c.redirect(settingPath({ error: 'INVALID_PARAMETER' }), 303)
    try {
      return await start(c, config, '/setting', userId)
    } catch (e) {
      if (e instanceof AppError) return c.redirect(settingPath({ error: e.code }), 303)
      throw e
    }
  })
  .on(['GET', 'POST'], '/:provider/callback', async (c) => {
    const id = c.req.param('provider')
    const config = offered(c, id)
    const raw = readStateCookie(c)
    if (getCookie(c, stateCookie(c)) !== undefined) deleteCookie(c, stateCookie(c), stateCookieOptions(c, config))
    if (!config || !isOAuthProvider(id)) return toError(c, 'OAuthCallbackError')
    const params: Record<string, string | undefined> =
      c.req.method === 'POST' ? ((await c.req.parseBody().catch(() => ({}))) as Record<string, string | undefined>) : c.req.query()
    const pick = (k: string) => (typeof params[k] === 'string' ? params[k] : null)
    const stored = await openOAuthState(await oauthStateKey(), raw)
    const fail = (code: ErrorCode) => (stored?.link != null ? c.redirect(settingPath({ error: code }), 302) : toError(c, code))
    try {
      const checked = checkCallback(
        id,
        { code: pick('code'), state: pick('state'), error: pick('error'), iss: pick('iss') },
        stored,
        await expectedIssuer(config),
      )
      // the state is spent on the server before the code is redeemed: a saved cookie never works twice
      if (!checked || !(await claimOAuthState(c.var.db, checked.stored.state))) return fail('OAuthCallbackError')
      const origin = new URL(c.req.url).origin
      const profile = await finishOAuth(config, origin, checked.code, checked.stored)
      if (checked.stored.link !== null) {
        // only the account that asked, still signed in in this browser, gets the identity
        if (c.var.session.userId !== checked.stored.link) return fail('NOT_LOGIN_USER')
        await linkOAuthIdentity(c.var.db, checked.stored.link, id, profile)
        c.header('Cache-Control', 'no-store')
        return c.redirect(settingPath({ linked: id }), 302)
      }
      const pair = await signInWithOAuth(c.var.db, id, profile, authContext(c))
      setCookie(
        c,
        SESSION_COOKIE,
        await sealSession(await sessionKeys(), pair),
        sessionCookieOptions(c.req.url, pair.refreshToken.expiredAt),
      )
      c.header('Cache-Control', 'no-store')
      return c.redirect(oauthSuccessPath(pair.isNewUser, checked.stored.callback), 302)
    } catch (e) {
      if (e instanceof AppError) return fail(e.code)
      throw e
    }
  })
