import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { LOGIN_ROUTE, SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { openSession, sealSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import { LogoutBody, RefreshBody, SignInBody, SignInForm, SignUpBody, safeCallback } from '../../src/features/auth/auth.ts'
import { logout, refreshTokens, sessionKeys, signIn, signUp, type AuthContext } from '../../src/features/auth/auth.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { clientIp } from '../middleware/session.ts'

/** What the auth flows need from the request: the edition's siteUrl (token iss/aud), translator, client IP. */
export function authContext(c: Context<AppEnv>): AuthContext {
  const platform = c.req.header('x-platform')
  return { issuer: c.var.edition.siteUrl, t: c.var.t, ip: clientIp((n) => c.req.header(n)), clientKind: platform && platform !== 'WEB' ? 'APP' : 'WEB' }
}

/** ASVS 3.5: the web forms (login CSRF included) are accepted only from the site's own Origin. */
function assertSameOrigin(c: Context<AppEnv>) {
  if (c.req.header('origin') !== new URL(c.req.url).origin) throw new AppError('FORBIDDEN_ORIGIN')
}

/** The login route showing `error` and keeping the (already sanitised) callback. */
function loginWithError(code: string, callback: string) {
  return `${LOGIN_ROUTE}?${new URLSearchParams({ error: code, callback })}`
}

/** API.md auth endpoints (JSON, apps and islands) and the web login/logout forms (no JavaScript needed). */
export const auth = new Hono<AppEnv>()
  .post('/sign-up', validate('json', SignUpBody), async (c) => ok(c, await signUp(c.var.db, c.req.valid('json'), authContext(c))))
  .post('/sign-in', validate('json', SignInBody), async (c) => {
    const { accessToken, refreshToken, userId } = await signIn(c.var.db, c.req.valid('json'), authContext(c))
    return ok(c, { accessToken, refreshToken, userId })
  })
  .post('/refresh', validate('json', RefreshBody), async (c) => {
    const { accessToken, refreshToken, email, ipAddress } = await refreshTokens(c.var.db, c.req.valid('json'), authContext(c))
    return ok(c, { accessToken, refreshToken, email, ipAddress })
  })
  .put('/logout', validate('json', LogoutBody), async (c) => {
    await logout(c.var.db, c.req.valid('json').refreshToken)
    return ok(c, {})
  })
  /** Spec §2 /user/login form: sets the encrypted session cookie and goes to `callback` (own-site paths only). */
  .post('/web/sign-in', async (c) => {
    assertSameOrigin(c)
    const form = SignInForm.safeParse(await c.req.parseBody().catch(() => null))
    const callback = safeCallback(form.success ? form.data.callback : undefined)
    if (!form.success) return c.redirect(loginWithError('INVALID_PARAMETER', callback), 303)
    try {
      const pair = await signIn(c.var.db, form.data, authContext(c))
      setCookie(c, SESSION_COOKIE, await sealSession(await sessionKeys(), pair), sessionCookieOptions(c.req.url, pair.refreshToken.expiredAt))
      return c.redirect(callback, 303)
    } catch (e) {
      if (e instanceof AppError && e.status < 500) return c.redirect(loginWithError(e.code, callback), 303)
      throw e
    }
  })
  /** Web logout: the family is revoked server-side (ASVS 7.4.1) and the cookie cleared. */
  .post('/web/logout', async (c) => {
    assertSameOrigin(c)
    const web = await openSession(await sessionKeys(), getCookie(c, SESSION_COOKIE))
    if (web) await logout(c.var.db, web.refreshToken.value)
    deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
    return c.redirect('/', 303)
  })
