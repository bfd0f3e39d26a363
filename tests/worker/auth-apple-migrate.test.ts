/**
 * JP Apple migrate (spec §7 POST /auth/sign-in/jp/apple/migrate) on real workerd + D1. The identity tokens are
 * signed with the key of the REAL local OpenID provider (oidc-provider, tests/worker/oidc-global-setup.ts) and the
 * worker checks them against that provider's published key set (discovery + JWKS over HTTP): `webtoon-other` plays
 * the app's client id, `webtoon-test` the web Services ID. Forgeries are made the way an attacker would.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { SignJWT, base64url, generateKeyPair, importJWK, type JWK } from 'jose'
import { appFor, expectApiAnswer, frMessages, request } from './app.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import jp from '../../editions/jp/edition.json'
import kr from '../../editions/kr/edition.json'
import { bearer, expectError, read, uniq } from './account.helpers.ts'

const bindings = env as unknown as Record<string, string>
const ISSUER = bindings.TEST_OIDC_ISSUER!
const APP_AUD = bindings.OAUTH_APPLE_APP_CLIENT_ID!
const WEB_AUD = bindings.OAUTH_APPLE_CLIENT_ID!
const providerJwk = JSON.parse(bindings.TEST_OIDC_SIGNING_JWK!) as JWK
const jpApp = appFor(parseEdition('jp', jp), frMessages)
const PATH = '/api/v1/auth/sign-in/jp/apple/migrate'

type Claims = { sub?: string; aud?: string; iss?: string; iat?: number; exp?: number }
/** An identity token as Apple would issue it (by default: the provider's key, valid 10 minutes). */
async function token(claims: Claims, key?: CryptoKey | Uint8Array, header: Record<string, string> = {}) {
  const now = Math.floor(Date.now() / 1000)
  const { sub = 'nobody', aud = WEB_AUD, iss = ISSUER, iat = now, exp = now + 600 } = claims
  return new SignJWT({ email: `${sub}@privaterelay.example`, email_verified: 'true' })
    .setProtectedHeader({ alg: 'RS256', kid: providerJwk.kid!, ...header })
    .setSubject(sub)
    .setAudience(aud)
    .setIssuer(iss)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key ?? ((await importJWK(providerJwk, 'RS256')) as CryptoKey))
}
const pair = async (sub: string) => ({
  appKeyRequest: { identityToken: await token({ sub, aud: APP_AUD }), authorizationCode: 'ignored-code' },
  webKeyRequest: { identityToken: await token({ sub, aud: WEB_AUD }) },
})
const migrate = (body: unknown, app = jpApp) =>
  request(app, PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const userCount = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM users').first<number>('n'))!
const links = async (sub: string) =>
  (
    await env.DB.prepare('SELECT user_id AS userId, provider FROM identities WHERE provider_user_id = ? ORDER BY provider')
      .bind(sub)
      .all<{ userId: number; provider: string }>()
  ).results
async function appAccount(provider: 'apple' | 'apple_app', sub: string) {
  const user = await env.DB.prepare(`INSERT INTO users (nickname) VALUES ('app reader') RETURNING id`).first<number>('id')
  await env.DB.prepare('INSERT INTO identities (user_id, provider, provider_user_id) VALUES (?, ?, ?)').bind(user, provider, sub).run()
  return user!
}
type Answer = { accessToken: { value: string }; refreshToken: { value: string }; isSignUp: boolean; userId: number; isMigrate: boolean }
const answer = async (res: Response) => {
  expect(res.status).toBe(200)
  return (await read(res)).data as Answer
}

describe('POST /api/v1/auth/sign-in/jp/apple/migrate', () => {
  it('none known: a new account holding both keys (isSignUp); its tokens work and rotate; a repeat signs in', async () => {
    const sub = `apple-${uniq()}`
    const body = await pair(sub)
    const first = await answer(await migrate(body))
    expect(first).toMatchObject({ isSignUp: true, isMigrate: false })
    expect(await links(sub)).toEqual([
      { userId: first.userId, provider: 'apple' },
      { userId: first.userId, provider: 'apple_app' },
    ])
    const me = await read(await request(jpApp, '/api/v1/user/me', { headers: bearer(first.accessToken.value) }))
    expect(me.data.user).toMatchObject({ id: first.userId, snsProvider: 'apple', snsId: sub, email: null })
    const refreshed = await request(jpApp, '/api/v1/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessToken: first.accessToken.value, refreshToken: first.refreshToken.value }),
    })
    expect(refreshed.status).toBe(200)
    // the same keys again (a retry, a second tap): the same account, no new row
    const users = await userCount()
    const again = await answer(await migrate(body))
    expect(again).toMatchObject({ userId: first.userId, isSignUp: false, isMigrate: false })
    expect(again.refreshToken.value).not.toBe(first.refreshToken.value)
    expect(await userCount()).toBe(users)
    expect(await links(sub)).toHaveLength(2)
  })

  it('an app account gets the web key linked (isMigrate); repeating signs in without a second link', async () => {
    const sub = `apple-${uniq()}`
    const user = await appAccount('apple_app', sub)
    const users = await userCount()
    const body = await pair(sub)
    expect(await answer(await migrate(body))).toMatchObject({ userId: user, isSignUp: false, isMigrate: true })
    expect(await links(sub)).toEqual([
      { userId: user, provider: 'apple' },
      { userId: user, provider: 'apple_app' },
    ])
    const both = await Promise.all([migrate(body), migrate(body)].map(async (r) => answer(await r)))
    for (const a of both) expect(a).toMatchObject({ userId: user, isSignUp: false, isMigrate: false })
    expect(await links(sub)).toHaveLength(2)
    expect(await userCount()).toBe(users)
  })

  it('an account already on the web key just signs in (both false)', async () => {
    const sub = `apple-${uniq()}`
    const user = await appAccount('apple', sub)
    const users = await userCount()
    expect(await answer(await migrate(await pair(sub)))).toMatchObject({ userId: user, isSignUp: false, isMigrate: false })
    expect(await links(sub)).toEqual([{ userId: user, provider: 'apple' }])
    expect(await userCount()).toBe(users)
  })

  it('forged, expired, wrong-audience, alg none, tampered or mismatched keys: MALFORMED_JWT, nothing written', async () => {
    const sub = `apple-${uniq()}`
    const good = await pair(sub)
    const { privateKey: strangerKey } = await generateKeyPair('RS256')
    const publicJwk = { kty: providerJwk.kty, n: providerJwk.n, e: providerJwk.e }
    const reencode = (v: unknown) => base64url.encode(JSON.stringify(v))
    /** Each way to forge the key meant for `aud` (`otherAud`: the other key's audience). */
    async function forgeries(aud: string, otherAud: string): Promise<Record<string, string>> {
      const now = Math.floor(Date.now() / 1000)
      const [head, payload, signature] = (await token({ sub, aud })).split('.')
      const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)))
      return {
        'a key outside the set': await token({ sub, aud }, strangerKey),
        expired: await token({ sub, aud, iat: now - 7200, exp: now - 3600 }),
        "the other key's audience": await token({ sub, aud: otherAud }),
        'a foreign audience': await token({ sub, aud: 'com.example.evil' }),
        'a foreign issuer': await token({ sub, aud, iss: 'https://appleid.evil.example' }),
        'no expiry': await new SignJWT({})
          .setProtectedHeader({ alg: 'RS256', kid: providerJwk.kid! })
          .setSubject(sub)
          .setAudience(aud)
          .setIssuer(ISSUER)
          .setIssuedAt()
          .sign(await importJWK(providerJwk, 'RS256')),
        'alg none': `${reencode({ alg: 'none' })}.${payload}.`,
        'alg none with a signature part': `${reencode({ alg: 'none' })}.${payload}.${signature}`,
        'HS256 keyed with the public key': await token({ sub, aud }, new TextEncoder().encode(JSON.stringify(publicJwk)), { alg: 'HS256' }),
        'a tampered subject': `${head}.${reencode({ ...claims, sub: `${sub}-other` })}.${signature}`,
        'another subject than the other key': await token({ sub: `${sub}-other`, aud }),
        'not a JWT': 'eyJ.not-a-token',
      }
    }
    const users = await userCount()
    const tries = [
      ...Object.entries(await forgeries(WEB_AUD, APP_AUD)).map(([label, identityToken]) => ({
        label: `web: ${label}`,
        body: { ...good, webKeyRequest: { identityToken } },
      })),
      ...Object.entries(await forgeries(APP_AUD, WEB_AUD)).map(([label, identityToken]) => ({
        label: `app: ${label}`,
        body: { ...good, appKeyRequest: { identityToken } },
      })),
    ]
    for (const { label, body } of tries) {
      const res = await migrate(body)
      expect({ label, status: res.status, code: (await read(res)).code }).toEqual({ label, status: 401, code: 'MALFORMED_JWT' })
    }
    expect(await userCount()).toBe(users)
    expect(await links(sub)).toEqual([])
    // the genuine pair still works afterwards
    expect((await answer(await migrate(good))).isSignUp).toBe(true)
  })

  it('exists on the jp edition only (NOT_EXIST elsewhere, nothing written); a body of the wrong shape is INVALID_PARAMETER', async () => {
    const sub = `apple-${uniq()}`
    const body = await pair(sub)
    for (const other of [appFor(), appFor(parseEdition('kr', kr), frMessages)])
      await expectError(await migrate(body, other), 404, 'NOT_EXIST')
    expect(await links(sub)).toEqual([])
    for (const bad of [
      {},
      { appKeyRequest: body.appKeyRequest },
      { ...body, webKeyRequest: { identityToken: 42 } },
      { ...body, appKeyRequest: 'token' },
      'not json',
    ]) {
      await expectError(await migrate(bad), 400, 'INVALID_PARAMETER')
    }
  })

  it('1,000 generated bodies: never 5xx, only catalogue codes, no account created', { timeout: 240_000 }, async () => {
    const now = Math.floor(Date.now() / 1000)
    const sub = `apple-fuzz-${uniq()}`
    // genuine app keys, but never a genuine web key: no body may create an account
    const appToken = await token({ sub, aud: APP_AUD })
    const refused = [
      await token({ sub, iat: now - 7200, exp: now - 3600 }),
      await token({ sub, aud: APP_AUD }),
      await token({ sub }, (await generateKeyPair('ES256')).privateKey, { alg: 'ES256' }),
    ]
    const b64 = fc.base64String().map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))
    const tokenish = fc.oneof(
      fc.string(),
      fc.tuple(b64, b64, b64).map((p) => p.join('.')),
      fc.constantFrom(...refused),
      fc.string({ minLength: 4000, maxLength: 5000 }),
      fc.anything(),
    )
    const key = (t: fc.Arbitrary<unknown>) =>
      fc.oneof(fc.record({ identityToken: t, authorizationCode: fc.anything() }, { requiredKeys: [] }), fc.anything())
    const anyJson = (v: unknown) => {
      try {
        return JSON.stringify(v) ?? '{}'
      } catch {
        return '{}'
      }
    }
    const record = fc.record(
      { appKeyRequest: key(fc.oneof(tokenish, fc.constant(appToken))), webKeyRequest: key(tokenish) },
      { requiredKeys: [] },
    )
    const bodies = fc.oneof(fc.string(), fc.json(), record.map(anyJson))
    const users = await userCount()
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => expectApiAnswer(await migrate(body), body.slice(0, 200))),
      { numRuns: 1000 },
    )
    expect(await userCount()).toBe(users)
    expect(await links(sub)).toEqual([])
  })
})
