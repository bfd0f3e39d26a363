/**
 * Token policy (docs/ARCHITECTURE.md "Auth and sessions", docs/QUALITY.md ASVS 9.1–9.2, 10.4.5). Pure: the secret,
 * the issuer and the clock are arguments, so the rules are unit-tested in Node and run unchanged in workerd.
 *
 * - Access token: JWT, HS256 only (alg allow-list), `typ` at+jwt, `iss` = `aud` = the edition's siteUrl,
 *   `exp`/`nbf`/`iat`/`sub` required, 15 minutes.
 * - Refresh token: 256-bit random opaque string; only its SHA-256 is stored, grouped in a family; 30 days;
 *   rotated on every use (the rotation itself lives in auth.server.ts).
 * - Keys: one SESSION_SECRET, split by HKDF into an access-token signing key and a cookie encryption key,
 *   so a key of one use never works for the other.
 */
import { SignJWT, jwtVerify, errors } from 'jose'
import type { Platform } from '../../lib/platform.ts'
import { platformClaim } from './app-client.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import { toB64url } from '../../lib/b64url.ts'
import { randomToken } from '../../lib/secrets.ts'
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, cryptoKey, type Token, type TokenKeys } from '../../lib/tokens.ts'
import { BoundedMap } from '../../lib/bounded-map.ts'

/** Spec §4: the access token stays while more than 5 minutes are left, else it is refreshed. */
const REFRESH_WHEN_LEFT_SECONDS = 5 * 60
const ACCESS_TOKEN_ALGORITHMS = ['HS256'] as const
const ACCESS_TOKEN_TYP = 'at+jwt'
/**
 * Two tabs refreshing at once present the same refresh token: the later one finds it rotated a moment ago.
 * A token rotated less than 30 s ago is refused without revoking its family (the other tab holds the new
 * pair); older reuse is a replay and revokes the family (ASVS 10.4.5).
 */
const REFRESH_REUSE_GRACE_SECONDS = 30
/** A shorter secret is refused (NO_SECRET): HS256 wants at least 256 bits of key material. */
export const MIN_SECRET_LENGTH = 32

const encoder = new TextEncoder()
const keyCache = new Map<string, Promise<TokenKeys>>()

/** Derives the access-token and cookie keys from SESSION_SECRET (HKDF-SHA256, one label per use). */
export function deriveKeys(secret: string): Promise<TokenKeys> {
  let keys = keyCache.get(secret)
  if (!keys) {
    keys = (async () => {
      const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveBits'])
      const derive = async (info: string) =>
        new Uint8Array(
          await crypto.subtle.deriveBits(
            { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('webtoon-store/v1'), info: encoder.encode(info) },
            base,
            256,
          ),
        )
      return {
        access: await derive('access-token HS256'),
        cookie: await derive('wt_session A256GCM'),
        csrf: await derive('csrf HMAC-SHA256'),
        oauth: await derive('wt_oauth A256GCM'),
      }
    })()
    keyCache.set(secret, keys)
  }
  return keys
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000)
const iso = (s: number) => new Date(s * 1000).toISOString()

/**
 * Signs a 15-minute access token for `userId`; `issuer` is the edition's siteUrl (also the audience).
 * `sessionVersion` (claim `sv`): the account's `users.session_version` at issue; once it moves on (password
 * change or reset, withdrawal) the token is refused at once (ASVS 7.4.3). `sessionId` (claim `sid`): the
 * session (refresh-token family) it belongs to; once that session is logged out the token is refused (ASVS 7.4.1).
 * `platform` (claim `pf`, absent for WEB): the app the session was signed in from, fixed at sign-in (see app-client.ts).
 */
export async function signAccessToken(
  keys: TokenKeys,
  userId: number,
  issuer: string,
  now: Date = new Date(),
  sessionVersion = 0,
  sessionId = '',
  platform: Platform = 'WEB',
): Promise<Token> {
  const iat = seconds(now)
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS
  const value = await new SignJWT(
    platform === 'WEB' ? { sv: sessionVersion, sid: sessionId } : { sv: sessionVersion, sid: sessionId, pf: platform },
  )
    .setProtectedHeader({ alg: 'HS256', typ: ACCESS_TOKEN_TYP })
    .setIssuer(issuer)
    .setAudience(issuer)
    .setSubject(String(userId))
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(exp)
    .setJti(randomToken(16))
    .sign(await cryptoKey(keys.access, 'HS256'))
  return { value, expiredAt: iso(exp) }
}

export type AccessCheck =
  /**
   * `sessionVersion`: the token's `sv` claim (0 when absent: tokens signed before the claim existed); `sessionId`:
   * its `sid` claim ('' when absent: such a token belongs to no open session); `platform`: its `pf` claim (WEB when absent).
   */
  | { ok: true; userId: number; expiresAt: Date; sessionVersion: number; sessionId: string; platform: Platform }
  /** `expired`: well signed but past `exp` (the client refreshes, spec §4 NEED_TO_REFRESH); `invalid`: anything else. */
  | { ok: false; reason: 'expired' | 'invalid' }

/**
 * Tokens found good, per key set and by issuer and token: what each says, and its `nbf` and `exp` (seconds). A reader's
 * every request sends the same token for 15 minutes; its signature is checked once per isolate (jose's checks were 5 %
 * of a sale's worker time).
 */
const verified = new WeakMap<TokenKeys, BoundedMap<string, { check: AccessCheck; nbf: number; exp: number }>>()

/**
 * Verifies an access token: HS256 only (so `none`, RS/ES and confused algorithms fail), exact `typ`,
 * `iss`, `aud`, and `exp`/`nbf` against `now`. `graceSeconds` widens the clock check only (used by
 * refresh, which accepts an expired access token of the same user). A token verified before is taken as it was
 * while `now` is within its `nbf` and `exp` as jose reads them (`exp` past once `now` − grace reaches it).
 */
export async function verifyAccessToken(
  keys: TokenKeys,
  token: string,
  issuer: string,
  now: Date = new Date(),
  graceSeconds = 0,
): Promise<AccessCheck> {
  let known = verified.get(keys)
  if (!known) verified.set(keys, (known = new BoundedMap(10_000)))
  const id = `${issuer} ${token}`
  const at = seconds(now)
  const kept = known.get(id)
  if (kept && kept.nbf <= at + graceSeconds && at - graceSeconds < kept.exp) return kept.check
  try {
    const { payload } = await jwtVerify(token, await cryptoKey(keys.access, 'HS256'), {
      algorithms: [...ACCESS_TOKEN_ALGORITHMS],
      typ: ACCESS_TOKEN_TYP,
      issuer,
      audience: issuer,
      currentDate: now,
      clockTolerance: graceSeconds,
      requiredClaims: ['exp', 'nbf', 'iat', 'sub'],
    })
    const userId = Number(payload.sub)
    const sessionVersion = payload.sv ?? 0
    const sessionId = payload.sid ?? ''
    if (!Number.isSafeInteger(userId) || userId <= 0 || !Number.isSafeInteger(sessionVersion) || typeof sessionId !== 'string')
      return { ok: false, reason: 'invalid' }
    const check: AccessCheck = {
      ok: true,
      userId,
      expiresAt: new Date(payload.exp! * 1000),
      sessionVersion: sessionVersion as number,
      sessionId,
      platform: platformClaim(payload.pf),
    }
    known.set(id, { check, nbf: payload.nbf!, exp: payload.exp! })
    return check
  } catch (e) {
    return { ok: false, reason: e instanceof errors.JWTExpired ? 'expired' : 'invalid' }
  }
}

/** Spec §4: true when the access token has at most 5 minutes left (refresh now). */
export function needsRefresh(expiresAt: Date | string, now: Date = new Date()): boolean {
  return new Date(expiresAt).getTime() - now.getTime() <= REFRESH_WHEN_LEFT_SECONDS * SECOND_MS
}

/** True when a refresh token rotated at `rotatedAt` is reused within the grace window (no family revocation). */
export function isWithinReuseGrace(rotatedAt: string | Date, now: Date = new Date()): boolean {
  const age = now.getTime() - new Date(rotatedAt).getTime()
  return age >= 0 && age < REFRESH_REUSE_GRACE_SECONDS * SECOND_MS
}

/**
 * A new refresh token with its expiry: the reader's id, a dot and 256 random bits (base64url). The id is no secret
 * (the sign-in answer gives it); it names the reader's object, where the token's hash is kept, so a logout that sends
 * only the token finds it (issue 38). Tokens issued before have no id.
 */
export function newRefreshToken(userId: number, now: Date = new Date()): Token {
  return { value: `${userId}.${randomToken(32)}`, expiredAt: isoAfter(now, REFRESH_TOKEN_TTL_SECONDS * SECOND_MS) }
}

const REFRESH_TOKEN_SHAPE = /^(?:([1-9][0-9]{0,14})\.)?[A-Za-z0-9_-]{43}$/

/** True for a string that can be one of our refresh tokens (with or without its reader id); cheap pre-check. */
export function isRefreshTokenShape(token: string): boolean {
  return REFRESH_TOKEN_SHAPE.test(token)
}

/** The reader a refresh token names, or null (not our shape, or issued before tokens named their reader). */
export function refreshTokenReader(token: string): number | null {
  const id = REFRESH_TOKEN_SHAPE.exec(token)?.[1]
  return id === undefined ? null : Number(id)
}

/** What is stored for a refresh token: SHA-256, base64url. Only the holder knows the token itself. */
export async function hashToken(token: string): Promise<string> {
  return toB64url(await crypto.subtle.digest('SHA-256', encoder.encode(token)))
}
