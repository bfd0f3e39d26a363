/**
 * Per-address and per-edition limits (issue 26 point 3), on real workerd + D1 through the app's router, with the
 * Workers Rate Limiting bindings simulated by the local runtime (vitest.config.ts mirrors wrangler.jsonc): one
 * address spraying sign-ins over many accounts, pumping SMS to many numbers or signing up many strangers is
 * stopped after the address's allowance (10 attempts / 5 sends a minute), and an edition as a whole after its own
 * (100 sends a minute). The address is CF-Connecting-IP only: a forged X-Real-IP changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { appFor, frEdition, frMessages, read, request } from './app.ts'
import { PASSWORD, expectError, json, makeUser, outboxFor } from './account.helpers.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import th from '../../editions/th/edition.json'
import { checkLimits } from '../../src/features/auth/limits.server.ts'

/** How long a request of a busy edition waits before its answer (limits.server.ts). */
const EDITION_BUSY_DELAY_MS = 1_000

beforeAll(async () => {
  await seedDemo(env.DB)
})

/** The limits count in wall-clock minutes: a burst starts with at least 20 s of its minute left. */
async function freshWindowRoom() {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 50))
}
let hosts = 0
const address = () => `192.0.2.${++hosts}`
const mobile = (n: number) => `+3366${String(Date.now() % 1e5).padStart(5, '0')}${String(n).padStart(2, '0')}`

describe('per-address limits', () => {
  it('40 sign-ins to 40 accounts from one address: at most 10 evaluated, the rest DUPLICATE_LOGIN; another address signs in', async () => {
    const users = await Promise.all(Array.from({ length: 40 }, () => makeUser()))
    const ip = address()
    await freshWindowRoom()
    const answers = await Promise.all(
      users.map(async (u) =>
        read(
          await json(
            'POST',
            '/api/v1/auth/sign-in',
            { email: u.email, password: 'Spray-2026!' },
            { 'cf-connecting-ip': ip, 'x-real-ip': `10.1.1.${hosts}` },
          ),
        ),
      ),
    )
    expect(answers.filter((a) => a.code === 'INVALID_PASSWORD').length).toBeLessThanOrEqual(10)
    expect(answers.filter((a) => a.code === 'DUPLICATE_LOGIN').length).toBeGreaterThanOrEqual(30)
    expect(
      (await json('POST', '/api/v1/auth/sign-in', { email: users[0]!.email, password: PASSWORD }, { 'cf-connecting-ip': address() }))
        .status,
    ).toBe(200)
  })

  it('10 SMS to 10 numbers from one address (forged X-Real-IP each time): 5 sent, the rest ALREADY_SEND_SMS', async () => {
    const ip = address()
    const phones = Array.from({ length: 10 }, (_, i) => mobile(i))
    await freshWindowRoom()
    const answers = await Promise.all(
      phones.map(async (phone, i) =>
        read(
          await json(
            'POST',
            '/api/v1/auth/sms/send',
            { purpose: 'FIND_ID', phone },
            { 'cf-connecting-ip': ip, 'x-real-ip': `10.2.2.${i}` },
          ),
        ),
      ),
    )
    expect(answers.filter((a) => a.result === 'SUCCESS')).toHaveLength(5)
    expect(answers.filter((a) => a.code === 'ALREADY_SEND_SMS')).toHaveLength(5)
    const sent = (await Promise.all(phones.map((p) => outboxFor(p)))).flat()
    expect(sent).toHaveLength(5)
  })

  it('15 sign-ups from one address: 5 mailed, the rest FREQUENT_REQUEST with no account and no mail', async () => {
    const ip = address()
    const emails = Array.from({ length: 15 }, (_, i) => `stranger-${Date.now()}-${i}@example.com`)
    await freshWindowRoom()
    const answers = await Promise.all(
      emails.map(async (email) =>
        read(
          await json(
            'POST',
            '/api/v1/auth/sign-up',
            { email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true },
            { 'cf-connecting-ip': ip },
          ),
        ),
      ),
    )
    expect(answers.filter((a) => a.result === 'SUCCESS')).toHaveLength(5)
    expect(answers.filter((a) => a.code === 'FREQUENT_REQUEST')).toHaveLength(10)
    expect((await Promise.all(emails.map((e) => outboxFor(e)))).flat()).toHaveLength(5)
    const accounts = await env.DB.prepare(`SELECT COUNT(*) AS n FROM users WHERE email LIKE 'stranger-%'`).first<number>('n')
    expect(accounts).toBe(5)
  })

  it('code checks from one address: at most 10 a minute, then FREQUENT_REQUEST', async () => {
    const ip = address()
    await freshWindowRoom()
    const answers = await Promise.all(
      Array.from({ length: 15 }, async (_, i) =>
        read(
          await json(
            'POST',
            '/api/v1/auth/sms/verify',
            { purpose: 'FIND_ID', phone: mobile(50 + i), code: '123456' },
            { 'cf-connecting-ip': ip },
          ),
        ),
      ),
    )
    expect(answers.filter((a) => a.code === 'NOT_FOUND_SMS_USER')).toHaveLength(10)
    expect(answers.filter((a) => a.code === 'FREQUENT_REQUEST')).toHaveLength(5)
  })
})

describe('per-edition limit', () => {
  it('SMS from 101 addresses on one edition: 100 sent in the minute, the 101st ALREADY_SEND_SMS', async () => {
    const app = appFor(parseEdition('th', th), frMessages)
    const send = (i: number) =>
      request(app, '/api/v1/auth/sms/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.18.0.${i}` },
        body: JSON.stringify({
          purpose: 'FIND_ID',
          phone: `+3361${String(Date.now() % 1e4).padStart(4, '0')}${String(i).padStart(3, '0')}`,
        }),
      })
    await freshWindowRoom()
    for (let i = 0; i < 100; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, async (_, j) => read(await send(i + j))))
      expect(
        batch.every((a) => a.result === 'SUCCESS'),
        JSON.stringify(batch.find((a) => a.result !== 'SUCCESS')),
      ).toBe(true)
    }
    await expectError(await send(100), 409, 'ALREADY_SEND_SMS')
  })
})

describe('issue 34 (2): one address never shuts the edition', () => {
  /** `n` requests from one address, 100 at a time; their answers' codes. */
  async function flood(n: number, send: (i: number) => Response | Promise<Response>) {
    const codes: (string | undefined)[] = []
    for (let i = 0; i < n; i += 100)
      codes.push(...(await Promise.all(Array.from({ length: Math.min(100, n - i) }, async (_, j) => (await read(await send(i + j))).code))))
    return codes
  }

  it('620 sign-ins from one address: at most 10 evaluated; then a reader on another address signs in at once', async () => {
    const reader = await makeUser()
    const ip = address()
    await freshWindowRoom()
    const codes = await flood(620, (i) =>
      json('POST', '/api/v1/auth/sign-in', { email: `spray-${i}@example.com`, password: 'Spray-2026!' }, { 'cf-connecting-ip': ip }),
    )
    expect(codes.filter((c) => c === 'DUPLICATE_LOGIN').length).toBeGreaterThanOrEqual(610)
    // the refused ones were not counted on the edition: a sign-in from elsewhere is not slowed (what it answers, not a
    // time: on a loaded machine an unslowed sign-in may take a second)
    expect(await checkLimits('sign-in', { ip: address(), issuer: frEdition.siteUrl })).toBe('passed')
    expect(
      (await json('POST', '/api/v1/auth/sign-in', { email: reader.email, password: PASSWORD }, { 'cf-connecting-ip': address() })).status,
    ).toBe(200)
  }, 60_000)

  it('105 sign-ups from one address: 5 mailed; then a stranger on another address signs up', async () => {
    const ip = address()
    const body = (email: string) => ({ email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true })
    await freshWindowRoom()
    const codes = await flood(105, (i) =>
      json('POST', '/api/v1/auth/sign-up', body(`flood-${Date.now()}-${i}@example.com`), { 'cf-connecting-ip': ip }),
    )
    expect(codes.filter((c) => c === 'FREQUENT_REQUEST')).toHaveLength(100)
    const email = `late-${Date.now()}@example.com`
    expect((await read(await json('POST', '/api/v1/auth/sign-up', body(email), { 'cf-connecting-ip': address() }))).result).toBe('SUCCESS')
    expect(await outboxFor(email)).toHaveLength(1)
  }, 60_000)

  it('610 sign-ins from 610 addresses (a distributed attack): none refused by the edition, those past its 600 slowed', async () => {
    const issuer = `https://spray-${Date.now()}.example.com`
    await freshWindowRoom()
    const timed = async (i: number) => {
      const started = Date.now()
      const answer = await checkLimits('sign-in', { ip: `203.0.${i >> 8}.${i & 255}`, issuer })
      return { answer, ms: Date.now() - started }
    }
    // what each answered, not how long it took: on a loaded machine a check that was not slowed may still take 1 s
    const first = await Promise.all(Array.from({ length: 600 }, (_, i) => timed(i)))
    expect(first.filter((r) => r.answer !== 'passed')).toEqual([])
    const past = await Promise.all(Array.from({ length: 10 }, (_, i) => timed(600 + i)))
    for (const r of past) {
      expect(r.answer).toBe('slowed')
      expect(r.ms).toBeGreaterThanOrEqual(EDITION_BUSY_DELAY_MS - 5) // it did wait
    }
  }, 60_000)
})
