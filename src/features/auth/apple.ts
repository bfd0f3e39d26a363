/**
 * JP app → web Sign in with Apple migrate (spec §7 POST /auth/sign-in/jp/apple/migrate; the design is on the
 * handler in functions/api/auth.ts). Pure: the key set and clock are arguments; D1 lives in apple.server.ts.
 */
import { errors, jwtVerify, type JWTVerifyGetKey } from 'jose'
import { z } from 'zod'
import { ID_TOKEN_ALGORITHMS } from './oauth.ts'

/** One key: the Apple identity token (a JWT); the authorization code the apps send along is ignored. */
const KeyRequest = z.object({ identityToken: z.string().max(4096), authorizationCode: z.string().max(2048).optional() })
export const AppleMigrateBody = z.object({ appKeyRequest: KeyRequest, webKeyRequest: KeyRequest })
export type AppleMigrateBody = z.infer<typeof AppleMigrateBody>

/** The app's Apple identity in `identities.provider`; the web's is the OAuth provider id `apple`. */
export const APPLE_APP_PROVIDER = 'apple_app'
/** The app's client id (bundle id), the audience of the app key's token; the web key's is OAUTH_APPLE_CLIENT_ID. */
export const APPLE_APP_CLIENT_ID_BINDING = 'OAUTH_APPLE_APP_CLIENT_ID'

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/** The key set could not be had (network, timeout, not a key set): the provider's failure, not the token's. */
function isKeySetFailure(e: unknown): boolean {
  return (
    !(e instanceof errors.JOSEError) || e instanceof errors.JWKSTimeout || e instanceof errors.JWKSInvalid || e.code === 'ERR_JOSE_GENERIC'
  )
}

/**
 * The `sub` of a genuine identity token: signed by a key of the set with an allowed asymmetric algorithm
 * (`none` and HS* refused), `iss` exactly the issuer, `aud` the expected client id, `exp`/`iat` present and
 * `exp` not past (60 s leeway). Null for anything else; throws only when the key set itself is unavailable.
 */
export async function verifyAppleIdentityToken(
  token: string,
  keys: JWTVerifyGetKey,
  expected: { issuer: string; audience: string; now?: Date },
): Promise<string | null> {
  if (!JWT_SHAPE.test(token)) return null
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: [...ID_TOKEN_ALGORITHMS],
      issuer: expected.issuer,
      audience: expected.audience,
      currentDate: expected.now ?? new Date(),
      clockTolerance: 60,
      requiredClaims: ['sub', 'exp', 'iat'],
    })
    return typeof payload.sub === 'string' && payload.sub !== '' && payload.sub.length <= 255 ? payload.sub : null
  } catch (e) {
    if (isKeySetFailure(e)) throw e
    return null
  }
}

/** The live accounts holding the web key's and the app key's identity. */
export type MigrateFacts = { webUserId: number | null; appUserId: number | null }
export type MigrateDecision = { kind: 'signin'; userId: number } | { kind: 'migrate'; userId: number } | { kind: 'create' }

/** Web key known → that account signs in; else app key known → the web key is linked to it; else a new account. */
export function decideMigrate(facts: MigrateFacts): MigrateDecision {
  if (facts.webUserId !== null) return { kind: 'signin', userId: facts.webUserId }
  if (facts.appUserId !== null) return { kind: 'migrate', userId: facts.appUserId }
  return { kind: 'create' }
}
