/**
 * Session service shapes (docs/API.md "Session service", spec §7/§8): what `/api/auth` answers in NextAuth's wire
 * format. Pure: origin and edition data are arguments.
 */
import { z } from 'zod'
import { LOGIN_ROUTE } from './routes.ts'

/** Spec §9: the auth base path. */
const AUTH_BASE_PATH = '/api/auth'

/** NextAuth `GET providers` entry. */
export type ProviderEntry = { id: string; name: string; type: 'credentials' | 'oauth'; signinUrl: string; callbackUrl: string }

const PROVIDER_NAMES: Record<string, string> = {
  credentials: 'Credentials',
  google: 'Google',
  facebook: 'Facebook',
  twitter: 'Twitter',
  apple: 'Apple',
}

/**
 * `GET providers`: credentials always, then the edition's OAuth providers (edition.loginProviders); an OAuth
 * provider's callback is the API's own route `/api/v1/auth/oauth/{id}/callback`.
 */
export function providersFor(origin: string, loginProviders: readonly string[]): Record<string, ProviderEntry> {
  const out: Record<string, ProviderEntry> = {
    credentials: {
      id: 'credentials',
      name: PROVIDER_NAMES.credentials!,
      type: 'credentials',
      signinUrl: `${origin}${AUTH_BASE_PATH}/signin/credentials`,
      callbackUrl: `${origin}${AUTH_BASE_PATH}/callback/credentials`,
    },
  }
  for (const id of loginProviders) {
    out[id] = {
      id,
      name: PROVIDER_NAMES[id] ?? id,
      type: 'oauth',
      signinUrl: `${origin}${AUTH_BASE_PATH}/signin/${id}`,
      callbackUrl: `${origin}/api/v1/auth/oauth/${id}/callback`,
    }
  }
  return out
}

/**
 * Spec §8 sign-in result rule: a failure is a url carrying `?error=<CODE>` (the client reads the code from
 * it and then reports url null). Failures go to the login route, keeping the (own-site) callback.
 */
export function failureUrl(origin: string, code: string, callback: string): string {
  return `${origin}${LOGIN_ROUTE}?${new URLSearchParams({ error: code, callback })}`
}

/** Spec §7 `POST _log` by beacon: level, code, details (NextAuth's client logger also sends `metadata`). */
export const ClientLog = z.object({
  level: z.enum(['error', 'warn', 'debug']),
  code: z.string().regex(/^[A-Za-z0-9_]{1,64}$/),
  details: z.string().max(4000).optional(),
  metadata: z.string().max(4000).optional(),
})
