/**
 * Password life cycle on real workerd + D1 (spec §4/§5/§7/§8/§9, issue 3 item 5): change password, reset by
 * e-mail link (1 hour, single use, FREQUENT_REQUEST within 5 minutes), find ID and find password by SMS code
 * (10 minutes, NOT_FOUND_SMS_USER, ALREADY_SEND_SMS, ALREADY_USE_SMS), every flow read through the outbox, and
 * every refusal leaving the account as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import {
  PASSWORD,
  app,
  bearer,
  db,
  expectError,
  form,
  freshPhone,
  json,
  latestResetLink,
  latestSmsCode,
  makeUser,
  otherCode,
  outboxFor,
  passwordHashOf,
  read,
  signIn,
  tokensFor,
  webCookie,
} from './account.helpers.ts'
import { request } from './app.ts'
import { deriveKeys } from '../../src/features/auth/tokens.ts'
import { openSession } from '../../src/features/session/cookie.ts'
import { openFoundIds } from '../../src/features/account/found-ids.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const change = (token: string, body: Record<string, string>) => json('PUT', '/api/v1/auth/local/change/password', body, bearer(token))
const resetMail = (email: string) => json('POST', '/api/v1/auth/mail/password', { email })
const reset = (body: Record<string, unknown>) => json('POST', '/api/v1/auth/local/reset/password', body)
const smsSend = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  json('POST', '/api/v1/auth/sms/send', body, headers)
const smsVerify = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  json('POST', '/api/v1/auth/sms/verify', body, headers)
const refresh = (t: { accessToken: { value: string }; refreshToken: { value: string } }) =>
  json('POST', '/api/v1/auth/refresh', { accessToken: t.accessToken.value, refreshToken: t.refreshToken.value })

describe('change password (PUT /api/v1/auth/local/change/password)', () => {
  it('needs a signed-in reader', async () => {
    await expectError(
      await json('PUT', '/api/v1/auth/local/change/password', { oldPassword: PASSWORD, newPassword: 'abc123' }),
      401,
      'NOT_LOGIN_USER',
    )
  })

  it('refuses each rule with its code and changes nothing', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    const before = await passwordHashOf(user.id)
    await expectError(
      await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: 'abc123', newPasswordConfirm: 'abc124' }),
      400,
      'INCORRECT_PASSWORD',
    )
    await expectError(await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: 'ab12' }), 400, 'INVALID_PW_REGEX') // under 6
    await expectError(await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: 'lettersonly' }), 400, 'INVALID_PW_REGEX')
    await expectError(await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: '12345678' }), 400, 'INVALID_PW_REGEX')
    await expectError(await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: PASSWORD }), 400, 'EQUAL_PASSWORD')
    await expectError(await change(t.accessToken.value, { oldPassword: 'Wrong-2026!', newPassword: 'abc123' }), 400, 'INCORRECT_PASSWORD')
    expect(await passwordHashOf(user.id)).toBe(before)
    expect((await signIn(user.email)).status).toBe(200)
    expect((await refresh(t)).status).toBe(200) // the session is untouched
  })

  it('changes the password (6 characters, letters and digits), ends the other sessions and returns a new pair', async () => {
    const user = await makeUser()
    const other = await tokensFor(user.email)
    const t = await tokensFor(user.email)
    const res = await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: 'abc123' })
    expect(res.status).toBe(200)
    const pair = (await read(res)).data
    expect(pair.refreshToken.value).toMatch(new RegExp(`^${user.id}\\.[A-Za-z0-9_-]{43}$`))
    await expectError(await signIn(user.email), 401, 'INVALID_PASSWORD')
    expect((await signIn(user.email, 'abc123')).status).toBe(200)
    await expectError(await refresh(other), 401, 'NOT_FOUND_REFRESH_TOKEN')
    expect((await refresh(pair)).status).toBe(200)
  })

  it('answers NOT_LOCAL_LOGIN_USER for a social-only account', async () => {
    const user = await makeUser({ social: true })
    const { issueTokens } = await import('../../src/features/auth/auth.server.ts')
    const { createDb } = await import('../../src/lib/server/db.ts')
    const pair = await issueTokens(createDb(env.DB), user.id, { issuer: 'https://fr.bomtoon.example', t: (k) => k })
    await expectError(
      await change(pair.accessToken.value, { oldPassword: 'anything1', newPassword: 'abc123' }),
      400,
      'NOT_LOCAL_LOGIN_USER',
    )
  })

  it('locks after 5 wrong current passwords within the hour (DUPLICATE_LOGIN), the password unchanged', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    for (let i = 0; i < 5; i++)
      await expectError(await change(t.accessToken.value, { oldPassword: `Wrong-${i}x`, newPassword: 'abc123' }), 400, 'INCORRECT_PASSWORD')
    await expectError(await change(t.accessToken.value, { oldPassword: PASSWORD, newPassword: 'abc123' }), 429, 'DUPLICATE_LOGIN')
    expect((await signIn(user.email)).status).toBe(200)
  })

  it('works as a plain form: the cookie is replaced, errors come back to the page', async () => {
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    const bad = await form(
      '/api/v1/auth/web/change-password',
      { oldPassword: PASSWORD, newPassword: 'abc123', newPasswordConfirm: 'abc999' },
      { cookie },
    )
    expect(bad.status).toBe(303)
    expect(bad.headers.get('location')).toBe('/user/changePassword?error=INCORRECT_PASSWORD')
    const res = await form(
      '/api/v1/auth/web/change-password',
      { oldPassword: PASSWORD, newPassword: 'abc123', newPasswordConfirm: 'abc123' },
      { cookie },
    )
    expect(res.headers.get('location')).toBe('/user/changePassword?done=1')
    const fresh = /wt_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
    expect(fresh).toBeTruthy()
    expect((await request(app, '/api/v1/user/me', { headers: { cookie: `wt_session=${fresh}` } })).status).toBe(200)
    // the old cookie's session ended with the change: its refresh token is revoked
    const keys = await deriveKeys('test-session-secret-0123456789abcdef')
    const old = await openSession(keys, /wt_session=([^;]+)/.exec(cookie)?.[1])
    await expectError(await refresh(old!), 401, 'NOT_FOUND_REFRESH_TOKEN')
    // a guest is sent to the login page
    const guest = await form('/api/v1/auth/web/change-password', { oldPassword: 'abc123', newPassword: 'abc456' })
    expect(guest.headers.get('location')).toBe('/user/login?callback=%2Fuser%2FchangePassword')
  })
})

describe('reset by e-mail link', () => {
  it('mails a 1-hour single-use link; the new password works, every session ends, a notice is mailed', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    expect(await read(await resetMail(user.email.toUpperCase()))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    const link = await latestResetLink(user.email)
    expect(link.url.startsWith('https://fr.bomtoon.example/user/resetPassword?')).toBe(true)
    expect(link.userId).toBe(user.id)
    const row = await db()
      .prepare(`SELECT created_at, expires_at, code_hash FROM one_time_codes WHERE kind = 'RESET_LINK' AND user_id = ? ORDER BY id DESC`)
      .bind(user.id)
      .first<{ created_at: string; expires_at: string; code_hash: string }>()
    expect(Date.parse(row!.expires_at) - Date.parse(row!.created_at)).toBe(3_600_000)
    expect(row!.code_hash).not.toContain(link.uuid) // only a hash is stored
    expect(
      await read(await reset({ userId: link.userId, uuid: link.uuid, newPassword: 'Fresh2026x', newPasswordConfirm: 'Fresh2026x' })),
    ).toEqual({ result: 'SUCCESS', data: { result: 'SUCCESS' } })
    expect((await signIn(user.email, 'Fresh2026x')).status).toBe(200)
    await expectError(await refresh(t), 401, 'NOT_FOUND_REFRESH_TOKEN')
    expect(await outboxFor(user.email, 'password-changed')).toHaveLength(1)
    // single use
    await expectError(await reset({ userId: link.userId, uuid: link.uuid, newPassword: 'Other2026x' }), 410, 'TIMEOUT')
    expect((await signIn(user.email, 'Fresh2026x')).status).toBe(200)
  })

  it('answers the same for an unknown address and mails nothing', async () => {
    const email = `nobody-${Date.now()}@example.com`
    const res = await resetMail(email)
    expect(res.status).toBe(200)
    expect(await read(res)).toEqual({ result: 'SUCCESS', data: { sent: true } })
    expect(await outboxFor(email)).toHaveLength(0)
  })

  it('tells a social-only account to use its provider (same answer to the caller)', async () => {
    const user = await makeUser({ social: true })
    expect(await read(await resetMail(user.email))).toEqual({ result: 'SUCCESS', data: { sent: true } })
    expect(await outboxFor(user.email, 'reset-not-local')).toHaveLength(1)
    expect(await outboxFor(user.email, 'reset-password')).toHaveLength(0)
  })

  it('refuses a second request within 5 minutes (FREQUENT_REQUEST) for known and unknown addresses alike', async () => {
    const user = await makeUser()
    expect((await resetMail(user.email)).status).toBe(200)
    await expectError(await resetMail(user.email), 429, 'FREQUENT_REQUEST')
    expect(await outboxFor(user.email, 'reset-password')).toHaveLength(1)
    const unknown = `nobody-${Date.now()}@example.com`
    expect((await resetMail(unknown)).status).toBe(200)
    await expectError(await resetMail(unknown), 429, 'FREQUENT_REQUEST')
    // after the 5 minutes a new link is sent and the older one stops working
    const first = await latestResetLink(user.email)
    await db()
      .prepare(`UPDATE rate_limits SET reset_at = ? WHERE bucket = ?`)
      .bind(new Date(Date.now() - 1000).toISOString(), `reset-mail:${user.email}`)
      .run()
    expect((await resetMail(user.email)).status).toBe(200)
    const second = await latestResetLink(user.email)
    expect(second.uuid).not.toBe(first.uuid)
    await expectError(await reset({ userId: user.id, uuid: first.uuid, newPassword: 'Fresh2026x' }), 410, 'TIMEOUT')
    expect((await reset({ userId: user.id, uuid: second.uuid, newPassword: 'Fresh2026x' })).status).toBe(200)
  })

  it('refuses an expired, forged or foreign link (TIMEOUT) and bad passwords, changing nothing', async () => {
    const user = await makeUser()
    const other = await makeUser()
    await resetMail(user.email)
    const link = await latestResetLink(user.email)
    const before = await passwordHashOf(user.id)
    await expectError(await reset({ userId: user.id, uuid: link.uuid, newPassword: 'short1' }), 400, 'INVALID_PW_REGEX') // reset: 8 to 20
    await expectError(await reset({ userId: user.id, uuid: link.uuid, newPassword: 'a1'.repeat(11) }), 400, 'INVALID_PW_REGEX')
    await expectError(
      await reset({ userId: user.id, uuid: link.uuid, newPassword: 'Fresh2026x', newPasswordConfirm: 'Fresh2026y' }),
      400,
      'INCORRECT_PASSWORD',
    )
    await expectError(await reset({ userId: user.id, uuid: link.uuid, newPassword: PASSWORD }), 400, 'EQUAL_PASSWORD')
    await expectError(await reset({ userId: other.id, uuid: link.uuid, newPassword: 'Fresh2026x' }), 410, 'TIMEOUT')
    await expectError(await reset({ userId: user.id, uuid: link.uuid.slice(0, -2) + 'AA', newPassword: 'Fresh2026x' }), 410, 'TIMEOUT')
    await expectError(await reset({ userId: 'x', uuid: link.uuid, newPassword: 'Fresh2026x' }), 400, 'INVALID_PARAMETER')
    expect(await passwordHashOf(user.id)).toBe(before)
    // past its hour
    await db()
      .prepare(`UPDATE one_time_codes SET expires_at = ? WHERE kind = 'RESET_LINK' AND user_id = ?`)
      .bind(new Date(Date.now() - 1).toISOString(), user.id)
      .run()
    await expectError(await reset({ userId: user.id, uuid: link.uuid, newPassword: 'Fresh2026x' }), 410, 'TIMEOUT')
    expect(await passwordHashOf(user.id)).toBe(before)
  })

  it('plain forms: request, rule error back on the form, result page', async () => {
    const user = await makeUser()
    const sent = await form('/api/v1/auth/web/reset-mail', { email: user.email })
    // the address is named by the page from a one-minute cookie of that page, never carried in the URL
    expect(sent.headers.get('location')).toBe('/user/findPassword?tab=email&sent=1')
    const cookie = sent.headers.get('set-cookie') ?? ''
    expect(cookie).toContain(`reset-mail-sent=${encodeURIComponent(user.email)};`)
    expect(cookie).toMatch(/Path=\/user\/findPassword;.*HttpOnly/i)
    const link = await latestResetLink(user.email)
    const bad = await form('/api/v1/auth/web/reset-password', {
      userId: String(user.id),
      uuid: link.uuid,
      newPassword: 'short1',
      newPasswordConfirm: 'short1',
    })
    expect(bad.headers.get('location')).toBe(`/user/resetPassword?userId=${user.id}&uuid=${link.uuid}&error=INVALID_PW_REGEX`)
    const good = await form('/api/v1/auth/web/reset-password', {
      userId: String(user.id),
      uuid: link.uuid,
      newPassword: 'Fresh2026x',
      newPasswordConfirm: 'Fresh2026x',
    })
    expect(good.headers.get('location')).toBe('/user/resetPassword/result?result=SUCCESS')
    const again = await form('/api/v1/auth/web/reset-password', {
      userId: String(user.id),
      uuid: link.uuid,
      newPassword: 'Fresh2026y',
      newPasswordConfirm: 'Fresh2026y',
    })
    expect(again.headers.get('location')).toBe('/user/resetPassword/result?result=TIMEOUT')
    // from another site: refused, nothing sent
    const before = (await outboxFor(user.email)).length
    const cross = await form('/api/v1/auth/web/reset-mail', { email: user.email }, { origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(await outboxFor(user.email)).toHaveLength(before)
  })
})

describe('find password by phone ID (SMS code)', () => {
  it('sends a 10-minute code, verifies it, and the ticket resets the password once', async () => {
    const phone = freshPhone()
    const user = await makeUser({ phone })
    const sent = await read(
      await smsSend({ purpose: 'FIND_PASSWORD', phone: phone.replace('+33', '+33 ').replace(/(\d{2})(?=\d)/g, '$1 '), id: user.email }),
    )
    expect(sent.result).toBe('SUCCESS')
    expect(Date.parse(sent.data.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000)
    expect(Date.parse(sent.data.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000)
    expect(sent.data.phone.endsWith(phone.slice(-4))).toBe(true)
    const code = await latestSmsCode(phone)
    await expectError(
      await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code: otherCode(code) }),
      400,
      'NOT_FOUND_SMS_USER',
    )
    const ok = await read(await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code }))
    expect(ok.data).toMatchObject({ purpose: 'FIND_PASSWORD', userId: user.id })
    await expectError(await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code }), 409, 'ALREADY_USE_SMS')
    expect((await reset({ userId: user.id, uuid: ok.data.uuid, newPassword: 'Phone2026x' })).status).toBe(200)
    expect((await signIn(user.email, 'Phone2026x')).status).toBe(200)
  })

  it('refuses a second code while the first is valid (ALREADY_SEND_SMS), and sends again once it is over', async () => {
    const phone = freshPhone()
    const user = await makeUser({ phone })
    expect((await smsSend({ purpose: 'FIND_PASSWORD', phone, id: user.email })).status).toBe(200)
    const res = await smsSend({ purpose: 'FIND_PASSWORD', phone, id: user.email })
    await expectError(res.clone(), 409, 'ALREADY_SEND_SMS')
    expect(await outboxFor(phone)).toHaveLength(1)
    await db()
      .prepare(`UPDATE one_time_codes SET expires_at = ? WHERE kind = 'SMS' AND target = ?`)
      .bind(new Date(Date.now() - 1).toISOString(), phone)
      .run()
    const old = await latestSmsCode(phone)
    await expectError(await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code: old }), 410, 'EXPIRED_OTP')
    expect((await smsSend({ purpose: 'FIND_PASSWORD', phone, id: user.email })).status).toBe(200)
    expect(await outboxFor(phone)).toHaveLength(2)
  })

  it('NOT_FOUND_SMS_USER without a requested code; EXCEED_AUTH_COUNT after 5 wrong codes', async () => {
    const phone = freshPhone()
    const user = await makeUser({ phone })
    await expectError(await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code: '123456' }), 400, 'NOT_FOUND_SMS_USER')
    await smsSend({ purpose: 'FIND_PASSWORD', phone, id: user.email })
    const code = await latestSmsCode(phone)
    for (let i = 0; i < 5; i++)
      await expectError(
        await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code: otherCode(code) }),
        400,
        'NOT_FOUND_SMS_USER',
      )
    await expectError(await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code }), 409, 'EXCEED_AUTH_COUNT')
  })

  it('answers NOT_FOUND_USER to the phone holder for an ID not on that phone; the code then still works', async () => {
    const phone = freshPhone()
    const user = await makeUser({ phone })
    const stranger = await makeUser()
    await smsSend({ purpose: 'FIND_PASSWORD', phone, id: stranger.email })
    const code = await latestSmsCode(phone)
    await expectError(await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: stranger.email, code }), 404, 'NOT_FOUND_USER')
    expect((await smsVerify({ purpose: 'FIND_PASSWORD', phone, id: user.email, code })).status).toBe(200)
  })

  it('limits codes to 5 per phone per day (EXCEED_AUTH_COUNT)', async () => {
    const phone = freshPhone()
    for (let i = 0; i < 5; i++) {
      expect((await smsSend({ purpose: 'FIND_ID', phone })).status).toBe(200)
      await db()
        .prepare(`UPDATE one_time_codes SET expires_at = ? WHERE kind = 'SMS' AND target = ?`)
        .bind(new Date(Date.now() - 1).toISOString(), phone)
        .run()
    }
    await expectError(await smsSend({ purpose: 'FIND_ID', phone }), 409, 'EXCEED_AUTH_COUNT')
    expect(await outboxFor(phone)).toHaveLength(5)
  })

  it('plain forms: code step with the phone kept out of the URL, a wrong code with its tries left, then the reset page', async () => {
    const phone = freshPhone()
    const user = await makeUser({ phone })
    const digits = phone.replace(/\D/g, '').slice(-7)
    const sent = await form('/api/v1/auth/web/sms-send', { purpose: 'FIND_PASSWORD', phone, id: user.email })
    expect(sent.headers.get('location')).toBe('/user/findPassword?tab=phone&step=code')
    // the phone and ID go to the code step in the page's own httpOnly cookie, as long as the code lives (issue 25 §3)
    const pending = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('sms-pending='))
    expect(pending(sent)).toMatch(/Max-Age=600; Path=\/user\/findPassword; HttpOnly; SameSite=Lax/)
    expect(JSON.parse(decodeURIComponent(pending(sent)!.split(';')[0]!.slice('sms-pending='.length)))).toEqual({
      purpose: 'FIND_PASSWORD',
      phone,
      id: user.email,
    })
    const again = await form('/api/v1/auth/web/sms-send', { purpose: 'FIND_PASSWORD', phone, id: user.email })
    expect(again.headers.get('location')).toBe('/user/findPassword?tab=phone&step=code&error=ALREADY_SEND_SMS')
    expect(pending(again)).toContain('Path=/user/findPassword')
    const code = await latestSmsCode(phone)
    const wrong = await form('/api/v1/auth/web/sms-verify', { purpose: 'FIND_PASSWORD', phone, id: user.email, code: otherCode(code) })
    expect(wrong.headers.get('location')).toContain('step=code&error=NOT_FOUND_SMS_USER')
    // the page is told which field and how many tries are left (issue 25 point 3), in the one-read flash cookie
    const flash = wrong.headers.getSetCookie().find((c) => c.startsWith('form-flash='))!
    expect(flash).toMatch(/Path=\/user\/findPassword(;|$)/)
    expect(JSON.parse(decodeURIComponent(flash.split(';')[0]!.slice('form-flash='.length)))).toEqual({
      code: 'NOT_FOUND_SMS_USER',
      field: 'code',
      values: { phone, id: user.email },
      attemptsLeft: 4,
    })
    const ok = await form('/api/v1/auth/web/sms-verify', { purpose: 'FIND_PASSWORD', phone, id: user.email, code })
    expect(ok.headers.get('location')).toMatch(new RegExp(`^/user/resetPassword\\?userId=${user.id}&uuid=[A-Za-z0-9_-]{43}$`))
    // once verified the pending phone is forgotten; no answer ever put the number in a location
    expect(pending(ok)).toMatch(/^sms-pending=; Max-Age=0; Path=\/user\/findPassword/)
    for (const res of [sent, again, wrong, ok]) expect(res.headers.get('location')).not.toContain(digits)
  })
})

describe('find ID by phone', () => {
  it('shows at most 20 IDs of the phone, masked', async () => {
    const phone = freshPhone()
    const users = []
    for (let i = 0; i < 22; i++) users.push(await makeUser({ phone }))
    await smsSend({ purpose: 'FIND_ID', phone })
    const res = await read(await smsVerify({ purpose: 'FIND_ID', phone, code: await latestSmsCode(phone) }))
    expect(res.data.total).toBe(22)
    expect(res.data.ids).toHaveLength(20)
    expect(res.data.ids[0]).toBe(`ac${'*'.repeat(users[0]!.email.indexOf('@') - 2)}@example.com`)
    for (const id of res.data.ids) expect(users.map((u) => u.email)).not.toContain(id)
  })

  it('NOT_REGISTERED_PHONE_USER for a phone without accounts', async () => {
    const phone = freshPhone()
    await smsSend({ purpose: 'FIND_ID', phone })
    await expectError(await smsVerify({ purpose: 'FIND_ID', phone, code: await latestSmsCode(phone) }), 404, 'NOT_REGISTERED_PHONE_USER')
  })

  it('plain form: the result goes to the result page in an encrypted 10-minute cookie, never in the URL', async () => {
    const phone = freshPhone()
    await makeUser({ phone, email: `findme-${Date.now()}@example.com` })
    await form('/api/v1/auth/web/sms-send', { purpose: 'FIND_ID', phone })
    const res = await form('/api/v1/auth/web/sms-verify', { purpose: 'FIND_ID', phone, code: await latestSmsCode(phone) })
    expect(res.headers.get('location')).toBe('/user/findId?step=result')
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('wt_find_id=')) ?? ''
    expect(setCookie).toMatch(/^wt_find_id=[^;]+; Max-Age=600; Path=\/user\/findId; HttpOnly; SameSite=Lax$/)
    expect(setCookie).not.toContain('findme')
    const keys = await deriveKeys((env as unknown as Record<string, string>).SESSION_SECRET!)
    const value = /wt_find_id=([^;]+)/.exec(setCookie)![1]
    expect(await openFoundIds(keys, value)).toEqual({ ids: [expect.stringMatching(/^fi\*+@example\.com$/)], total: 1 })
    // what a crafted link can bring along opens to nothing: the result page then starts at the phone step
    expect(await openFoundIds(keys, 'made-up%40evil.example')).toBeNull()
    expect(await openFoundIds(keys, /wt_session=([^;]+)/.exec(await webCookie((await makeUser()).email))?.[1])).toBeNull()
  })
})

describe('phone registration (SMS code, signed in)', () => {
  it('registers the phone of the signed-in reader, which then finds the account', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    const phone = freshPhone()
    await expectError(await smsSend({ purpose: 'PHONE', phone }), 401, 'NOT_LOGIN_USER')
    expect((await smsSend({ purpose: 'PHONE', phone }, bearer(t.accessToken.value))).status).toBe(200)
    const code = await latestSmsCode(phone)
    // another reader cannot use the code
    const other = await tokensFor((await makeUser()).email)
    await expectError(await smsVerify({ purpose: 'PHONE', phone, code }, bearer(other.accessToken.value)), 400, 'NOT_FOUND_SMS_USER')
    expect((await smsVerify({ purpose: 'PHONE', phone, code }, bearer(t.accessToken.value))).status).toBe(200)
    expect(await db().prepare('SELECT phone FROM users WHERE id = ?').bind(user.id).first('phone')).toBe(phone)
  })
})

describe('bad input changes nothing', () => {
  it('malformed bodies: 400 INVALID_PARAMETER, no mail, no SMS, no code', async () => {
    const before = await db()
      .prepare('SELECT (SELECT COUNT(*) FROM outbox) + (SELECT COUNT(*) FROM one_time_codes) AS n')
      .first<number>('n')
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v1/auth/mail/password', { email: 42 }],
      ['POST', '/api/v1/auth/mail/password', {}],
      ['POST', '/api/v1/auth/local/reset/password', { userId: -1, uuid: 'x', newPassword: 'Fresh2026x' }],
      ['POST', '/api/v1/auth/local/reset/password', { userId: 1, uuid: 'x'.repeat(500), newPassword: 'Fresh2026x' }],
      ['POST', '/api/v1/auth/sms/send', { purpose: 'NOPE', phone: '+33612345678' }],
      ['POST', '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: 'call me' }],
      ['POST', '/api/v1/auth/sms/verify', { purpose: 'FIND_ID', phone: '+33612345678', code: '12345' }],
      ['POST', '/api/v1/auth/sms/verify', { purpose: 'FIND_ID', phone: '+33612345678', code: ['123456'] }],
    ]
    for (const [method, path, body] of cases) await expectError(await json(method, path, body), 400, 'INVALID_PARAMETER')
    await expectError(await json('POST', '/api/v1/auth/mail/password', { email: 'not-an-address' }), 400, 'INVALID_MAIL_FORM')
    await expectError(
      await json('POST', '/api/v1/auth/sms/send', { purpose: 'FIND_PASSWORD', phone: '+33612345678', id: 'nope' }),
      400,
      'INVALID_MAIL_FORM',
    )
    expect(await db().prepare('SELECT (SELECT COUNT(*) FROM outbox) + (SELECT COUNT(*) FROM one_time_codes) AS n').first<number>('n')).toBe(
      before,
    )
  })
})
