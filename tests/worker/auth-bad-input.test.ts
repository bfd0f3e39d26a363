/**
 * docs/QUALITY.md "Bad input" on the auth routes: 1,000 generated bodies each on sign-in and sign-up (and the
 * other auth bodies) give 0 responses 5xx and only catalogue codes with a message; nothing leaks a token.
 */
import { beforeAll, describe, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { appFor, expectApiAnswer, request } from './app.ts'
import { seedDemo } from './seed.ts'

const app = appFor()

// the fuzzed e-mails hit a dedicated account, so lockouts never touch the demo accounts other files use
beforeAll(async () => {
  await seedDemo(env.DB)
  await request(app, '/api/v1/auth/sign-up', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'fuzz.user@example.com', password: 'Fuzz-2026!', passwordConfirm: 'Fuzz-2026!', agreeTerms: true }),
  })
})

const anyJson = (v: unknown) => {
  try {
    return JSON.stringify(v) ?? '{}'
  } catch {
    return '{}'
  }
}
const emailish = fc.oneof(
  fc.string(),
  fc.emailAddress(),
  fc.constant('fuzz.user@example.com'),
  fc.constant('FUZZ.user@example.com'),
  fc.anything(),
)
const passwordish = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constant('Fuzz-2026!'),
  fc.string({ minLength: 2000, maxLength: 3000 }),
  fc.anything(),
)
const bodies = (record: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof(fc.string(), fc.json(), fc.jsonValue().map(anyJson), record.map(anyJson))

async function expectNo5xx(method: string, path: string, body: string, type: string) {
  await expectApiAnswer(await request(app, path, { method, headers: type ? { 'content-type': type } : {}, body }), body.slice(0, 200))
}

const types = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', '')

describe('bad input on the auth API', () => {
  it('sign-in: never 5xx on 1,000 generated bodies', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(bodies(fc.record({ email: emailish, password: passwordish }, { requiredKeys: [] })), types, (body, type) =>
        expectNo5xx('POST', '/api/v1/auth/sign-in', body, type),
      ),
      { numRuns: 1000 },
    )
  })

  it('sign-up: never 5xx on 1,000 generated bodies', { timeout: 240_000 }, async () => {
    const record = fc.record(
      {
        email: emailish,
        password: passwordish,
        passwordConfirm: passwordish,
        agreeTerms: fc.oneof(fc.boolean(), fc.anything()),
        agreeMail: fc.anything(),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(bodies(record), types, (body, type) => expectNo5xx('POST', '/api/v1/auth/sign-up', body, type)),
      { numRuns: 1000 },
    )
  })

  it('refresh and logout: never 5xx on 1,000 generated bodies', { timeout: 120_000 }, async () => {
    const record = fc.record(
      {
        accessToken: fc.oneof(fc.string(), fc.anything()),
        refreshToken: fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), fc.anything()),
        clientIp: fc.anything(),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(bodies(record), types, fc.boolean(), (body, type, isRefresh) =>
        expectNo5xx(isRefresh ? 'POST' : 'PUT', isRefresh ? '/api/v1/auth/refresh' : '/api/v1/auth/logout', body, type),
      ),
      { numRuns: 1000 },
    )
  })
})
