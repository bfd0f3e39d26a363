/**
 * For browser tests that need a worker of their own (tests/e2e/oauth.fr.spec.ts, age-jp.fr.spec.ts): a REAL
 * OpenID provider (`oidc-provider`) with a tiny account-picker page as its login interaction, and a wrangler dev
 * worker of a built edition with its own D1 state, port and vars, so the shared e2e servers stay untouched.
 */
import http from 'node:http'
import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'
import { quietEnv } from '../../scripts/lib.ts'

const CLIENT_ID = 'webtoon-e2e'
const CLIENT_SECRET = 'webtoon-e2e-secret-0123456789abcdef'
const ACCOUNTS: Record<string, { email: string; email_verified: boolean; name: string }> = {
  carol: { email: 'carol@example.test', email_verified: true, name: 'Carol' },
  reader: { email: 'reader@example.com', email_verified: true, name: 'Reader' },
}

type Provider = {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void
  interactionDetails(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<{ uid: string; params: Record<string, unknown>; prompt: { name: string } }>
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: object,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>
  Grant: {
    new (init: { clientId: string; accountId?: string }): { addOIDCScope(s: string): void; save(): Promise<string> }
    find(id: string): Promise<unknown>
  }
}

/** Starts the provider for an app served at `appOrigin`; returns its issuer and a stop function. */
export async function startProvider(appOrigin: string): Promise<{ issuer: string; stop: () => Promise<void> }> {
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const { default: ProviderClass } = (await import('oidc-provider' as string)) as {
    default: new (issuer: string, config: object) => Provider
  }
  const provider = new ProviderClass(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${appOrigin}/api/v1/auth/oauth/google/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'e2e', alg: 'RS256', use: 'sig' }] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['oidc-e2e-cookie-key-0123456789'] },
    async findAccount(_ctx: unknown, id: string) {
      const account = ACCOUNTS[id]
      return account ? { accountId: id, claims: async () => ({ sub: id, ...account }) } : undefined
    },
    // first-party client: consent is implied, as a real IdP does for its own apps
    async loadExistingGrant(ctx: {
      oidc: { session: { accountId: string; grantIdFor(c: string): string | undefined }; client: { clientId: string }; provider: Provider }
    }) {
      const existing = ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId)
      if (existing) return ctx.oidc.provider.Grant.find(existing)
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  const callback = provider.callback()
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '')
    if (!match) return callback(req, res)
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res)
        if (!match[2]) {
          // the provider's own sign-in page: pick an account (a form, as a user would)
          res.setHeader('content-type', 'text/html; charset=utf-8')
          const buttons = Object.keys(ACCOUNTS)
            .map((id) => `<button name="account" value="${id}">${ACCOUNTS[id]!.name}</button>`)
            .join('')
          return res.end(
            `<!doctype html><html lang="en"><title>Local IdP</title><main><h1>Local IdP sign-in</h1><form method="post" action="/interaction/${details.uid}/login">${buttons}<button name="account" value="deny">Refuse</button></form></main></html>`,
          )
        }
        const body = await new Promise<string>((resolve) => {
          let data = ''
          req.on('data', (c) => (data += c))
          req.on('end', () => resolve(data))
        })
        const account = new URLSearchParams(body).get('account') ?? ''
        const result = ACCOUNTS[account]
          ? { login: { accountId: account } }
          : { error: 'access_denied', error_description: 'the user refused' }
        return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
      } catch (e) {
        res.statusCode = 500
        res.end(String(e))
      }
    })()
  })
  return {
    issuer,
    stop: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore', env: { ...process.env, ...env } })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`))))
  })
}

/** The worker vars that make the provider at `issuer` the edition's "google". */
export function googleVars(issuer: string): string[] {
  return [`OAUTH_GOOGLE_CLIENT_ID:${CLIENT_ID}`, `OAUTH_GOOGLE_CLIENT_SECRET:${CLIENT_SECRET}`, `OAUTH_GOOGLE_ISSUER:${issuer}`]
}

/**
 * Migrates and seeds a fresh state of its own, then serves the built `edition` worker on `port` with extra `vars`.
 * Returns a stop function that ends exactly the process group it started.
 */
export async function startWorker(port: number, edition: string, extraVars: string[] = []): Promise<() => void> {
  const config = `dist/${edition}/server/wrangler.json`
  const persist = `.wrangler/e2e-own-${edition}-${port}`
  rmSync(persist, { recursive: true, force: true }) // every run starts from the demo data alone
  await run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '-c', config])
  await run(process.execPath, ['scripts/seed.ts', '--persist-to', persist, '--no-images'], { EDITION: edition })
  const vars = [
    'PASSWORD_PEPPER:dev-pepper-change-me',
    'SESSION_SECRET:dev-session-secret-change-me-0123456789',
    'DEV_OUTBOX:1',
    'LOCAL_SHARED_ADDRESS:1',
    ...extraVars,
  ]
  const args = [
    'wrangler',
    'dev',
    '-c',
    config,
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    persist,
    '--show-interactive-dev-session=false',
    '--live-reload=false',
    '--log-level',
    'warn',
    ...vars.flatMap((v) => ['--var', v]),
  ]
  // two wrangler dev processes starting in the same instant can race for an internal port (as in
  // scripts/start.ts): a start that stops early is retried, twice at most
  for (let attempt = 1; attempt <= 3; attempt++) {
    const child: ChildProcess = spawn('npx', args, { stdio: 'ignore', detached: true, env: { ...process.env, ...quietEnv } })
    let exited = false
    child.on('exit', () => (exited = true))
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        // already gone
      }
    }
    const deadline = Date.now() + 150_000
    while (Date.now() < deadline && !exited) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/_/health`)).ok) return stop
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 500))
    }
    stop()
    if (!exited) break
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000))
  }
  throw new Error(`worker on port ${port} did not start`)
}
