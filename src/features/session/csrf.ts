/**
 * Double-submit CSRF token of the session service (`/api/auth`, NextAuth wire format; ASVS 3.5): GET csrf
 * hands out `{csrfToken}` and sets the cookie `wt_csrf` = `<token>|<HMAC(token)>`; a POST is accepted only
 * when its `csrfToken` field equals the token of a cookie whose MAC is ours (a cookie planted by a sibling
 * subdomain cannot be forged without SESSION_SECRET). Pure: the key is an argument.
 */
import { toB64url } from '../../lib/b64url.ts'
import { randomToken } from '../../lib/secrets.ts'

export const CSRF_COOKIE = 'wt_csrf'

const encoder = new TextEncoder()

async function mac(key: Uint8Array, token: string): Promise<string> {
  const k = await crypto.subtle.importKey('raw', new Uint8Array(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return toB64url(await crypto.subtle.sign('HMAC', k, encoder.encode(`csrf:${token}`)))
}

/** A new token (256 random bits) and the cookie value that carries it. */
export async function newCsrf(key: Uint8Array): Promise<{ token: string; cookie: string }> {
  const token = randomToken(32)
  return { token, cookie: `${token}|${await mac(key, token)}` }
}

/** The token of a genuine cookie, or null for an absent, malformed or forged one. */
export async function csrfFromCookie(key: Uint8Array, cookie: string | undefined): Promise<string | null> {
  if (!cookie || cookie.length > 200) return null
  const [token, tag, ...rest] = cookie.split('|')
  if (!token || !tag || rest.length > 0) return null
  return equalText(await mac(key, token), tag) ? token : null
}

/** True when the submitted token is the cookie's (constant time). */
export async function csrfMatches(key: Uint8Array, cookie: string | undefined, submitted: unknown): Promise<boolean> {
  const token = await csrfFromCookie(key, cookie)
  return token !== null && typeof submitted === 'string' && equalText(token, submitted)
}

function equalText(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
