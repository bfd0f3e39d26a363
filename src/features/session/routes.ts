/** Route rules of spec §2 that decide, before any page runs, where a visitor may go. */

export const LOGIN_ROUTE = '/user/login'
const LOGIN_ERROR_ROUTE = '/callback/login-error'
/** Cookie holding the web session (tokens); its contents belong to the session service. */
export const SESSION_COOKIE = 'wt_session'
/** Spec §2: cleared when a guest is sent to the login route. */
export const LOGIN_REDIRECT_CLEARED_COOKIES = ['login-callback-finished', 'is-sign-up'] as const

/** Spec §6: login is required for coupons, gift box, comments, purchases, library, points, password change, settings. */
const PROTECTED = [
  /^\/gift\/?$/,
  /^\/alarm\/?$/,
  /^\/coupon\/?$/,
  /^\/library(\/.*)?$/,
  /^\/history(\/.*)?$/,
  /^\/setting(\/.*)?$/,
  /^\/user\/changePassword\/?$/,
  /^\/comment\/my\/?$/,
  /^\/qna(\/.*)?$/,
  /^\/roulette\/?$/,
  /^\/transfer\/apply\/(confirm|status)\/?$/,
]

/** Spec §2: pages that skip loading the user. */
const SKIP_USER = new Set([
  '/_/health',
  '/404',
  '/error',
  '/prepare',
  '/callback/login-error',
  '/callback/login-newuser',
  '/callback/logout-success',
])

export function isProtectedPath(path: string): boolean {
  return PROTECTED.some((re) => re.test(path))
}

export function skipsUser(path: string): boolean {
  return SKIP_USER.has(path.length > 1 ? path.replace(/\/$/, '') : path)
}

/**
 * Spec §2: the login URL for a guest heading to `target`: `callback` holds the encoded target path
 * (empty for the login-error route), `porch` is carried over, and there is no redirect (null) when
 * the target already is the login route, so no loop is possible.
 */
export function loginRedirect(target: URL): string | null {
  if (target.pathname.startsWith(LOGIN_ROUTE)) return null
  const params = new URLSearchParams()
  const callbackPath = target.pathname.startsWith(LOGIN_ERROR_ROUTE) ? '' : target.pathname + target.search
  params.set('callback', callbackPath)
  const porch = target.searchParams.get('porch')
  if (porch !== null) params.set('porch', porch)
  return `${LOGIN_ROUTE}?${params.toString()}`
}
