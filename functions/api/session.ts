/**
 * The session service at `/api/auth` in NextAuth's wire format (docs/API.md "Session service", spec §7/§8):
 * session, csrf, providers, callback/credentials, signin/{provider}, signout, _log. Answers are NextAuth's
 * plain JSON (no API envelope) so any NextAuth-style client works against it. Every POST but `_log` needs
 * the double-submit CSRF token; a wrong one changes nothing (403 with `?error=FORBIDDEN_ORIGIN` in the url).
 */
import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError, ERRORS, type ErrorCode } from '../../src/lib/errors/catalogue.ts'
import { SignInBody, sameSiteCallback } from '../../src/features/auth/auth.ts'
import { logout, sessionKeys, signIn, userMe } from '../../src/features/auth/auth.server.ts'
import { LOGIN_ROUTE, SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { openSession, sealSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import { CSRF_COOKIE, csrfFromCookie, csrfMatches, newCsrf } from '../../src/features/session/csrf.ts'
import { ClientLog, failureUrl, providersFor } from '../../src/features/session/service.ts'
import type { AppEnv } from '../lib/env.ts'
import { checksSessionItself } from '../middleware/session.ts'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { authContext } from './auth.ts'
import { isOAuthProvider, oauthStartPath } from '../../src/features/auth/oauth.ts'
import { offeredProviders, providerConfig } from '../../src/features/auth/oauth.server.ts'

type Form = Record<string, string>

/** NextAuth clients post urlencoded forms; JSON is accepted too. Only string fields are kept. */
async function readForm(c: Context<AppEnv>): Promise<Form> {
  const type = c.req.header('content-type') ?? ''
  const raw: unknown = type.includes('application/json') ? await c.req.json().catch(() => ({})) : await c.req.parseBody().catch(() => ({}))
  const out: Form = {}
  if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') out[k] = v
  return out
}

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin

/** `json=true` → `{url}` with the status; otherwise a redirect to the url (forms without JavaScript). */
function answer(c: Context<AppEnv>, form: Form, url: string, status: ContentfulStatusCode = 200) {
  c.header('Cache-Control', 'no-store')
  return form.json === 'true' ? c.json({ url }, status) : c.redirect(url, 302)
}

function fail(c: Context<AppEnv>, form: Form, code: ErrorCode, callback: string) {
  return answer(c, form, failureUrl(origin(c), code, callback), ERRORS[code].status as ContentfulStatusCode)
}

async function csrfOk(c: Context<AppEnv>, form: Form) {
  return csrfMatches((await sessionKeys()).csrf, getCookie(c, CSRF_COOKIE), form.csrfToken)
}

export const sessionService = new Hono<AppEnv>()
  /**
   * `{}` for a guest, else `{user, expires, coin, alarms}` (the session middleware has already refreshed the cookie);
   * `alarms` is the unread count of the header's bell, so a page asks one question after paint, not two.
   * One call to the reader's object answers it all (`userMe`) and checks the token's session first (ASVS 7.4.1/7.4.3):
   * an ended session is `{}` and its cookie goes.
   */
  .get('/session', checksSessionItself, async (c) => {
    const state = c.var.session
    if (!state || state.userId === null) return c.json({})
    const me = await userMe(state.userId, state, true).catch((e: unknown) => {
      if (e instanceof AppError && e.code === 'NEED_TO_REFRESH') return null
      throw e
    })
    if (!me && state.source === 'cookie') deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
    return c.json(me ? { user: me.user, expires: state.expires, coin: me.coin, alarms: me.alarms } : {})
  })
  .get('/csrf', async (c) => {
    const key = (await sessionKeys()).csrf
    let token = await csrfFromCookie(key, getCookie(c, CSRF_COOKIE))
    if (!token) {
      const fresh = await newCsrf(key)
      token = fresh.token
      setCookie(c, CSRF_COOKIE, fresh.cookie, sessionCookieOptions(c.req.url))
    }
    return c.json({ csrfToken: token })
  })
  /** Credentials and the edition's OAuth providers that are configured (an unconfigured one is not offered). */
  .get('/providers', (c) =>
    c.json(
      providersFor(
        origin(c),
        offeredProviders(c.var.edition.loginProviders).map((p) => p.id),
      ),
    ),
  )
  /** Credentials sign-in: the e-mail/password rules and codes of POST /api/v1/auth/sign-in; a new session cookie. */
  .post('/callback/credentials', async (c) => {
    const form = await readForm(c)
    const callback = sameSiteCallback(form.callbackUrl, origin(c))
    if (!(await csrfOk(c, form))) return fail(c, form, 'FORBIDDEN_ORIGIN', callback)
    const body = SignInBody.safeParse(form)
    if (!body.success) return fail(c, form, 'INVALID_PARAMETER', callback)
    try {
      const pair = await signIn(c.var.db, body.data, authContext(c))
      setCookie(
        c,
        SESSION_COOKIE,
        await sealSession(await sessionKeys(), pair),
        sessionCookieOptions(c.req.url, pair.refreshToken.expiredAt),
      )
      return answer(c, form, `${origin(c)}${callback}`)
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return fail(c, form, e.code, callback)
      throw e
    }
  })
  /**
   * `signin/credentials` sends the reader to the login form (NextAuth clients post credentials to
   * callback/credentials); an offered OAuth provider to the start of its flow (`/api/v1/auth/oauth/{id}`,
   * which sets the state cookie and goes on to the provider); anything else: INVALID_PARAMETER.
   */
  .post('/signin/:provider', async (c) => {
    const form = await readForm(c)
    const callback = sameSiteCallback(form.callbackUrl, origin(c))
    if (!(await csrfOk(c, form))) return fail(c, form, 'FORBIDDEN_ORIGIN', callback)
    const provider = c.req.param('provider')
    if (provider === 'credentials') return answer(c, form, `${origin(c)}${LOGIN_ROUTE}?${new URLSearchParams({ callback })}`)
    if (!isOAuthProvider(provider) || !c.var.edition.loginProviders.includes(provider) || !providerConfig(provider))
      return fail(c, form, 'INVALID_PARAMETER', callback)
    return answer(c, form, `${origin(c)}${oauthStartPath(provider, callback)}`)
  })
  /** Ends the session server-side (ASVS 7.4.1) and clears the cookie. */
  .post('/signout', async (c) => {
    const form = await readForm(c)
    const callback = sameSiteCallback(form.callbackUrl, origin(c))
    if (!(await csrfOk(c, form))) return fail(c, form, 'FORBIDDEN_ORIGIN', callback)
    const web = await openSession(await sessionKeys(), getCookie(c, SESSION_COOKIE))
    if (web) await logout(web.refreshToken.value, c.get('session')?.userId ?? null)
    deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
    return answer(c, form, `${origin(c)}${callback}`)
  })
  /** Client log beacon (spec §7): level, code, details; logged with the request id, nothing stored. */
  .post('/_log', async (c) => {
    const log = ClientLog.safeParse(await readForm(c))
    if (!log.success) throw new AppError('INVALID_PARAMETER')
    const { level, code, details, metadata } = log.data
    const line = `[${c.var.requestId}] client ${level} ${code}`
    const extra = (details ?? metadata ?? '').slice(0, 4000)
    if (level === 'error') console.error(line, extra)
    else console.warn(line, extra)
    return c.body(null, 204)
  })
