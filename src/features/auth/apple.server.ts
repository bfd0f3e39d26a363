/** JP Apple migrate on the network and D1 (rules in apple.ts, design on the handler in functions/api/auth.ts). */
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { env } from 'cloudflare:workers'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { UsersRow } from '../../lib/server/db-types.ts'
import { issueTokens, signedInAt, type AuthContext, type TokenPair } from './auth.server.ts'
import { APPLE_APP_CLIENT_ID_BINDING, APPLE_APP_PROVIDER, decideMigrate, verifyAppleIdentityToken, type AppleMigrateBody } from './apple.ts'
import { oauthProviderConfig } from './oauth.ts'
import { providerKeys } from './oauth.server.ts'
import { isConstraint } from '../../lib/server/constraint.ts'

type Stmt = { sql: string; params: unknown[] }

/** The two subjects, equal and genuine, or MALFORMED_JWT; the key set out of reach is OAuthCallbackError. */
async function verifiedSubject(body: AppleMigrateBody, now: Date): Promise<string> {
  const bindings = env as unknown as Record<string, unknown>
  const config = oauthProviderConfig(bindings, 'apple')
  const appClientId = bindings[APPLE_APP_CLIENT_ID_BINDING]
  if (!config || typeof appClientId !== 'string' || appClientId === '') throw new AppError('NOT_EXIST')
  let subjects: (string | null)[]
  try {
    const { issuer, jwks } = await providerKeys(config)
    subjects = await Promise.all([
      verifyAppleIdentityToken(body.appKeyRequest.identityToken, jwks, { issuer, audience: appClientId, now }),
      verifyAppleIdentityToken(body.webKeyRequest.identityToken, jwks, { issuer, audience: config.clientId, now }),
    ])
  } catch {
    throw new AppError('OAuthCallbackError')
  }
  const [app, web] = subjects
  if (!app || !web || app !== web) throw new AppError('MALFORMED_JWT')
  return app
}

/**
 * Both keys checked, then: the web key's account signs in; else the app key's account gets the web key linked
 * (isMigrate); else a new account holding both keys (isSignUp). A parallel call for the same keys (unique index)
 * is resolved by deciding once more, so repeats give the same account and no duplicate link.
 */
export async function migrateAppleSignIn(
  db: Db,
  body: AppleMigrateBody,
  ctx: AuthContext,
): Promise<TokenPair & { isSignUp: boolean; isMigrate: boolean }> {
  const now = ctx.now ?? new Date()
  const sub = await verifiedSubject(body, now)
  return signInOrLink(db, sub, ctx, now, true)
}

async function signInOrLink(
  db: Db,
  sub: string,
  ctx: AuthContext,
  now: Date,
  retry: boolean,
): Promise<TokenPair & { isSignUp: boolean; isMigrate: boolean }> {
  const nowIso = now.toISOString()
  const facts = await db.first<{ webUserId: UsersRow['id'] | null; appUserId: UsersRow['id'] | null }>(
    `SELECT (SELECT u.id FROM identities i JOIN users u ON u.id = i.user_id AND u.deleted_at IS NULL WHERE i.provider = 'apple' AND i.provider_user_id = ?1) AS webUserId,
            (SELECT u.id FROM identities i JOIN users u ON u.id = i.user_id AND u.deleted_at IS NULL WHERE i.provider = ?2 AND i.provider_user_id = ?1) AS appUserId`,
    sub,
    APPLE_APP_PROVIDER,
  )
  const decision = decideMigrate({ webUserId: facts?.webUserId ?? null, appUserId: facts?.appUserId ?? null })
  const login = (userId: number): Stmt => signedInAt(userId, nowIso)
  // keys left by a withdrawn account are released before they are linked again
  const release: Stmt = {
    sql: `DELETE FROM identities WHERE provider IN ('apple', ?) AND provider_user_id = ? AND user_id IN (SELECT id FROM users WHERE deleted_at IS NOT NULL)`,
    params: [APPLE_APP_PROVIDER, sub],
  }
  const link = (provider: string, userSql: string, ...userParams: unknown[]): Stmt => ({
    sql: `INSERT INTO identities (user_id, provider, provider_user_id, created_at) VALUES (${userSql}, ?, ?, ?)`,
    params: [...userParams, provider, sub, nowIso],
  })
  try {
    switch (decision.kind) {
      case 'signin':
        return { ...(await issueTokens(db, decision.userId, ctx, [login(decision.userId)])), isSignUp: false, isMigrate: false }
      case 'migrate':
        return {
          ...(await issueTokens(db, decision.userId, ctx, [release, link('apple', '?', decision.userId), login(decision.userId)])),
          isSignUp: false,
          isMigrate: true,
        }
      case 'create': {
        const results = await db.batch([
          release,
          { sql: `INSERT INTO users (last_login_at, created_at, updated_at) VALUES (?, ?, ?)`, params: [nowIso, nowIso, nowIso] },
          link('apple', 'last_insert_rowid()'),
          link(APPLE_APP_PROVIDER, '(SELECT user_id FROM identities WHERE id = last_insert_rowid())'),
        ])
        await countMetric({ name: 'signup', key: 'apple' }, now)
        return { ...(await issueTokens(db, Number(results[1]?.meta.last_row_id), ctx)), isSignUp: true, isMigrate: false }
      }
    }
  } catch (e) {
    if (retry && isConstraint(e, 'UNIQUE')) return signInOrLink(db, sub, ctx, now, false)
    throw e
  }
}
