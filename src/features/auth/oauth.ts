/**
 * OAuth sign-in rules (issue 3 item 2, docs/ARCHITECTURE.md "Auth and sessions"). Pure: the bindings, keys, key
 * sets and clock are arguments; the network and D1 live in oauth.server.ts.
 *
 * - Providers google, facebook, twitter, apple, offered per edition (edition.loginProviders) and only when
 *   configured: `OAUTH_<P>_CLIENT_ID` (+ `_CLIENT_SECRET`) and endpoints, either an OpenID issuer
 *   (`OAUTH_<P>_ISSUER`, discovery + ID token) or explicit `_AUTHORIZE_URL`/`_TOKEN_URL`/`_USERINFO_URL`
 *   (`_JWKS_URL`, `_SCOPES`, `_RESPONSE_MODE` optional). Google and Apple default to their public issuers,
 *   Facebook and Twitter (OAuth 2.0 without OpenID) to their public endpoints.
 * - The flow's secrets (state, PKCE S256 verifier, nonce, callback) ride in an encrypted HttpOnly cookie valid
 *   10 minutes (`__Host-wt_oauth` on https, so a sibling site cannot plant one; `wt_oauth` on http localhost);
 *   the state is also recorded on the server and spent by the first callback that presents it.
 * - RFC 9207: the authorization response's `iss` must be the provider's issuer where the provider sends it.
 * - Account rule: an identity is found by the provider's subject only (each provider configuration has one
 *   issuer, so provider + subject is issuer + subject). A new identity whose e-mail belongs to a live account is
 *   refused (AccountNotLinkedError) until the account's owner signs in and links the provider from /setting;
 *   else a new account is created (the e-mail kept only when the provider verified it).
 */
import { EncryptJWT, jwtDecrypt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { isValidEmail } from './auth.ts'
import { normaliseEmail } from '../../lib/email.ts'
import { safeCallback } from '../../lib/redirect.ts'

const OAUTH_PROVIDERS = ['google', 'facebook', 'twitter', 'apple'] as const
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number]
/** How the pages name each provider (a brand: the same in every language). */
export const OAUTH_PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  google: 'Google',
  facebook: 'Facebook',
  twitter: 'X (Twitter)',
  apple: 'Apple',
}
export const OAUTH_BASE_PATH = '/api/v1/auth/oauth'
const OAUTH_STATE_COOKIE = 'wt_oauth'
/** The state cookie's name: `__Host-` prefixed (Secure, Path=/, no Domain) whenever the site is served over https. */
export function oauthStateCookieName(secure: boolean): string {
  return secure ? `__Host-${OAUTH_STATE_COOKIE}` : OAUTH_STATE_COOKIE
}
/** The authorization round trip must finish within 10 minutes. */
export const OAUTH_STATE_TTL_SECONDS = 10 * 60
/** ID token signature algorithms accepted (asymmetric only: `none` and HS* with a public key are refused). */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const

const LOGIN_SUCCESS_ROUTE = '/callback/login-success'
const LOGIN_NEWUSER_ROUTE = '/callback/login-newuser'
const LOGIN_ERROR_ROUTE = '/callback/login-error'

export type OAuthProviderConfig = {
  id: OAuthProviderId
  clientId: string
  clientSecret: string | null
  /** OpenID issuer: discovery fills the missing endpoints, and an ID token is required and verified. */
  issuer: string | null
  authorizeUrl: string | null
  tokenUrl: string | null
  userinfoUrl: string | null
  jwksUrl: string | null
  scopes: string[]
  /** Apple answers with a cross-site POST (form_post) when e-mail or name are asked for. */
  responseMode: 'query' | 'form_post'
}

type Defaults = Partial<Pick<OAuthProviderConfig, 'issuer' | 'authorizeUrl' | 'tokenUrl' | 'userinfoUrl'>> & {
  scopes: string[]
  responseMode?: 'form_post'
}
const DEFAULTS: Record<OAuthProviderId, Defaults> = {
  google: { issuer: 'https://accounts.google.com', scopes: ['openid', 'email', 'profile'] },
  apple: { issuer: 'https://appleid.apple.com', scopes: ['openid', 'email', 'name'], responseMode: 'form_post' },
  facebook: {
    authorizeUrl: 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v21.0/oauth/access_token',
    userinfoUrl: 'https://graph.facebook.com/me?fields=id,name,email',
    scopes: ['email', 'public_profile'],
  },
  twitter: {
    authorizeUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com/2/oauth2/token',
    userinfoUrl: 'https://api.x.com/2/users/me',
    scopes: ['users.read', 'tweet.read'],
  },
}

export function isOAuthProvider(id: string): id is OAuthProviderId {
  return (OAUTH_PROVIDERS as readonly string[]).includes(id)
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null
  } catch {
    return null
  }
}

/**
 * The provider's configuration from the bindings, or null when it is not configured (no client id, or
 * neither an issuer nor authorize + token endpoints): such a provider is not offered at all.
 */
export function oauthProviderConfig(bindings: Record<string, unknown>, id: OAuthProviderId): OAuthProviderConfig | null {
  const key = (name: string) => bindings[`OAUTH_${id.toUpperCase()}_${name}`]
  const clientId = key('CLIENT_ID')
  if (typeof clientId !== 'string' || clientId === '') return null
  const d = DEFAULTS[id]
  const explicit = {
    authorizeUrl: httpUrl(key('AUTHORIZE_URL')),
    tokenUrl: httpUrl(key('TOKEN_URL')),
    userinfoUrl: httpUrl(key('USERINFO_URL')),
  }
  const configuredIssuer = httpUrl(key('ISSUER'))
  // explicit endpoints without an issuer replace the defaults entirely (OAuth 2.0 without OpenID)
  const plain = configuredIssuer === null && explicit.authorizeUrl !== null && explicit.tokenUrl !== null
  const issuer = configuredIssuer ?? (plain ? null : (d.issuer ?? null))
  const authorizeUrl = explicit.authorizeUrl ?? (plain || configuredIssuer ? null : (d.authorizeUrl ?? null))
  const tokenUrl = explicit.tokenUrl ?? (plain || configuredIssuer ? null : (d.tokenUrl ?? null))
  const userinfoUrl = explicit.userinfoUrl ?? (plain || configuredIssuer ? null : (d.userinfoUrl ?? null))
  if (issuer === null && (authorizeUrl === null || tokenUrl === null)) return null
  // an issuer configured for a provider whose default is plain OAuth 2.0 speaks OpenID: its scopes too
  const defaultScopes = issuer !== null && !d.issuer ? ['openid', 'email', 'profile'] : d.scopes
  const scopes =
    typeof key('SCOPES') === 'string' && key('SCOPES') !== ''
      ? String(key('SCOPES'))
          .split(/[\s,]+/)
          .filter(Boolean)
      : defaultScopes
  const mode = key('RESPONSE_MODE')
  const responseMode =
    mode === 'query' || mode === 'form_post' ? mode : configuredIssuer === null && !plain && d.responseMode ? d.responseMode : 'query'
  const secret = key('CLIENT_SECRET')
  return {
    id,
    clientId,
    clientSecret: typeof secret === 'string' && secret !== '' ? secret : null,
    issuer,
    authorizeUrl,
    tokenUrl,
    userinfoUrl,
    jwksUrl: httpUrl(key('JWKS_URL')),
    scopes,
    responseMode,
  }
}

/** The edition's providers (in its order) that are configured: the only ones the login page and `providers` offer. */
export function configuredProviders(bindings: Record<string, unknown>, loginProviders: readonly string[]): OAuthProviderConfig[] {
  return loginProviders
    .filter(isOAuthProvider)
    .map((id) => oauthProviderConfig(bindings, id))
    .filter((c): c is OAuthProviderConfig => c !== null)
}

/** The redirect URI registered at the provider for this site. */
export function oauthRedirectUri(origin: string, id: OAuthProviderId): string {
  return `${origin}${OAUTH_BASE_PATH}/${id}/callback`
}

/** The entry point of the flow for `callback` (an own-site path). */
export function oauthStartPath(id: OAuthProviderId, callback: string): string {
  const target = safeCallback(callback)
  return `${OAUTH_BASE_PATH}/${id}${target === '/' ? '' : `?${new URLSearchParams({ callback: target })}`}`
}

/**
 * What the state cookie keeps between the redirect to the provider and its callback. `link`: the signed-in
 * account that asked to link this provider from /setting (null: a sign-in).
 */
export type OAuthState = {
  provider: OAuthProviderId
  state: string
  codeVerifier: string
  nonce: string
  callback: string
  link: number | null
}

export async function sealOAuthState(key: Uint8Array, s: OAuthState, now: Date = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new EncryptJWT({ p: s.provider, s: s.state, v: s.codeVerifier, n: s.nonce, cb: s.callback, l: s.link })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', typ: 'oauth-state' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + OAUTH_STATE_TTL_SECONDS)
    .encrypt(key)
}

/** The state of a genuine, unexpired cookie, or null (absent, forged, tampered with, older than 10 minutes). */
export async function openOAuthState(key: Uint8Array, value: string | undefined, now: Date = new Date()): Promise<OAuthState | null> {
  if (!value || value.length > 2048) return null
  try {
    const { payload, protectedHeader } = await jwtDecrypt(value, key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      currentDate: now,
      requiredClaims: ['exp'],
    })
    if (protectedHeader.typ !== 'oauth-state') return null
    const { p, s, v, n, cb, l } = payload
    if (
      typeof p !== 'string' ||
      !isOAuthProvider(p) ||
      typeof s !== 'string' ||
      typeof v !== 'string' ||
      typeof n !== 'string' ||
      typeof cb !== 'string'
    )
      return null
    const link = typeof l === 'number' && Number.isSafeInteger(l) && l > 0 ? l : null
    return { provider: p, state: s, codeVerifier: v, nonce: n, callback: safeCallback(cb), link }
  } catch {
    return null
  }
}

function equalText(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/**
 * Who must have answered (RFC 9207): `issuer`, the provider's OpenID issuer (null: a plain OAuth 2.0 provider,
 * nothing to compare); `required`: its metadata says it always sends `iss`.
 */
export type ExpectedIssuer = { issuer: string | null; required: boolean }

/**
 * The provider's redirect back, checked before any exchange: an `error` (e.g. access_denied: consent
 * refused), no or a foreign state cookie, a state that differs from the cookie's, an `iss` that is not the
 * provider's issuer (mix-up, RFC 9207) or missing where the provider always sends it, or no code → refused.
 */
export function checkCallback(
  provider: OAuthProviderId,
  params: { code?: string | null; state?: string | null; error?: string | null; iss?: string | null },
  stored: OAuthState | null,
  expected: ExpectedIssuer = { issuer: null, required: false },
): { code: string; stored: OAuthState } | null {
  if (params.error) return null
  if (!stored || stored.provider !== provider) return null
  if (typeof params.state !== 'string' || !equalText(params.state, stored.state)) return null
  if (expected.issuer !== null) {
    if (typeof params.iss === 'string' ? params.iss !== expected.issuer : expected.required) return null
  }
  if (typeof params.code !== 'string' || params.code === '' || params.code.length > 2048) return null
  return { code: params.code, stored }
}

/**
 * OpenID Connect Core 3.1.3.7: the ID token's signature with the provider's keys (asymmetric allow-list),
 * `iss` exactly the issuer, `aud` containing our client id (and `azp` ours when there are several
 * audiences), `exp`/`iat` present and `exp` in the future, `nonce` the one we sent.
 */
export async function verifyIdToken(
  idToken: string,
  keys: JWTVerifyGetKey,
  expected: { issuer: string; clientId: string; nonce: string; now?: Date },
): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(idToken, keys, {
      algorithms: [...ID_TOKEN_ALGORITHMS],
      issuer: expected.issuer,
      audience: expected.clientId,
      currentDate: expected.now ?? new Date(),
      clockTolerance: 60,
      requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
    })
    if (typeof payload.nonce !== 'string' || !equalText(payload.nonce, expected.nonce)) return null
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) return null
    return payload
  } catch {
    return null
  }
}

/** Who the provider says the reader is. */
export type OAuthProfile = { subject: string; email: string | null; emailVerified: boolean; name: string | null }

/**
 * The profile from ID token claims and/or a userinfo answer (OpenID `sub`, Facebook `id`, Twitter
 * `data.id`). An e-mail counts as verified only with `email_verified` true (Apple sends "true").
 */
export function profileFromClaims(claims: Record<string, unknown>): OAuthProfile | null {
  const data = claims.data && typeof claims.data === 'object' ? (claims.data as Record<string, unknown>) : {}
  const rawSubject = claims.sub ?? claims.id ?? data.id
  const subject = typeof rawSubject === 'number' ? String(rawSubject) : rawSubject
  if (typeof subject !== 'string' || subject === '' || subject.length > 255) return null
  const email = typeof claims.email === 'string' && isValidEmail(normaliseEmail(claims.email)) ? normaliseEmail(claims.email) : null
  const verified = claims.email_verified === true || claims.email_verified === 'true'
  const rawName = claims.name ?? data.name
  return { subject, email, emailVerified: email !== null && verified, name: typeof rawName === 'string' ? rawName.slice(0, 100) : null }
}

/** What D1 says about the profile, for the account rule. */
export type AccountFacts = {
  /** The live account already holding this provider identity. */
  identityUserId: number | null
  /** The live account with the profile's e-mail. */
  emailOwner: { id: number } | null
  /** The profile's e-mail belongs to an account withdrawn less than 30 days ago. */
  emailBlocked: boolean
}

export type AccountDecision =
  { kind: 'signin'; userId: number } | { kind: 'create'; email: string | null } | { kind: 'refuse'; code: ErrorCode }

/** The account rule (see the module comment). */
export function decideAccount(profile: OAuthProfile, facts: AccountFacts): AccountDecision {
  if (facts.identityUserId !== null) return { kind: 'signin', userId: facts.identityUserId }
  // never linked by e-mail (a provider's word on an address is not the account owner's consent)
  if (profile.email !== null && facts.emailOwner !== null) return { kind: 'refuse', code: 'AccountNotLinkedError' }
  if (profile.emailVerified && facts.emailBlocked) return { kind: 'refuse', code: 'DELETED_USER' }
  return { kind: 'create', email: profile.emailVerified ? profile.email : null }
}

/** Where the browser goes after a successful sign-in: login-newuser for a new account, else login-success. */
export function oauthSuccessPath(isNewUser: boolean, callback: string): string {
  const target = safeCallback(callback)
  return `${isNewUser ? LOGIN_NEWUSER_ROUTE : LOGIN_SUCCESS_ROUTE}${target === '/' ? '' : `?${new URLSearchParams({ callback: target })}`}`
}

export function oauthErrorPath(code: ErrorCode): string {
  return `${LOGIN_ERROR_ROUTE}?${new URLSearchParams({ error: code })}`
}
