import { describe, expect, it } from 'vitest'
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair } from 'jose'
import { deriveKeys } from './tokens.ts'
import {
  checkCallback,
  configuredProviders,
  decideAccount,
  oauthErrorPath,
  oauthProviderConfig,
  oauthStartPath,
  oauthSuccessPath,
  openOAuthState,
  profileFromClaims,
  sealOAuthState,
  verifyIdToken,
  type OAuthProfile,
  type OAuthState,
} from './oauth.ts'

describe('provider configuration from bindings', () => {
  it('a provider without a client id is not configured, so not offered', () => {
    expect(oauthProviderConfig({}, 'google')).toBeNull()
    const bindings = { OAUTH_GOOGLE_CLIENT_ID: 'g', OAUTH_APPLE_CLIENT_ID: 'a' }
    expect(configuredProviders(bindings, ['google', 'facebook', 'twitter', 'apple']).map((c) => c.id)).toEqual(['google', 'apple'])
    // the edition's list decides too
    expect(configuredProviders(bindings, ['apple']).map((c) => c.id)).toEqual(['apple'])
  })

  it('google and apple default to their OpenID issuers, facebook and twitter to plain OAuth 2.0 endpoints', () => {
    const c = (id: 'google' | 'apple' | 'facebook' | 'twitter') =>
      oauthProviderConfig({ [`OAUTH_${id.toUpperCase()}_CLIENT_ID`]: 'x' }, id)!
    expect(c('google')).toMatchObject({
      issuer: 'https://accounts.google.com',
      scopes: ['openid', 'email', 'profile'],
      responseMode: 'query',
      clientSecret: null,
    })
    expect(c('apple')).toMatchObject({ issuer: 'https://appleid.apple.com', responseMode: 'form_post' })
    expect(c('facebook')).toMatchObject({ issuer: null, tokenUrl: expect.stringContaining('graph.facebook.com') })
    expect(c('twitter')).toMatchObject({ issuer: null, userinfoUrl: expect.stringContaining('/2/users/me') })
  })

  it('endpoints are configurable: an issuer, or explicit URLs (then without OpenID)', () => {
    expect(oauthProviderConfig({ OAUTH_APPLE_CLIENT_ID: 'a', OAUTH_APPLE_ISSUER: 'http://127.0.0.1:9/' }, 'apple')).toMatchObject({
      issuer: 'http://127.0.0.1:9/',
      responseMode: 'query',
    })
    expect(oauthProviderConfig({ OAUTH_FACEBOOK_CLIENT_ID: 'f', OAUTH_FACEBOOK_ISSUER: 'http://idp' }, 'facebook')).toMatchObject({
      issuer: 'http://idp',
      authorizeUrl: null,
      scopes: ['openid', 'email', 'profile'],
    })
    const plain = oauthProviderConfig(
      {
        OAUTH_GOOGLE_CLIENT_ID: 'g',
        OAUTH_GOOGLE_CLIENT_SECRET: 's',
        OAUTH_GOOGLE_AUTHORIZE_URL: 'http://idp/auth',
        OAUTH_GOOGLE_TOKEN_URL: 'http://idp/token',
        OAUTH_GOOGLE_SCOPES: 'a b',
      },
      'google',
    )
    expect(plain).toMatchObject({
      issuer: null,
      authorizeUrl: 'http://idp/auth',
      tokenUrl: 'http://idp/token',
      userinfoUrl: null,
      clientSecret: 's',
      scopes: ['a', 'b'],
    })
    expect(oauthProviderConfig({ OAUTH_GOOGLE_CLIENT_ID: 'g', OAUTH_GOOGLE_ISSUER: 'javascript:alert(1)' }, 'google')?.issuer).toBe(
      'https://accounts.google.com',
    )
  })
})

describe('state cookie (10 minutes, encrypted)', async () => {
  const { oauth: key } = await deriveKeys('oauth-test-session-secret-0123456789abcdef')
  // values long enough that the ciphertext's random base64url cannot contain one by chance (a 2-letter one did, 1 run in ~20)
  const state: OAuthState = {
    provider: 'google',
    state: 'state-7f3a9c1e',
    codeVerifier: 'verifier-52b8d0',
    nonce: 'nonce-e41c6a',
    callback: '/gift',
    link: null,
  }

  it('round-trips and expires after 10 minutes', async () => {
    const now = new Date('2026-05-01T10:00:00Z')
    const sealed = await sealOAuthState(key, state, now)
    for (const secret of [state.state, state.codeVerifier, state.nonce, 'google']) expect(sealed).not.toContain(secret)
    expect(await openOAuthState(key, sealed, new Date(now.getTime() + 9 * 60_000))).toEqual(state)
    expect(await openOAuthState(key, sealed, new Date(now.getTime() + 11 * 60_000))).toBeNull()
  })

  it('refuses a cookie of another key (e.g. the session cookie key) or garbage', async () => {
    const { cookie: sessionKey } = await deriveKeys('oauth-test-session-secret-0123456789abcdef')
    expect(await openOAuthState(sessionKey, await sealOAuthState(key, state))).toBeNull()
    expect(await openOAuthState(key, 'x.y.z')).toBeNull()
    expect(await openOAuthState(key, undefined)).toBeNull()
  })

  it('the callback: state must match the cookie of the same provider; an error or no code is refused', () => {
    expect(checkCallback('google', { code: 'c', state: state.state }, state)).toEqual({ code: 'c', stored: state })
    expect(checkCallback('google', { code: 'c', state: 's2' }, state)).toBeNull()
    expect(checkCallback('apple', { code: 'c', state: state.state }, state)).toBeNull()
    expect(checkCallback('google', { code: 'c', state: state.state }, null)).toBeNull()
    expect(checkCallback('google', { state: state.state, error: 'access_denied' }, state)).toBeNull()
    expect(checkCallback('google', { code: '', state: state.state }, state)).toBeNull()
  })

  it("RFC 9207: a response's iss must be the provider's issuer; missing only where the provider does not always send it", () => {
    const expected = { issuer: 'https://idp.example', required: true }
    expect(checkCallback('google', { code: 'c', state: state.state, iss: 'https://idp.example' }, state, expected)).toEqual({
      code: 'c',
      stored: state,
    })
    expect(checkCallback('google', { code: 'c', state: state.state, iss: 'https://other-idp.example' }, state, expected)).toBeNull()
    expect(checkCallback('google', { code: 'c', state: state.state }, state, expected)).toBeNull()
    expect(checkCallback('google', { code: 'c', state: state.state }, state, { ...expected, required: false })).toEqual({
      code: 'c',
      stored: state,
    })
    expect(
      checkCallback('google', { code: 'c', state: state.state, iss: 'https://other-idp.example' }, state, { ...expected, required: false }),
    ).toBeNull()
  })

  it('keeps the account that asked to link the provider', async () => {
    expect(await openOAuthState(key, await sealOAuthState(key, { ...state, link: 42 }))).toEqual({ ...state, link: 42 })
  })
})

describe('ID token checks', async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] })
  const now = new Date('2026-05-01T10:00:00Z')
  const iat = Math.floor(now.getTime() / 1000)
  const token = (claims: Record<string, unknown>, over: { aud?: string | string[]; iss?: string; exp?: number } = {}) =>
    new SignJWT({ nonce: 'n1', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(over.iss ?? 'https://idp')
      .setAudience(over.aud ?? 'client')
      .setSubject('u1')
      .setIssuedAt(iat)
      .setExpirationTime(over.exp ?? iat + 600)
      .sign(privateKey)
  const expected = { issuer: 'https://idp', clientId: 'client', nonce: 'n1', now }

  it('accepts the right issuer, audience, nonce and time', async () => {
    expect((await verifyIdToken(await token({}), jwks, expected))?.sub).toBe('u1')
  })
  it('rejects a wrong audience, issuer, nonce, an expired token, and several audiences without our azp', async () => {
    expect(await verifyIdToken(await token({}, { aud: 'other' }), jwks, expected)).toBeNull()
    expect(await verifyIdToken(await token({}, { iss: 'https://evil' }), jwks, expected)).toBeNull()
    expect(await verifyIdToken(await token({ nonce: 'n2' }), jwks, expected)).toBeNull()
    expect(await verifyIdToken(await token({}, { exp: iat - 120 }), jwks, expected)).toBeNull()
    expect(await verifyIdToken(await token({}, { aud: ['client', 'other'] }), jwks, expected)).toBeNull()
    expect(await verifyIdToken(await token({ azp: 'client' }, { aud: ['client', 'other'] }), jwks, expected)).not.toBeNull()
  })
  it('rejects alg=none and an HS256 token', async () => {
    const none = `${btoa(JSON.stringify({ alg: 'none' })).replace(/=/g, '')}.${btoa(JSON.stringify({ sub: 'u1', iss: 'https://idp', aud: 'client', nonce: 'n1', iat, exp: iat + 600 })).replace(/=/g, '')}.`
    expect(await verifyIdToken(none, jwks, expected)).toBeNull()
    const hs = await new SignJWT({ nonce: 'n1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('https://idp')
      .setAudience('client')
      .setSubject('u1')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(new Uint8Array(32))
    expect(await verifyIdToken(hs, jwks, expected)).toBeNull()
  })
})

describe('profile and account rule', () => {
  it('reads OpenID, Facebook and Twitter shapes; e-mail verified only when the provider says so', () => {
    expect(profileFromClaims({ sub: 'a', email: 'A@Example.com ', email_verified: true, name: 'A' })).toEqual({
      subject: 'a',
      email: 'a@example.com',
      emailVerified: true,
      name: 'A',
    })
    expect(profileFromClaims({ sub: 'a', email: 'a@example.com', email_verified: 'true' })?.emailVerified).toBe(true)
    expect(profileFromClaims({ id: 1234, email: 'a@example.com' })).toMatchObject({ subject: '1234', emailVerified: false })
    expect(profileFromClaims({ data: { id: '99', name: 'tw' } })).toEqual({ subject: '99', email: null, emailVerified: false, name: 'tw' })
    expect(profileFromClaims({ email: 'a@example.com' })).toBeNull()
    expect(profileFromClaims({ sub: 'a', email: 'not-an-email', email_verified: true })).toMatchObject({
      email: null,
      emailVerified: false,
    })
  })

  const verified: OAuthProfile = { subject: 's', email: 'r@example.com', emailVerified: true, name: null }
  const unverified: OAuthProfile = { ...verified, emailVerified: false }
  const none = { identityUserId: null, emailOwner: null, emailBlocked: false }

  it('identity → sign in; else create', () => {
    expect(decideAccount(unverified, { ...none, identityUserId: 5 })).toEqual({ kind: 'signin', userId: 5 })
    expect(decideAccount(verified, none)).toEqual({ kind: 'create', email: 'r@example.com' })
    expect(decideAccount(unverified, none)).toEqual({ kind: 'create', email: null })
  })
  it('never links by e-mail, verified or not (AccountNotLinkedError: the owner links from /setting); a withdrawn e-mail is blocked', () => {
    expect(decideAccount(unverified, { ...none, emailOwner: { id: 7 } })).toEqual({ kind: 'refuse', code: 'AccountNotLinkedError' })
    expect(decideAccount(verified, { ...none, emailOwner: { id: 7 } })).toEqual({ kind: 'refuse', code: 'AccountNotLinkedError' })
    expect(decideAccount(verified, { ...none, emailBlocked: true })).toEqual({ kind: 'refuse', code: 'DELETED_USER' })
  })
  it('redirect targets keep only own-site callbacks', () => {
    expect(oauthSuccessPath(true, '/gift')).toBe('/callback/login-newuser?callback=%2Fgift')
    expect(oauthSuccessPath(false, '//evil.example')).toBe('/callback/login-success')
    expect(oauthErrorPath('OAuthCallbackError')).toBe('/callback/login-error?error=OAuthCallbackError')
    expect(oauthStartPath('google', 'https://evil.example/')).toBe('/api/v1/auth/oauth/google')
  })
})
