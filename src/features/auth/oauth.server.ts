/**
 * OAuth sign-in on the network and D1 (rules in oauth.ts): OpenID discovery, the authorization URL with
 * state + PKCE (S256) + nonce through `arctic`, the code exchange, the ID token checked against the
 * provider's JWKS (jose), userinfo, then the account rule and a new token pair (ASVS 7.2.4).
 */
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { env } from 'cloudflare:workers'
import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier, generateState } from 'arctic'
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose'
import { accountChanged } from '../age/age.server.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import type { IdentitiesRow, UsersRow } from '../../lib/server/db-types.ts'
import { firstRow } from '../../lib/server/rows.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { isDeletionBlocking } from './auth.ts'
import { issueTokens, sessionKeys, signedInAt, type AuthContext, type TokenPair } from './auth.server.ts'
import { hashToken } from './tokens.ts'
import { randomToken } from '../../lib/secrets.ts'
import {
  OAUTH_STATE_TTL_SECONDS,
  configuredProviders,
  decideAccount,
  oauthProviderConfig,
  oauthRedirectUri,
  profileFromClaims,
  sealOAuthState,
  verifyIdToken,
  type ExpectedIssuer,
  type OAuthProfile,
  type OAuthProviderConfig,
  type OAuthProviderId,
  type OAuthState,
} from './oauth.ts'

const bindings = () => env as unknown as Record<string, unknown>

/** The provider's configuration from the worker's bindings (null: not configured, not offered). */
export function providerConfig(id: OAuthProviderId): OAuthProviderConfig | null {
  return oauthProviderConfig(bindings(), id)
}

/** The edition's configured providers (login page, session service `providers`). */
export function offeredProviders(loginProviders: readonly string[]): OAuthProviderConfig[] {
  return configuredProviders(bindings(), loginProviders)
}

type Endpoints = { issuer: string | null; authorizeUrl: string; tokenUrl: string; userinfoUrl: string | null; jwks: JWTVerifyGetKey | null }

const discoveries = new Map<string, Promise<Record<string, unknown>>>()
const keySets = new Map<string, JWTVerifyGetKey>()

/** OpenID discovery, cached per issuer for the isolate's life (a failure is not cached). */
function discover(issuer: string): Promise<Record<string, unknown>> {
  let doc = discoveries.get(issuer)
  if (!doc) {
    doc = (async () => {
      const res = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } })
      if (!res.ok) throw new Error(`discovery ${res.status}`)
      const body = (await res.json()) as Record<string, unknown>
      // OpenID Discovery 4.3: the document's issuer is exactly the configured one
      if (body.issuer !== issuer) throw new Error('discovery issuer mismatch')
      return body
    })()
    discoveries.set(issuer, doc)
    doc.catch(() => discoveries.delete(issuer))
  }
  return doc
}

function keySet(url: string): JWTVerifyGetKey {
  let keys = keySets.get(url)
  if (!keys) {
    keys = createRemoteJWKSet(new URL(url))
    keySets.set(url, keys)
  }
  return keys
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)

async function endpoints(config: OAuthProviderConfig): Promise<Endpoints> {
  const doc = config.issuer ? await discover(config.issuer) : {}
  const authorizeUrl = config.authorizeUrl ?? str(doc.authorization_endpoint)
  const tokenUrl = config.tokenUrl ?? str(doc.token_endpoint)
  if (!authorizeUrl || !tokenUrl) throw new Error('no endpoints')
  const jwksUrl = config.jwksUrl ?? str(doc.jwks_uri)
  return {
    issuer: config.issuer,
    authorizeUrl,
    tokenUrl,
    userinfoUrl: config.userinfoUrl ?? str(doc.userinfo_endpoint),
    jwks: jwksUrl ? keySet(jwksUrl) : null,
  }
}

/** An OpenID provider's issuer and key set, for ID tokens the apps obtained themselves (the JP Apple migrate). */
export async function providerKeys(config: OAuthProviderConfig): Promise<{ issuer: string; jwks: JWTVerifyGetKey }> {
  const ep = await endpoints(config)
  if (!ep.issuer || !ep.jwks) throw new Error('no issuer or key set')
  return { issuer: ep.issuer, jwks: ep.jwks }
}

const client = (config: OAuthProviderConfig, origin: string) =>
  new OAuth2Client(config.clientId, config.clientSecret, oauthRedirectUri(origin, config.id))

/**
 * Step 1: the provider's authorization URL (state, PKCE S256 challenge, nonce for OpenID providers) and
 * the sealed state cookie value; the state is recorded on the server for its single use. `link`: the
 * signed-in account linking this provider from /setting (null: a sign-in). Any failure (discovery down) is
 * OAuthCallbackError.
 */
export async function beginOAuth(
  db: Db,
  config: OAuthProviderConfig,
  origin: string,
  callback: string,
  link: number | null = null,
  now = new Date(),
): Promise<{ url: string; cookie: string }> {
  let result: { url: string; cookie: string; state: string }
  try {
    const ep = await endpoints(config)
    const state: OAuthState = {
      provider: config.id,
      state: generateState(),
      codeVerifier: generateCodeVerifier(),
      nonce: randomToken(24),
      callback,
      link,
    }
    const url = client(config, origin).createAuthorizationURLWithPKCE(
      ep.authorizeUrl,
      state.state,
      CodeChallengeMethod.S256,
      state.codeVerifier,
      config.scopes,
    )
    if (ep.issuer) url.searchParams.set('nonce', state.nonce)
    if (config.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post')
    result = { url: url.toString(), cookie: await sealOAuthState((await sessionKeys()).oauth, state, now), state: state.state }
  } catch (e) {
    if (e instanceof AppError) throw e
    throw new AppError('OAuthCallbackError')
  }
  const nowIso = now.toISOString()
  await db.batch([
    { sql: `DELETE FROM oauth_states WHERE expires_at <= ?`, params: [nowIso] },
    {
      sql: `INSERT INTO oauth_states (state_hash, expires_at) VALUES (?, ?)`,
      params: [await hashToken(result.state), isoAfter(now, OAUTH_STATE_TTL_SECONDS * SECOND_MS)],
    },
  ])
  return { url: result.url, cookie: result.cookie }
}

/** Spends the state of a callback (one conditional UPDATE): true only the first time, within its 10 minutes. */
export async function claimOAuthState(db: Db, state: string, now = new Date()): Promise<boolean> {
  const nowIso = now.toISOString()
  return (
    (await db.run(
      `UPDATE oauth_states SET used_at = ? WHERE state_hash = ? AND used_at IS NULL AND expires_at > ?`,
      nowIso,
      await hashToken(state),
      nowIso,
    )) === 1
  )
}

/** RFC 9207: the issuer an authorization response of this provider must name, and whether it always does. */
export async function expectedIssuer(config: OAuthProviderConfig): Promise<ExpectedIssuer> {
  if (!config.issuer) return { issuer: null, required: false }
  try {
    const doc = await discover(config.issuer)
    return { issuer: config.issuer, required: doc.authorization_response_iss_parameter_supported === true }
  } catch {
    throw new AppError('OAuthCallbackError')
  }
}

async function userinfo(url: string, accessToken: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } })
  if (!res.ok) throw new Error(`userinfo ${res.status}`)
  return (await res.json()) as Record<string, unknown>
}

/**
 * Step 2: the code exchanged with the PKCE verifier; for an OpenID provider the ID token is required and
 * verified (signature by JWKS, iss, aud, exp, nonce) and userinfo, when it adds the e-mail, must speak of
 * the same `sub`; for a plain OAuth 2.0 provider the profile is userinfo. Any failure: OAuthCallbackError.
 */
export async function finishOAuth(config: OAuthProviderConfig, origin: string, code: string, stored: OAuthState): Promise<OAuthProfile> {
  try {
    const ep = await endpoints(config)
    const tokens = await client(config, origin).validateAuthorizationCode(ep.tokenUrl, code, stored.codeVerifier)
    let claims: Record<string, unknown> = {}
    if (ep.issuer) {
      const idToken = 'id_token' in tokens.data && typeof tokens.data.id_token === 'string' ? tokens.data.id_token : null
      if (!idToken || !ep.jwks) throw new Error('no id token')
      const payload = await verifyIdToken(idToken, ep.jwks, { issuer: ep.issuer, clientId: config.clientId, nonce: stored.nonce })
      if (!payload) throw new Error('id token refused')
      claims = { ...payload }
      if (typeof claims.email !== 'string' && ep.userinfoUrl) {
        const info = await userinfo(ep.userinfoUrl, tokens.accessToken())
        if (info.sub !== claims.sub) throw new Error('userinfo sub mismatch')
        claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified }
      }
    } else {
      if (!ep.userinfoUrl) throw new Error('no userinfo')
      claims = await userinfo(ep.userinfoUrl, tokens.accessToken())
    }
    const profile = profileFromClaims(claims)
    if (!profile) throw new Error('no subject')
    return profile
  } catch (e) {
    if (e instanceof AppError) throw e
    throw new AppError('OAuthCallbackError')
  }
}

type FactsRow = {
  identityUserId: UsersRow['id'] | null
  identityDeletedAt: UsersRow['deleted_at']
  ownerId: UsersRow['id'] | null
  emailDeletedAt: UsersRow['deleted_at']
}

/**
 * Step 3: the account rule on D1 and a new session. Identity found → that account; the e-mail of a live
 * account → AccountNotLinkedError (its owner links the provider from /setting); else a new account. A race
 * with a parallel callback for the same identity or e-mail (unique index) is resolved by deciding once more.
 */
export async function signInWithOAuth(
  db: Db,
  provider: OAuthProviderId,
  profile: OAuthProfile,
  ctx: AuthContext,
  retry = true,
): Promise<TokenPair & { isNewUser: boolean }> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const facts = await db.first<FactsRow>(
    `SELECT (SELECT u.id FROM identities i JOIN users u ON u.id = i.user_id AND u.deleted_at IS NULL WHERE i.provider = ?1 AND i.provider_user_id = ?2) AS identityUserId,
            (SELECT MAX(u.deleted_at) FROM identities i JOIN users u ON u.id = i.user_id WHERE i.provider = ?1 AND i.provider_user_id = ?2) AS identityDeletedAt,
            (SELECT id FROM users WHERE email = ?3 AND deleted_at IS NULL) AS ownerId,
            (SELECT MAX(deleted_at) FROM users WHERE email = ?3 AND deleted_at IS NOT NULL) AS emailDeletedAt`,
    provider,
    profile.subject,
    profile.email,
  )
  if (facts?.identityUserId == null && isDeletionBlocking(facts?.identityDeletedAt ?? null, now)) throw new AppError('DELETED_USER')
  const decision = decideAccount(profile, {
    identityUserId: facts?.identityUserId ?? null,
    emailOwner: facts?.ownerId != null ? { id: facts.ownerId } : null,
    emailBlocked: isDeletionBlocking(facts?.emailDeletedAt ?? null, now),
  })
  try {
    switch (decision.kind) {
      case 'refuse':
        throw new AppError(decision.code)
      case 'signin':
        return { ...(await issueTokens(db, decision.userId, ctx, [signedInAt(decision.userId, nowIso)])), isNewUser: false }
      case 'create': {
        const results = await db.batch([
          // an identity left by a withdrawn account (past its 30-day block) is released
          {
            sql: `DELETE FROM identities WHERE provider = ? AND provider_user_id = ? AND user_id IN (SELECT id FROM users WHERE deleted_at IS NOT NULL)`,
            params: [provider, profile.subject],
          },
          {
            sql: `INSERT INTO users (email, name, email_verified_at, last_login_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
            params: [decision.email, profile.name, decision.email ? nowIso : null, nowIso, nowIso, nowIso],
          },
          {
            sql: `INSERT INTO identities (user_id, provider, provider_user_id, email, created_at) VALUES (last_insert_rowid(), ?, ?, ?, ?)`,
            params: [provider, profile.subject, profile.email, nowIso],
          },
        ])
        const userId = Number(results[1]?.meta.last_row_id)
        await countMetric({ name: 'signup', key: provider }, now)
        return { ...(await issueTokens(db, userId, ctx)), isNewUser: true }
      }
    }
  } catch (e) {
    if (retry && isConstraint(e, 'UNIQUE')) return signInWithOAuth(db, provider, profile, ctx, false)
    throw e
  }
}

/**
 * /setting "link a sign-in provider": the signed-in owner's account gets this provider identity (then signs in
 * with it too). Already this account's: nothing changes; another account's: ALREADY_USED_ANOTHER_PLATFORM.
 */
export async function linkOAuthIdentity(
  db: Db,
  userId: number,
  provider: OAuthProviderId,
  profile: OAuthProfile,
  now = new Date(),
): Promise<void> {
  const [, owner] = await db.batch([
    {
      sql: `INSERT INTO identities (user_id, provider, provider_user_id, email, created_at) SELECT id, ?, ?, ?, ? FROM users WHERE id = ? AND deleted_at IS NULL
            ON CONFLICT (provider, provider_user_id) DO NOTHING`,
      params: [provider, profile.subject, profile.email, now.toISOString(), userId],
    },
    { sql: `SELECT user_id AS userId FROM identities WHERE provider = ? AND provider_user_id = ?`, params: [provider, profile.subject] },
  ])
  const holder = firstRow<{ userId: IdentitiesRow['user_id'] }>(owner)?.userId
  if (holder === undefined) throw new AppError('NOT_LOGIN_USER')
  if (holder !== userId) throw new AppError('ALREADY_USED_ANOTHER_PLATFORM')
  await accountChanged(userId)
}

/** The keys of the state cookie (the OAuth routes need them without importing the whole key set). */
export async function oauthStateKey(): Promise<Uint8Array> {
  return (await sessionKeys()).oauth
}
