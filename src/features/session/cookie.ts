/**
 * The web session cookie `wt_session` (docs/ARCHITECTURE.md "Auth and sessions", ASVS 3.3): the token pair,
 * encrypted (JWE `dir` + A256GCM with the HKDF cookie key from SESSION_SECRET), HttpOnly, SameSite=Lax,
 * Secure on https, Path=/, kept as long as the refresh token. Pure: keys and clock are arguments.
 */
import { EncryptJWT, jwtDecrypt } from 'jose'
import { cryptoKey, type Token, type TokenKeys } from '../../lib/tokens.ts'

/** What the cookie carries: both tokens with their expiries (spec §3 client session state). */
export type WebSession = { accessToken: Token; refreshToken: Token }

export async function sealSession(keys: TokenKeys, session: WebSession): Promise<string> {
  return new EncryptJWT({
    at: session.accessToken.value,
    atExp: session.accessToken.expiredAt,
    rt: session.refreshToken.value,
    rtExp: session.refreshToken.expiredAt,
  })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setExpirationTime(Math.floor(new Date(session.refreshToken.expiredAt).getTime() / 1000))
    .encrypt(await cryptoKey(keys.cookie, 'A256GCM'))
}

/** The session in a cookie value, or null when it is absent, forged, tampered with or past its refresh expiry. */
export async function openSession(keys: TokenKeys, value: string | undefined, now: Date = new Date()): Promise<WebSession | null> {
  if (!value || value.length > 4096) return null
  try {
    const { payload } = await jwtDecrypt(value, await cryptoKey(keys.cookie, 'A256GCM'), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      currentDate: now,
    })
    const { at, atExp, rt, rtExp } = payload
    if (typeof at !== 'string' || typeof atExp !== 'string' || typeof rt !== 'string' || typeof rtExp !== 'string') return null
    return { accessToken: { value: at, expiredAt: atExp }, refreshToken: { value: rt, expiredAt: rtExp } }
  } catch {
    return null
  }
}

/** Cookie attributes for the session cookie; Secure whenever the site is served over https. */
export function sessionCookieOptions(requestUrl: string, refreshExpiredAt?: string) {
  const secure = new URL(requestUrl).protocol === 'https:'
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax' as const,
    secure,
    ...(refreshExpiredAt ? { expires: new Date(refreshExpiredAt) } : {}),
  }
}
