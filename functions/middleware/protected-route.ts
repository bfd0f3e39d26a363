import { createMiddleware } from 'hono/factory'
import { getCookie, deleteCookie } from 'hono/cookie'
import { isProtectedPath, loginRedirect, LOGIN_REDIRECT_CLEARED_COOKIES, SESSION_COOKIE } from '../../src/features/session/routes.ts'
import type { AppEnv } from '../lib/env.ts'

/**
 * Spec §2: a guest opening a protected page goes to the login route with the encoded callback;
 * the two sign-in cookies are cleared on the way. A session cookie counts as logged in here; the
 * session service validates it and the API refuses a bad one.
 */
export const protectedRoute = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next()
  // c.req.path before any URL is parsed: most pages are not protected, and parsing the URL is most of this step's cost
  if (!isProtectedPath(c.req.path) || getCookie(c, SESSION_COOKIE)) return next()
  const location = loginRedirect(new URL(c.req.url))
  if (!location) return next()
  for (const name of LOGIN_REDIRECT_CLEARED_COOKIES) deleteCookie(c, name, { path: '/' })
  c.header('Cache-Control', 'no-store')
  return c.redirect(location, 302)
})
