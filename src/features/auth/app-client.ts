/**
 * Which platform a sign-in comes from (issue 20: the platform is not the client's word). The platform that rules
 * check (app-only coupons and products, spec §3) is fixed in the session at sign-in: an app platform only when the
 * request presents that app's client credential — `X-Client-Id` and `X-Client-Secret` equal to the secrets
 * APP_<PLATFORM>_CLIENT_ID and APP_<PLATFORM>_CLIENT_SECRET, as OAuth clients authenticate — otherwise WEB,
 * whatever an X-Platform header says. Pure: the variables are an argument.
 */
import { PLATFORMS, type Platform } from '../../lib/platform.ts'
import { constantTimeEqual } from '../../lib/secrets.ts'

/** The platforms that are apps (each with its own client credential). */
const APP_PLATFORMS = PLATFORMS.filter((p) => p !== 'WEB')

export function clientPlatform(clientId: string | undefined, clientSecret: string | undefined, vars: Record<string, unknown>): Platform {
  if (!clientId || !clientSecret || clientId.length > 256 || clientSecret.length > 256) return 'WEB'
  for (const platform of APP_PLATFORMS) {
    const id = vars[`APP_${platform}_CLIENT_ID`]
    const secret = vars[`APP_${platform}_CLIENT_SECRET`]
    if (typeof id !== 'string' || typeof secret !== 'string' || id.length === 0 || secret.length < 16) continue
    // the secret is compared in constant time whatever the id, so timing tells nothing about either
    const secretOk = constantTimeEqual(clientSecret, secret)
    if (constantTimeEqual(clientId, id) && secretOk) return platform
  }
  return 'WEB'
}

/** The platform claim of an access token (`pf`): a known app platform, else WEB. */
export function platformClaim(value: unknown): Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value) ? (value as Platform) : 'WEB'
}
