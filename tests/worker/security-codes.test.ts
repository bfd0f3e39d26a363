/**
 * One-time codes under parallel guessing (issue 26 point 1), on real workerd + D1 through the app's router: every
 * evaluation of a code (SMS, e-mail sign-up OTP, transfer code, reset ticket) spends one of its 5 attempts in the
 * same statement that checks it is unused, unexpired and below the limit, so 40 guesses sent at once get at most
 * 5 evaluations and the right code, arriving after them, is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { appFor, frEdition, frMessages, request } from './app.ts'
import {
  bearer,
  db,
  freshPhone,
  json,
  latestSmsCode,
  makeUser,
  otherCode,
  outboxFor,
  read,
  tokensFor,
  uniq,
  type Body,
} from './account.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

/** 40 requests at once; the right guess is number 21 of 40. Answers in request order. */
async function fortyGuesses(send: (right: boolean, i: number) => Response | Promise<Response>): Promise<Body[]> {
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i === 20, i)))
  return Promise.all(responses.map((r) => read(r)))
}
const count = (answers: Body[], code: string) => answers.filter((a) => a.code === code).length

describe('parallel guesses on one-time codes', () => {
  it('SMS find-password code: at most 5 evaluated, the right code refused (EXCEED_AUTH_COUNT), no reset ticket', async () => {
    const phone = freshPhone()
    const user = await makeUser({ phone })
    expect((await json('POST', '/api/v1/auth/sms/send', { purpose: 'FIND_PASSWORD', phone, id: user.email })).status).toBe(200)
    const code = await latestSmsCode(phone)
    const answers = await fortyGuesses((right) =>
      json('POST', '/api/v1/auth/sms/verify', { purpose: 'FIND_PASSWORD', phone, id: user.email, code: right ? code : otherCode(code) }),
    )
    expect(count(answers, 'NOT_FOUND_SMS_USER')).toBeLessThanOrEqual(5)
    expect(answers[20]).toMatchObject({ result: 'ERROR', code: 'EXCEED_AUTH_COUNT' })
    expect(answers.filter((a) => a.result === 'SUCCESS')).toHaveLength(0)
    const tickets = await db()
      .prepare(`SELECT COUNT(*) AS n FROM one_time_codes WHERE kind = 'RESET_LINK' AND user_id = ?`)
      .bind(user.id)
      .first<number>('n')
    expect(tickets).toBe(0)
    // the code stays refused afterwards too
    expect(
      await read(await json('POST', '/api/v1/auth/sms/verify', { purpose: 'FIND_PASSWORD', phone, id: user.email, code })),
    ).toMatchObject({ code: 'EXCEED_AUTH_COUNT' })
  })

  it('e-mail sign-up OTP: at most 5 evaluated, the right code refused (EXPIRED_OTP: resend), the address unverified', async () => {
    const email = `race-${uniq()}@example.com`
    expect(
      (await json('POST', '/api/v1/auth/sign-up', { email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true }))
        .status,
    ).toBe(200)
    const [mail] = await outboxFor(email, 'signup-otp')
    const code = /\b(\d{6})\b/.exec(mail!.body)![1]!
    const answers = await fortyGuesses((right) => json('POST', '/api/v1/auth/verify-otp', { email, code: right ? code : otherCode(code) }))
    expect(count(answers, 'INVALID_PARAMETER')).toBeLessThanOrEqual(5)
    expect(answers[20]).toMatchObject({ result: 'ERROR', code: 'EXPIRED_OTP' })
    expect(await db().prepare('SELECT email_verified_at FROM users WHERE email = ?').bind(email).first('email_verified_at')).toBeNull()
  })

  it('account-transfer code: at most 5 evaluated, the right code refused, the transfer ended in ERROR', async () => {
    const app = appFor({ ...frEdition, features: { ...frEdition.features, transfer: true } }, frMessages)
    const call = (method: string, path: string, token?: string, body?: unknown) =>
      request(app, path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await call('POST', '/api/v1/user/transfer/start', t.accessToken.value)
    await call('POST', '/api/v1/user/transfer/request', t.accessToken.value, { agree: true })
    const [mail] = await outboxFor(user.email, 'transfer-code')
    const code = /\b([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\b/.exec(mail!.body)![1]!
    // wrong guesses share the code's first 4 characters, so each one counts against this transfer
    const wrong = (i: number) => `${code.slice(0, 12)}${'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'[i % 32]}${code.at(-1) === 'A' ? 'B' : 'A'}`
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('POST', '/api/v1/user/transfer/redeem', undefined, { code: i === 20 ? code : wrong(i) })),
    )
    const answers = await Promise.all(responses.map((r) => read(r)))
    expect(answers.filter((a) => a.result === 'SUCCESS')).toHaveLength(0)
    expect(answers.filter((a) => a.code === 'NOT_FOUND_USER' || a.code === 'EXCEED_AUTH_COUNT').length).toBe(40)
    expect(count(answers, 'EXCEED_AUTH_COUNT')).toBe(1) // the 5th evaluation ends the transfer
    expect((await read(await call('GET', '/api/v1/user/transfer', t.accessToken.value))).data).toMatchObject({
      status: 'ERROR',
      errorReason: 'ATTEMPTS',
    })
  })

  it('reset ticket: 40 submissions of one ticket at once change the password exactly once', async () => {
    const user = await makeUser()
    expect((await json('POST', '/api/v1/auth/mail/password', { email: user.email })).status).toBe(200)
    const [mail] = await outboxFor(user.email, 'reset-password')
    const u = new URL(/https?:\/\/\S+/.exec(mail!.body)![0])
    const uuid = u.searchParams.get('uuid')!
    const answers = await fortyGuesses((_, i) =>
      json('POST', '/api/v1/auth/local/reset/password', { userId: user.id, uuid, newPassword: `Fresh-${i}x2026` }),
    )
    expect(answers.filter((a) => a.result === 'SUCCESS')).toHaveLength(1)
    expect(count(answers, 'TIMEOUT')).toBe(39)
  })
})
