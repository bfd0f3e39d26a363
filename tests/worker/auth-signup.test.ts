/**
 * Sign-up completion on real workerd + D1 (spec §4/§8/§9): the 6-digit e-mail OTP (1 hour, single use,
 * INVALID_PARAMETER / EXPIRED_OTP with resend), sign-in refused until the address is verified, the two
 * sign-up cookies (1 hour), the plain-form web flow and the dev outbox page's data.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, expectError, read, request } from './app.ts'
import { seedDemo } from './seed.ts'

const app = appFor()
const ORIGIN = 'http://localhost'
const json = (path: string, body: unknown) =>
  request(app, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const db = () => env.DB
let seq = 0
const freshEmail = () => `otp${Date.now()}-${++seq}@example.com`
const PASSWORD = 'Newbie-2026'

const signUp = (email: string) => json('/api/v1/auth/sign-up', { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true })
const signIn = (email: string, password = PASSWORD) => json('/api/v1/auth/sign-in', { email, password })
const verify = (email: string, code: string) => json('/api/v1/auth/verify-otp', { email, code })
const resend = (email: string) => json('/api/v1/auth/resend-otp', { email })
async function latestOtp(email: string) {
  const mail = await db()
    .prepare(`SELECT body FROM outbox WHERE recipient = ? AND template = 'signup-otp' ORDER BY id DESC LIMIT 1`)
    .bind(email)
    .first<{ body: string }>()
  return /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1]
}
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('POST /api/v1/auth/verify-otp', () => {
  it('completes the sign-up: sign-in is refused (INVALID_EMAIL) until the mailed code is entered, then works', async () => {
    const email = freshEmail()
    const res = await signUp(email)
    expect(res.status).toBe(200)
    // the two sign-up cookies, one hour
    const cookies = res.headers.getSetCookie()
    for (const name of ['is-sign-up', 'login-callback-finished']) {
      const c = cookies.find((v) => v.startsWith(`${name}=`))
      expect(c, name).toMatch(/Max-Age=3600/)
      expect(c, name).toMatch(/Path=\//)
    }
    await expectError(await signIn(email), 400, 'INVALID_EMAIL')
    // a wrong password still answers as for anyone: the unverified state is not revealed to a guesser
    await expectError(await signIn(email, 'Wrong-2026!'), 401, 'INVALID_PASSWORD')
    const code = (await latestOtp(email))!
    expect(await read(await verify(email.toUpperCase(), code))).toEqual({ result: 'SUCCESS', data: { verified: true } })
    expect(await db().prepare('SELECT email_verified_at FROM users WHERE email = ?').bind(email).first('email_verified_at')).not.toBeNull()
    expect((await signIn(email)).status).toBe(200)
    // single use: the same code again
    await expectError(await verify(email, code), 409, 'ALREADY_AUTH_MAIL')
  })

  it('answers a wrong code with INVALID_PARAMETER; the right one still works', async () => {
    const email = freshEmail()
    await signUp(email)
    const code = (await latestOtp(email))!
    await expectError(await verify(email, otherCode(code)), 400, 'INVALID_PARAMETER')
    expect((await verify(email, code)).status).toBe(200)
  })

  it('spends the code after 5 wrong guesses (EXPIRED_OTP), and a resent code works while the old one does not', async () => {
    const email = freshEmail()
    await signUp(email)
    const code = (await latestOtp(email))!
    for (let i = 0; i < 5; i++) await expectError(await verify(email, otherCode(code)), 400, 'INVALID_PARAMETER')
    await expectError(await verify(email, code), 410, 'EXPIRED_OTP')
    expect(await read(await resend(email))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    const fresh = (await latestOtp(email))!
    if (fresh !== code) await expectError(await verify(email, code), 400, 'INVALID_PARAMETER')
    expect((await verify(email, fresh)).status).toBe(200)
  })

  it('refuses a code older than 1 hour (EXPIRED_OTP) and accepts a resent one', async () => {
    const email = freshEmail()
    await signUp(email)
    const code = (await latestOtp(email))!
    await db()
      .prepare(`UPDATE one_time_codes SET expires_at = ? WHERE kind = 'EMAIL_OTP' AND target = ?`)
      .bind(new Date(Date.now() - 1000).toISOString(), email)
      .run()
    await expectError(await verify(email, code), 410, 'EXPIRED_OTP')
    await resend(email)
    expect((await verify(email, (await latestOtp(email))!)).status).toBe(200)
  })

  it('refuses malformed bodies and unknown addresses with INVALID_PARAMETER', async () => {
    for (const code of ['12345', '1234567', 'abcdef', 123456])
      await expectError(await verify('reader@example.com', code as string), 400, 'INVALID_PARAMETER')
    await expectError(await verify(freshEmail(), '123456'), 400, 'INVALID_PARAMETER')
  })
})

describe('POST /api/v1/auth/resend-otp', () => {
  it('answers unknown and verified addresses the same way and mails nobody', async () => {
    const unknown = freshEmail()
    expect(await read(await resend(unknown))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    expect(await read(await resend('reader@example.com'))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    expect(
      await db().prepare('SELECT COUNT(*) AS n FROM outbox WHERE recipient IN (?, ?)').bind(unknown, 'reader@example.com').first('n'),
    ).toBe(0)
  })

  it('allows 3 mails per address per 5 minutes (FREQUENT_REQUEST)', async () => {
    const email = freshEmail()
    await signUp(email)
    for (let i = 0; i < 3; i++) expect((await resend(email)).status).toBe(200)
    await expectError(await resend(email), 429, 'FREQUENT_REQUEST')
    expect(await db().prepare(`SELECT COUNT(*) AS n FROM outbox WHERE recipient = ?`).bind(email).first('n')).toBe(4)
  })
})

describe('POST /api/v1/user/mail/auth (spec §7: the sign-up OTP again, by account id)', () => {
  const mailAuth = (userId: unknown) => json('/api/v1/user/mail/auth', { userId })
  const idOf = async (email: string) => (await db().prepare('SELECT id FROM users WHERE email = ?').bind(email).first<number>('id'))!
  const otpMails = (email: string) =>
    db().prepare(`SELECT COUNT(*) AS n FROM outbox WHERE recipient = ? AND template = 'signup-otp'`).bind(email).first<number>('n')

  it('mails a new code for a pending sign-up: the old code stops working, the new one verifies', async () => {
    const email = freshEmail()
    await signUp(email)
    const first = (await latestOtp(email))!
    expect(await read(await mailAuth(await idOf(email)))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    expect(await otpMails(email)).toBe(2)
    const second = (await latestOtp(email))!
    if (second !== first) await expectError(await verify(email, first), 400, 'INVALID_PARAMETER')
    expect((await verify(email, second)).status).toBe(200)
    // verified now: the same answer, and no more mail
    expect(await read(await mailAuth(String(await idOf(email))))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    expect(await otpMails(email)).toBe(2)
  })

  it('answers unknown and verified ids like pending ones, and limits each id to 3 per 5 minutes', async () => {
    const reader = await idOf('reader@example.com')
    const before = await db().prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')
    for (const id of [reader, 987_654_321]) {
      for (let i = 0; i < 3; i++) expect(await read(await mailAuth(id))).toEqual({ result: 'SUCCESS', data: { sent: true } })
      await expectError(await mailAuth(id), 429, 'FREQUENT_REQUEST')
    }
    expect(await db().prepare('SELECT COUNT(*) AS n FROM outbox').first<number>('n')).toBe(before)
    const email = freshEmail()
    await signUp(email)
    const id = await idOf(email)
    for (let i = 0; i < 3; i++) expect((await mailAuth(id)).status).toBe(200)
    await expectError(await mailAuth(id), 429, 'FREQUENT_REQUEST')
    expect(await otpMails(email)).toBe(4)
  })

  it('refuses a body without a positive integer id (INVALID_PARAMETER)', async () => {
    for (const userId of [undefined, 0, -1, 1.5, 'abc', '', true, null, '1e3', 2 ** 60])
      await expectError(await mailAuth(userId), 400, 'INVALID_PARAMETER')
  })
})

const form = (path: string, fields: Record<string, string>, origin: string | null = ORIGIN) =>
  request(app, path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: new URLSearchParams(fields).toString(),
  })
const location = (res: Response) => new URL(res.headers.get('location')!, ORIGIN)

describe('web sign-up forms (no JavaScript)', () => {
  it('signs up, goes to the OTP step, verifies, and is signed in (home without a callback)', async () => {
    const email = freshEmail()
    const res = await form('/api/v1/auth/web/sign-up', { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: 'on' })
    expect(res.status).toBe(303)
    expect(location(res).pathname).toBe('/user/signup')
    expect(Object.fromEntries(location(res).searchParams)).toEqual({ step: 'otp' })
    // the code step's address is in a cookie of the sign-up pages, not in the URL
    expect(res.headers.getSetCookie().find((c) => c.startsWith('signup-email='))).toMatch(
      new RegExp(`^signup-email=${encodeURIComponent(email)}; Max-Age=3600; Path=/user/signup; HttpOnly; SameSite=Lax`),
    )
    expect(res.headers.getSetCookie().filter((c) => /^(is-sign-up|login-callback-finished)=/.test(c))).toHaveLength(2)
    expect(await db().prepare('SELECT is_agree_mail FROM users WHERE email = ?').bind(email).first('is_agree_mail')).toBe(0)

    const wrong = await form('/api/v1/auth/web/verify-otp', { email, code: otherCode((await latestOtp(email))!) })
    expect(Object.fromEntries(location(wrong).searchParams)).toEqual({ step: 'otp', error: 'INVALID_PARAMETER' })
    const again = await form('/api/v1/auth/web/resend-otp', { email })
    expect(location(again).searchParams.get('resent')).toBe('1')
    const done = await form('/api/v1/auth/web/verify-otp', { email, code: (await latestOtp(email))! })
    expect(done.headers.get('location')).toBe('/')
    expect(done.headers.getSetCookie().some((c) => c.startsWith('wt_session='))).toBe(true)
  })

  it('sends the rules back as translated error codes, the e-mail kept in the flash cookie, not the URL', async () => {
    const email = freshEmail()
    const cases: [Record<string, string>, string][] = [
      [{ email, password: PASSWORD, passwordConfirm: PASSWORD }, 'INVALID_PARAMETER'], // terms not ticked
      [{ email, password: PASSWORD, passwordConfirm: 'Other-2026', agreeTerms: 'on' }, 'INCORRECT_PASSWORD'],
      [{ email, password: 'short', passwordConfirm: 'short', agreeTerms: 'on' }, 'INVALID_PW_REGEX'],
      [{ email: 'nope', password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: 'on' }, 'INVALID_MAIL_FORM'],
      [{ email }, 'INVALID_PARAMETER'],
    ]
    for (const [fields, code] of cases) {
      const res = await form('/api/v1/auth/web/sign-up', fields)
      expect(location(res).searchParams.get('error'), code).toBe(code)
      expect(location(res).searchParams.get('email')).toBeNull()
      const flash = res.headers.getSetCookie().find((c) => c.startsWith('form-flash='))!
      expect(JSON.parse(decodeURIComponent(flash.split(';')[0]!.slice('form-flash='.length))).values.email).toBe(fields.email)
      expect(res.headers.getSetCookie().some((c) => c.startsWith('is-sign-up='))).toBe(false)
    }
    expect(await db().prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(email).first('n')).toBe(0)
  })

  it('refuses the forms from another Origin (403) and writes nothing', async () => {
    const email = freshEmail()
    for (const origin of ['https://evil.example', null]) {
      const res = await form('/api/v1/auth/web/sign-up', { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: 'on' }, origin)
      expect(res.status).toBe(403)
    }
    expect(await db().prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(email).first('n')).toBe(0)
  })
})
