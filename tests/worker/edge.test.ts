import { describe, expect, it } from 'vitest'
import { appFor, frEdition, request } from './app.ts'
import { createApp } from '../../functions/app.ts'
import de from '../../editions/de/edition.json'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { env } from 'cloudflare:workers'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'

const app = appFor()

describe('edge app', () => {
  it('answers the health check', async () => {
    const res = await request(app, '/_/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
  })

  it('answers unknown API paths with a translated NOT_EXIST envelope and a request id', async () => {
    const res = await request(app, '/api/v1/does-not-exist')
    expect(res.status).toBe(404)
    const body = (await res.json()) as Record<string, string>
    expect(body.result).toBe('ERROR')
    expect(body.code).toBe('NOT_EXIST')
    expect(body.message).not.toBe('error.NOT_EXIST')
    expect(body.message.length).toBeGreaterThan(5)
    expect(body.requestId).toBe(res.headers.get('x-request-id'))
  })

  it('sets the security headers, frame-ancestors included, on pages and API', async () => {
    for (const path of ['/', '/api/v1/nothing']) {
      const res = await request(app, path)
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
    }
  })

  it("issue 34 (6): a pre-rendered page's meta policy (script-src) is sent as a header too, beside frame-ancestors", async () => {
    const prerendered = createApp({
      edition: frEdition,
      messages: {},
      pages: [
        async (c) =>
          c.html(
            `<!doctype html><meta http-equiv="content-security-policy" content="script-src 'self' 'sha256-abc='; style-src 'self'"><title>404</title>`,
            404,
          ),
      ],
    })
    const res = await request(prerendered, '/no-such-page')
    expect(res.status).toBe(404)
    const policies = res.headers.get('content-security-policy')!.split(', ')
    expect(policies).toContain("script-src 'self' 'sha256-abc='; style-src 'self'")
    expect(policies.some((p) => p.includes("frame-ancestors 'none'"))).toBe(true)
    expect(await res.text()).toContain('<title>404</title>')
  })

  it('keeps a well-formed request id and replaces a malformed one', async () => {
    const kept = await request(app, '/_/health', { headers: { 'x-request-id': 'abc12345-test' } })
    expect(kept.headers.get('x-request-id')).toBe('abc12345-test')
    const replaced = await request(app, '/_/health', { headers: { 'x-request-id': '<script>' } })
    expect(replaced.headers.get('x-request-id')).not.toBe('<script>')
  })

  it('refuses oversized API bodies with PAYLOAD_TOO_LARGE, never a 500', async () => {
    const res = await request(app, '/api/v1/anything', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'a'.repeat(70 * 1024) }),
    })
    expect(res.status).toBe(413)
    expect(((await res.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('answers paths with encoded tricks as not found', async () => {
    // (plain `..` and `%2e%2e` segments are resolved by URL parsing before any handler sees them)
    for (const path of ['/detail/%00', '/api/v1/a%2f..%2fb', '/x/%E0%A4%A', '/..%5c..%5cwin.ini', '/detail/1%2F..%2F..%2Fetc']) {
      const res = await request(app, path)
      expect(res.status, path).toBe(404)
    }
    const api = await request(app, '/api/v1/contents%00')
    expect(((await api.json()) as { code: string }).code).toBe('NOT_EXIST')
  })

  it('refuses a cookie-authenticated write from another origin', async () => {
    const res = await request(app, '/api/v1/purchase', {
      method: 'POST',
      headers: { cookie: 'wt_session=x', origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(403)
    expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN_ORIGIN')
  })
})

describe('German edition', () => {
  const deApp = appFor(parseEdition('de', de))

  it('redirects every path except the health check to the configured URL', async () => {
    for (const path of ['/', '/detail/1', '/api/v1/contents', '/_astro/x.js', '/shop?x=1']) {
      const res = await request(deApp, path)
      expect(res.status, path).toBe(302)
      expect(res.headers.get('location')).toBe(de.redirectAllUrl)
    }
    const health = await request(deApp, '/_/health')
    expect(health.status).toBe(200)
  })

  it('does not redirect in the default edition', async () => {
    expect(frEdition.redirectAllUrl).toBeNull()
    expect((await request(app, '/')).status).toBe(200)
  })
})

describe('protected routes (spec §2)', () => {
  it('sends a guest to the login route with the encoded callback and porch, clearing the sign-in cookies', async () => {
    const res = await request(app, '/library/recent?page=2&porch=banner')
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get('location')!, 'http://localhost')
    expect(location.pathname).toBe('/user/login')
    expect(location.searchParams.get('callback')).toBe('/library/recent?page=2&porch=banner')
    expect(location.searchParams.get('porch')).toBe('banner')
    const cookies = res.headers.getSetCookie().join('\n')
    expect(cookies).toMatch(/login-callback-finished=;.*Max-Age=0/)
    expect(cookies).toMatch(/is-sign-up=;.*Max-Age=0/)
  })

  it('lets a signed-in reader through, sends a forged session to login, never redirects the login route', async () => {
    await seedDemo(env.DB)
    const signIn = await request(app, '/api/v1/auth/web/sign-in', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
      body: new URLSearchParams({ email: DEMO_ACCOUNTS.reader.email, password: DEMO_ACCOUNTS.reader.password }).toString(),
    })
    const cookie = /wt_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')?.[0]
    expect(cookie).toBeTruthy()
    expect((await request(app, '/library/recent', { headers: { cookie: cookie! } })).status).toBe(200)
    expect((await request(app, '/library/recent', { headers: { cookie: 'wt_session=forged' } })).status).toBe(302)
    expect((await request(app, '/user/login?callback=%2Flibrary%2Fmy')).status).toBe(200)
  })

  it('leaves public pages alone', async () => {
    for (const path of ['/', '/detail/3', '/notice', '/my', '/shop']) {
      expect((await request(app, path)).status, path).toBe(200)
    }
  })
})
