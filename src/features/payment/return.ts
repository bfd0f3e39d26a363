/**
 * The shop's way back (issue 25 §2, the low-balance path): the rent-or-buy choice sends a short reader to
 * `/shop?return=<path>` (`shopHref`, shop-link.ts); the shop keeps that path in a cookie (the checkout's provider only knows
 * `/shop/result`) and the result page offers it as the main action once paid. Only a same-site relative path
 * is kept (spec §2/§8 callback rule, `safeCallback`): an absolute or protocol-relative URL, the shop itself or
 * the API give null, so the shop is never an open redirect.
 */
import { safeCallback } from '../../lib/redirect.ts'

/** Cookie holding the validated path, sent to `/shop` and `/shop/result` only. */
export const SHOP_RETURN_COOKIE = 'shop_return'
/** How long the way back is kept (a checkout abandoned for longer starts over). */
export const SHOP_RETURN_SECONDS = 3600

/** The validated place to return to after paying, or null. */
export function shopReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 512) return null
  const path = safeCallback(raw)
  if (path === '/' || path !== raw || /^\/(shop|api)(\/|\?|#|$)/.test(path)) return null
  return path
}
