/**
 * Vitest globalSetup of the worker project (runs in Node): a REAL OpenID Connect provider (`oidc-provider`)
 * on 127.0.0.1:<free port>, so the worker tests drive the whole OAuth sign-in against it (issue 3 item 2).
 *
 * - One confidential client `webtoon-test` (client_secret_basic, PKCE required, redirect URIs of the test
 *   app for every provider id) and a second client `webtoon-other` (used by the tests to obtain a real
 *   code/ID token issued for somebody else).
 * - A minimal login interaction instead of a login form: the account is chosen by the authorization
 *   request's `login_hint` (the test plays the user picking an account); `login_hint=deny` ends the
 *   interaction with `access_denied` (the user refuses). Consent is implied for the first-party clients
 *   (`loadExistingGrant` creates the grant), as a real first-party IdP would.
 * - Accounts: `alice` (new reader, verified e-mail), `reader` (reader@example.com, verified: links to the
 *   demo account), `minor-unverified` (minor@example.com, NOT verified), `bob-noemail` (no e-mail).
 *
 * The issuer URL is handed to the worker project's bindings with `provide('oidcIssuer', …)`.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'
import { exportJWK, generateKeyPair } from 'jose'

export const OIDC_CLIENT_ID = 'webtoon-test'
export const OIDC_CLIENT_SECRET = 'webtoon-test-secret-0123456789abcdef'
export const OIDC_OTHER_CLIENT_ID = 'webtoon-other'
export const OIDC_OTHER_CLIENT_SECRET = 'webtoon-other-secret-0123456789abcdef'
/** The worker tests' app answers at http://localhost (tests/worker/app.ts). */
const APP_ORIGIN = 'http://localhost'
const PROVIDER_IDS = ['google', 'facebook', 'twitter', 'apple']

type Account = { email?: string; email_verified?: boolean; name: string }
export const OIDC_ACCOUNTS: Record<string, Account> = {
  alice: { email: 'alice@example.test', email_verified: true, name: 'Alice' },
  reader: { email: 'reader@example.com', email_verified: true, name: 'Reader' },
  'minor-unverified': { email: 'minor@example.com', email_verified: false, name: 'Minor' },
  'bob-noemail': { name: 'Bob' },
}

/** The part of oidc-provider's API used here (the package ships no types). */
type Ctx = {
  oidc: {
    result?: { consent?: { grantId?: string } }
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined }
    client?: { clientId: string }
    provider: OidcProvider
  }
}
type Grant = { addOIDCScope(scope: string): void; save(): Promise<string> }
type OidcProvider = {
  Grant: { new (init: { clientId: string; accountId?: string }): Grant; find(id: string): Promise<Grant | undefined> }
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void
  interactionDetails(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<{ params: Record<string, unknown>; prompt: { name: string } }>
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: object,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>
}
type ProviderClass = new (issuer: string, config: Record<string, unknown>) => OidcProvider

declare module 'vitest' {
  export interface ProvidedContext {
    oidcIssuer: string
    oidcSigningJwk: string
  }
}

export default async function setup(project: TestProject) {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-rs256', alg: 'RS256', use: 'sig' }
  const redirectUris = PROVIDER_IDS.map((id) => `${APP_ORIGIN}/api/v1/auth/oauth/${id}/callback`)
  const { default: Provider } = (await import('oidc-provider' as string)) as { default: ProviderClass }
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      {
        client_id: OIDC_OTHER_CLIENT_ID,
        client_secret: OIDC_OTHER_CLIENT_SECRET,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    async findAccount(_ctx: Ctx, id: string) {
      const account = OIDC_ACCOUNTS[id]
      if (!account) return undefined
      return { accountId: id, claims: async () => ({ sub: id, ...account }) }
    },
    async loadExistingGrant(ctx: Ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId)
      if (grantId) return ctx.oidc.provider.Grant.find(grantId)
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  const callback = provider.callback()

  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res)
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res)
        const hint = String(details.params.login_hint ?? '')
        if (hint === 'deny' || details.prompt.name !== 'login') {
          return provider.interactionFinished(
            req,
            res,
            { error: 'access_denied', error_description: 'the user refused' },
            { mergeWithLastSubmission: false },
          )
        }
        if (!OIDC_ACCOUNTS[hint]) {
          res.statusCode = 400
          return res.end('unknown login_hint')
        }
        return provider.interactionFinished(req, res, { login: { accountId: hint } }, { mergeWithLastSubmission: false })
      } catch (e) {
        res.statusCode = 500
        res.end(String(e))
      }
    })()
  })

  project.provide('oidcIssuer', issuer)
  project.provide('oidcSigningJwk', JSON.stringify(signingKey))
  return async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * The worker project's bindings for the provider at `issuer` (vitest.config.ts): google, facebook and apple
 * as OpenID providers (discovery + ID token), twitter as a plain OAuth 2.0 provider with explicit
 * endpoints (profile from userinfo), all with the client `webtoon-test`; the second client's credentials
 * for the tests that need a token issued to somebody else. The JP Apple migrate takes `webtoon-other` as the
 * app's client id, and its tests sign identity tokens with the provider's own key (`TEST_OIDC_SIGNING_JWK`),
 * which the worker checks against the provider's published key set.
 */
export function oauthTestBindings(issuer: string, signingJwk: string): Record<string, string> {
  const client = (p: string) => ({ [`OAUTH_${p}_CLIENT_ID`]: OIDC_CLIENT_ID, [`OAUTH_${p}_CLIENT_SECRET`]: OIDC_CLIENT_SECRET })
  return {
    ...client('GOOGLE'),
    OAUTH_GOOGLE_ISSUER: issuer,
    ...client('FACEBOOK'),
    OAUTH_FACEBOOK_ISSUER: issuer,
    ...client('APPLE'),
    OAUTH_APPLE_ISSUER: issuer,
    OAUTH_APPLE_APP_CLIENT_ID: OIDC_OTHER_CLIENT_ID,
    ...client('TWITTER'),
    OAUTH_TWITTER_AUTHORIZE_URL: `${issuer}/auth`,
    OAUTH_TWITTER_TOKEN_URL: `${issuer}/token`,
    OAUTH_TWITTER_USERINFO_URL: `${issuer}/me`,
    OAUTH_TWITTER_SCOPES: 'openid email profile',
    TEST_OIDC_ISSUER: issuer,
    TEST_OIDC_OTHER_CLIENT_ID: OIDC_OTHER_CLIENT_ID,
    TEST_OIDC_OTHER_CLIENT_SECRET: OIDC_OTHER_CLIENT_SECRET,
    TEST_OIDC_SIGNING_JWK: signingJwk,
  }
}
