/**
 * Spec §7 calls added with issue 12 point 8, through the app's own router on real workerd: GET /auth/ip-kr (the
 * edge's country), the Logger POST (a JSON line in the Worker's log, a 4 KB cap, the address's allowance counted
 * and checked in one step, never D1), and 1,000 generated bad inputs on each of them and on PUT /app/push: never
 * a 5xx, only catalogue codes with a message, nothing changed.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { expectApiAnswer, read, request } from './app.ts'
import { app, bearer, expectError, json, makeUser, tokensFor } from './account.helpers.ts'
import { LOG_MAX_BYTES } from '../../src/features/logger/logger.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})
afterEach(() => {
  vi.restoreAllMocks()
})

let hosts = 0
/** A fresh client address per test (the limits count per address). */
const address = () => `198.51.100.${++hosts}`
/** The limits count in wall-clock minutes: a burst starts with at least 20 s of its minute left. */
async function freshWindowRoom() {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 50))
}
const anyJson = (v: unknown) => {
  try {
    return JSON.stringify(v) ?? '{}'
  } catch {
    return '{}'
  }
}
const str = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 1500, maxLength: 2500 }), fc.anything())
const types = fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', '')

const ipKr = (init: RequestInit & { cf?: Record<string, unknown> } = {}) => request(app, '/api/v1/auth/ip-kr', init)

describe('GET /api/v1/auth/ip-kr', () => {
  it('answers true for a request the edge places in Korea, false elsewhere or unknown, with no D1 query', async () => {
    const kr = await ipKr({ cf: { country: 'KR' } })
    expect(kr.headers.get('x-d1-queries')).toBeNull()
    expect(await read(kr)).toEqual({ result: 'SUCCESS', data: true })
    expect(await read(await ipKr({ cf: { country: 'FR' } }))).toEqual({ result: 'SUCCESS', data: false })
    expect(await read(await ipKr())).toEqual({ result: 'SUCCESS', data: false })
    // the edge's country wins over a header the client writes itself
    expect((await read(await ipKr({ cf: { country: 'JP' }, headers: { 'cf-ipcountry': 'KR' } }))).data).toBe(false)
  })

  it('1,000 generated query strings, headers and methods: never a 5xx, only catalogue codes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 60 }),
        fc.oneof(fc.constantFrom('KR', 'kr', 'FR', 'T1', 'XX', ''), fc.string({ maxLength: 8 })),
        fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE'),
        async (query, country, method) => {
          const res = await request(app, `/api/v1/auth/ip-kr?${encodeURIComponent(query)}`, {
            method,
            headers: { 'cf-ipcountry': country.replace(/[^\x20-\x7e]/g, '') },
          })
          if (method === 'HEAD') expect(res.status).toBeLessThan(500)
          else await expectApiAnswer(res, `${method} ${query}`)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

const LINE = {
  logType: 'ERROR',
  platform: 'WEB',
  ip: '203.0.113.9',
  date: '2026-11-27T05:00:00.000+09:00',
  url: 'https://fr.bomtoon.example/viewer/12',
  action: 'viewer.open',
  data: { code: 'NETWORK', tries: 2 },
}
const log = (body: unknown, ip = address(), headers: Record<string, string> = {}) =>
  request(app, '/api/v1/logger', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('POST /api/v1/logger (spec §7 Logger)', () => {
  it('writes one JSON log line with the client fields and what the edge saw, touches no D1', async () => {
    const lines: string[] = []
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line))
    const ip = address()
    const res = await log(LINE, ip, { 'x-request-id': 'log-test-0001' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-d1-queries')).toBeNull()
    expect(await read(res)).toEqual({ result: 'SUCCESS', data: {} })
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toEqual({
      source: 'client-log',
      ...LINE,
      requestId: 'log-test-0001',
      edition: 'fr',
      address: ip,
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
  })

  it(`refuses a body over ${LOG_MAX_BYTES} bytes with PAYLOAD_TOO_LARGE and logs nothing`, async () => {
    const lines: unknown[] = []
    vi.spyOn(console, 'log').mockImplementation((line) => void lines.push(line))
    const big = { ...LINE, data: { text: 'x'.repeat(LOG_MAX_BYTES) } }
    await expectError(await log(big), 413, 'PAYLOAD_TOO_LARGE')
    const justUnder = { ...LINE, data: { text: 'x'.repeat(LOG_MAX_BYTES - JSON.stringify(LINE).length - 40) } }
    expect(JSON.stringify(justUnder).length).toBeLessThanOrEqual(LOG_MAX_BYTES)
    expect((await log(justUnder)).status).toBe(200)
    expect(lines).toHaveLength(1)
  })

  it('40 concurrent lines from one address: 10 logged, 30 TOO_MANY_REQUESTS; another address still logs', async () => {
    const lines: unknown[] = []
    vi.spyOn(console, 'log').mockImplementation((line) => void lines.push(line))
    const ip = address()
    await freshWindowRoom()
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (async () => read(await log({ ...LINE, action: `burst.${i}` }, ip)))()),
    )
    expect(answers.filter((a) => a.result === 'SUCCESS')).toHaveLength(10)
    expect(answers.filter((a) => a.code === 'TOO_MANY_REQUESTS')).toHaveLength(30)
    expect(lines).toHaveLength(10)
    expect((await log(LINE)).status).toBe(200)
  })

  it('1,000 generated bad bodies: never a 5xx, only catalogue codes, nothing in D1', async () => {
    const users = () => env.DB.prepare('SELECT count(*) AS n FROM users').first<number>('n')
    const before = await users()
    vi.spyOn(console, 'log').mockImplementation(() => undefined)
    const record = fc.record(
      {
        logType: fc.oneof(fc.constantFrom('ERROR', 'INFO'), str),
        platform: fc.oneof(fc.constantFrom('WEB', 'IOS_APP', 'ANDROID'), str),
        ip: str,
        date: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          str,
        ),
        url: str,
        action: str,
        data: fc.anything(),
      },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map(anyJson), record.map(anyJson)), types, async (body, type) => {
        const res = await request(app, '/api/v1/logger', {
          method: 'POST',
          headers: { ...(type ? { 'content-type': type } : {}), 'cf-connecting-ip': address() },
          body,
        })
        await expectApiAnswer(res, body.slice(0, 200))
        expect(res.headers.get('x-d1-queries')).toBeNull()
      }),
      { numRuns: 1000 },
    )
    expect(await users()).toBe(before)
  })
})

describe('PUT /api/v1/app/push (spec §7), bad input', () => {
  it("1,000 generated bad bodies: never a 5xx, only catalogue codes; the reader's settings unchanged", async () => {
    const t = await tokensFor((await makeUser()).email)
    const settings = async () => (await read(await json('GET', '/api/v1/user/push', undefined, bearer(t.accessToken.value)))).data
    const before = await settings()
    const flag = fc.oneof(fc.constant('yes'), fc.constant(1), fc.constant(null), str)
    const record = fc.record(
      { isAgreePush: flag, isAgreePushNight: flag, isAgreePushFreetime: flag, isAgreePushContents: flag, isAgreeMail: flag },
      { requiredKeys: [] },
    )
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map(anyJson), record.map(anyJson)), types, async (body, type) => {
        const res = await request(app, '/api/v1/app/push', {
          method: 'PUT',
          headers: { ...(type ? { 'content-type': type } : {}), ...bearer(t.accessToken.value) },
          body,
        })
        await expectApiAnswer(res, body.slice(0, 200))
      }),
      { numRuns: 1000 },
    )
    expect(await settings()).toEqual(before)
  })
})
