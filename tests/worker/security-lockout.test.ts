/**
 * Lock out the attacker, not the owner (issue 26 point 4), on real workerd + D1 through the app's router:
 * wrong passwords count per account AND client address (CF-Connecting-IP, as Cloudflare sets it), so the
 * address that guessed gets DUPLICATE_LOGIN for the hour while the owner signing in from elsewhere gets in.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { PASSWORD, expectError, json, makeUser, read } from './account.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const OWNER = '198.51.100.9'
/** One attacker address per test: the per-address limit of sign-ins (10 a minute) must not mix the tests. */
let attackers = 0
const attacker = () => `203.0.113.${++attackers}`
const signInFrom = (ip: string, email: string, password: string, extra: Record<string, string> = {}) =>
  json('POST', '/api/v1/auth/sign-in', { email, password }, { 'cf-connecting-ip': ip, ...extra })

describe('password failures per account and address', () => {
  it('40 parallel wrong passwords from one address: at most 5 evaluated; that address locked, the owner elsewhere signs in', async () => {
    const user = await makeUser()
    const ATTACKER = attacker()
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => read(await signInFrom(ATTACKER, user.email, `Wrong-${i}-pass`))),
    )
    expect(answers.filter((a) => a.code === 'INVALID_PASSWORD').length).toBeLessThanOrEqual(5)
    expect(answers.filter((a) => a.code === 'DUPLICATE_LOGIN').length).toBeGreaterThanOrEqual(35)
    // the attacker's address stays locked, even with the right password
    await expectError(await signInFrom(ATTACKER, user.email, PASSWORD), 429, 'DUPLICATE_LOGIN')
    // the owner, from home, gets in
    expect((await signInFrom(OWNER, user.email, PASSWORD)).status).toBe(200)
    // and the owner's success does not lift the attacker's lock
    await expectError(await signInFrom(ATTACKER, user.email, PASSWORD), 429, 'DUPLICATE_LOGIN')
  })

  it('a forged X-Real-IP does not move the attacker to a fresh bucket', async () => {
    const user = await makeUser()
    const ATTACKER = attacker()
    for (let i = 0; i < 5; i++)
      await expectError(await signInFrom(ATTACKER, user.email, `Wrong-${i}-pass`, { 'x-real-ip': `10.0.0.${i}` }), 401, 'INVALID_PASSWORD')
    await expectError(await signInFrom(ATTACKER, user.email, `Wrong-x-pass`, { 'x-real-ip': '10.9.9.9' }), 429, 'DUPLICATE_LOGIN')
  })

  it('a password reset lifts the locks of every address', async () => {
    const user = await makeUser()
    const ATTACKER = attacker()
    for (let i = 0; i < 6; i++) await signInFrom(ATTACKER, user.email, `Wrong-${i}-pass`)
    await expectError(await signInFrom(ATTACKER, user.email, PASSWORD), 429, 'DUPLICATE_LOGIN')
    await json('POST', '/api/v1/auth/mail/password', { email: user.email })
    const mail = await env.DB.prepare(`SELECT body FROM outbox WHERE recipient = ? AND template = 'reset-password' ORDER BY id DESC`)
      .bind(user.email)
      .first<string>('body')
    const url = new URL(/https?:\/\/\S+/.exec(mail!)![0])
    expect(
      (
        await json('POST', '/api/v1/auth/local/reset/password', {
          userId: user.id,
          uuid: url.searchParams.get('uuid'),
          newPassword: 'Brand-new-2026',
        })
      ).status,
    ).toBe(200)
    expect((await signInFrom(ATTACKER, user.email, 'Brand-new-2026')).status).toBe(200)
  })
})
