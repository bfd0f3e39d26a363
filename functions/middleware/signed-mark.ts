/**
 * Keeps `wt_signed=1` (SIGNED_MARK, src/features/session/tabs.ts) beside the session cookie: set while the browser
 * holds `wt_session` (or is given one), removed once it holds none (or loses it), so the page script knows whether to
 * load the signed-in reader's header code (issue 40 point 1). Set or taken with every change of the session cookie,
 * and checked again on each page. Outside the session and edge-cache steps: it sees
 * their cookie changes, and a response it marks is never the one the edge cache stored.
 */
import type { MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { SIGNED_MARK } from '../../src/features/session/tabs.ts'
import { PERSONAL } from '../../src/lib/cache.ts'

/** As long as a refresh token (the session cookie's own life). */
const MARK_SECONDS = 30 * 86_400

export const signedMark: MiddlewareHandler = async (c, next) => {
  await next()
  const given = c.res.headers.getSetCookie().find((h) => h.startsWith(`${SESSION_COOKIE}=`))
  // beyond a session cookie change, only pages are marked: images, scripts and API answers keep their caching
  if (!given && !c.res.headers.get('content-type')?.startsWith('text/html')) return
  const held = given ? !/^[^=]+=;|;\s*max-age=0\b/i.test(given) : getCookie(c, SESSION_COOKIE) !== undefined
  const marked = getCookie(c, SIGNED_MARK) === '1'
  if (held === marked && !given) return
  const secure = new URL(c.req.url).protocol === 'https:'
  if (held) setCookie(c, SIGNED_MARK, '1', { path: '/', sameSite: 'Lax', secure, maxAge: MARK_SECONDS })
  else if (marked) deleteCookie(c, SIGNED_MARK, { path: '/', secure })
  else return
  c.header('Cache-Control', PERSONAL)
}
