/**
 * Accounts and sessions on real workerd + D1 + readers' objects (issue 3, docs/API.md auth endpoints; sessions in the
 * reader's object since issue 38): sign-up, sign-in with its rate limit, refresh rotation with the session ended on
 * reuse (ASVS 10.4.5), logout, /user/me with Bearer
 * and with the web cookie (refresh at ≤ 5 minutes left), the login form, Origin checks and open redirects.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { decodeJwt, UnsecuredJWT } from 'jose'
import type { MiddlewareHandler } from 'hono'
import { appFor, expectError, frEdition, frMessages, read, request } from './app.ts'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'
import { signInBucket } from '../../src/features/auth/auth.ts'
import { createApp } from '../../functions/app.ts'
import { session } from '../../functions/middleware/session.ts'
import { deriveKeys, hashToken, newRefreshToken, signAccessToken } from '../../src/features/auth/tokens.ts'
import { type Token } from '../../src/lib/tokens.ts'
import { openSession, sealSession } from '../../src/features/session/cookie.ts'
import { execInReader } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'

const e = env as unknown as Record<string, string | undefined>
const ISS = frEdition.siteUrl
const ORIGIN = 'http://localhost'
const app = appFor()
const READER = DEMO_ACCOUNTS.reader
const MINOR = DEMO_ACCOUNTS.minor

const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(app, path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
const signIn = (email: string, password: string) => json('POST', '/api/v1/auth/sign-in', { email, password })
const me = (headers: Record<string, string>) => request(app, '/api/v1/user/me', { headers })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const db = () => env.DB

let seq = 0
const freshEmail = () => `user${Date.now()}-${++seq}@example.com`

async function signUp(email: string, password = 'Newbie-2026') {
  return json('POST', '/api/v1/auth/sign-up', { email, password, passwordConfirm: password, agreeTerms: true })
}
/** The code of the latest OTP mail to `email`, read from the outbox like a reader reads the mail. */
async function latestOtp(email: string) {
  const mail = await db()
    .prepare(`SELECT body FROM outbox WHERE recipient = ? AND template = 'signup-otp' ORDER BY id DESC LIMIT 1`)
    .bind(email)
    .first<{ body: string }>()
  return /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1]
}
const verify = (email: string, code: string) => json('POST', '/api/v1/auth/verify-otp', { email, code })
/** Sign-up completed: the account exists and its address is verified with the mailed OTP. */
async function signUpVerified(email: string, password = 'Newbie-2026') {
  expect((await signUp(email, password)).status).toBe(200)
  expect((await verify(email, (await latestOtp(email))!)).status).toBe(200)
}
async function tokensFor(email: string, password: string) {
  const res = await signIn(email, password)
  expect(res.status).toBe(200)
  return (await read(res)).data as { accessToken: Token; refreshToken: Token; userId: number }
}
const refresh = (accessToken: string, refreshToken: string) => json('POST', '/api/v1/auth/refresh', { accessToken, refreshToken })
/** A refresh token's row in its reader's object (issue 38), with its session's. */
async function tokenRow(userId: number, token: Token) {
  const [row] = await execInReader(
    userId,
    `SELECT t.session_id AS sessionId, t.rotated_at AS rotatedAt, s.ended_at AS endedAt
       FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?`,
    await hashToken(token.value),
  )
  return row as { sessionId: string; rotatedAt: string | null; endedAt: string | null } | undefined
}
/** Sets a column of a refresh token's row in its reader's object (a test's way to age it). */
const ageToken = async (userId: number, token: Token, column: 'rotated_at' | 'expires_at', at: number) =>
  execInReader(
    userId,
    `UPDATE refresh_tokens SET ${column} = ? WHERE token_hash = ?`,
    new Date(at).toISOString(),
    await hashToken(token.value),
  )

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('POST /api/v1/auth/sign-up', () => {
  it('creates the account and puts a 6-digit OTP mail (valid 1 hour) into the outbox', async () => {
    const email = freshEmail()
    const res = await json('POST', '/api/v1/auth/sign-up', {
      email: email.toUpperCase(),
      password: 'Newbie-2026',
      passwordConfirm: 'Newbie-2026',
      agreeTerms: true,
      agreeMail: true,
    })
    expect(await read(res)).toEqual({ result: 'SUCCESS', data: { sent: true } })
    const user = await db()
      .prepare('SELECT id, email, password_hash, is_agree_mail, email_verified_at FROM users WHERE email = ?')
      .bind(email)
      .first<Record<string, unknown>>()
    expect(user).toMatchObject({ email, is_agree_mail: 1, email_verified_at: null })
    expect(String(user!.password_hash)).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1\$/)
    const mail = await db()
      .prepare(`SELECT subject, body FROM outbox WHERE recipient = ? AND template = 'signup-otp'`)
      .bind(email)
      .first<{ subject: string; body: string }>()
    const code = /\b(\d{6})\b/.exec(mail!.body)?.[1]
    expect(code).toBeDefined()
    expect(mail!.subject).toBe(frMessages['auth.mail.otp.subject'])
    const otp = await db()
      .prepare(`SELECT code_hash, created_at, expires_at, user_id FROM one_time_codes WHERE kind = 'EMAIL_OTP' AND target = ?`)
      .bind(email)
      .first<Record<string, string | number>>()
    expect(otp!.user_id).toBe(user!.id)
    expect(String(otp!.code_hash)).not.toContain(code!)
    expect(new Date(String(otp!.expires_at)).getTime() - new Date(String(otp!.created_at)).getTime()).toBe(3600_000)
  })

  it('answers the spec rules with their codes and writes nothing', async () => {
    const email = freshEmail()
    const cases: [Record<string, unknown>, number, string][] = [
      [{ email: 'not-an-email', password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true }, 400, 'INVALID_MAIL_FORM'],
      [{ email, password: 'abcdefgh', passwordConfirm: 'abcdefgh', agreeTerms: true }, 400, 'INVALID_PW_REGEX'],
      [{ email, password: 'Ab1!', passwordConfirm: 'Ab1!', agreeTerms: true }, 400, 'INVALID_PW_REGEX'],
      [{ email, password: 'Abcdefghijklmnopqrst1', passwordConfirm: 'Abcdefghijklmnopqrst1', agreeTerms: true }, 400, 'INVALID_PW_REGEX'],
      [{ email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2027', agreeTerms: true }, 400, 'INCORRECT_PASSWORD'],
      [{ email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: false }, 400, 'INVALID_PARAMETER'],
      [{ email, password: 'Newbie-2026', passwordConfirm: 'Newbie-2026' }, 400, 'INVALID_PARAMETER'],
      [
        { email: 'Reader@Example.com', password: 'Newbie-2026', passwordConfirm: 'Newbie-2026', agreeTerms: true },
        409,
        'ALREADY_USED_EMAIL',
      ],
    ]
    for (const [body, status, code] of cases) await expectError(await json('POST', '/api/v1/auth/sign-up', body), status, code)
    expect(await db().prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(email).first('n')).toBe(0)
    expect(await db().prepare('SELECT COUNT(*) AS n FROM outbox WHERE recipient = ?').bind(email).first('n')).toBe(0)
  })

  it('blocks a withdrawn e-mail for 30 days (DELETED_USER), then lets it sign up again', async () => {
    const recent = freshEmail()
    const old = freshEmail()
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString()
    await db().batch([
      db().prepare('INSERT INTO users (email, deleted_at) VALUES (?, ?)').bind(recent, ago(10)),
      db().prepare('INSERT INTO users (email, deleted_at) VALUES (?, ?)').bind(old, ago(31)),
    ])
    await expectError(await signUp(recent), 403, 'DELETED_USER')
    expect((await signUp(old)).status).toBe(200)
  })

  it('issue 34 (7): the block holds for the mailbox, whatever +tag either address carries', async () => {
    const [local, host] = freshEmail().split('@')
    const ago = new Date(Date.now() - 10 * 86_400_000).toISOString()
    await db().prepare('INSERT INTO users (email, deleted_at) VALUES (?, ?)').bind(`${local}@${host}`, ago).run()
    for (const again of [`${local}+tag@${host}`, `${local}+x+y@${host}`, `${local.toUpperCase()}+Z@${host}`])
      await expectError(await signUp(again), 403, 'DELETED_USER')
    const [l2, h2] = freshEmail().split('@')
    await db().prepare('INSERT INTO users (email, deleted_at) VALUES (?, ?)').bind(`${l2}+old@${h2}`, ago).run()
    await expectError(await signUp(`${l2}@${h2}`), 403, 'DELETED_USER')
    await expectError(await signUp(`${l2}+new@${h2}`), 403, 'DELETED_USER')
    // another mailbox whose name merely starts the same is not blocked; LIKE's own characters mean nothing
    expect((await signUp(`${l2}x@${h2}`)).status).toBe(200)
    expect((await signUp(`${l2.slice(0, -1)}_@${h2}`)).status).toBe(200)
  })
})

describe('POST /api/v1/auth/sign-in', () => {
  it("returns the token pair and user id; the refresh token is stored only hashed, in the reader's object", async () => {
    const data = await tokensFor(READER.email, READER.password)
    expect(data.userId).toBe(READER.id)
    expect(data.refreshToken.value.startsWith(`${READER.id}.`)).toBe(true)
    expect(new Date(data.accessToken.expiredAt).getTime() - Date.now()).toBeGreaterThan(14 * 60_000)
    expect(new Date(data.refreshToken.expiredAt).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000)
    expect(await tokenRow(READER.id, data.refreshToken)).toMatchObject({ rotatedAt: null, endedAt: null })
    expect(await execInReader(READER.id, `SELECT token_hash FROM refresh_tokens WHERE token_hash = ?`, data.refreshToken.value)).toEqual([])
    // nothing of it in D1
    expect(await db().prepare('SELECT COUNT(*) AS n FROM refresh_tokens WHERE user_id = ?').bind(READER.id).first('n')).toBe(0)
  })

  it('answers a wrong password and an unknown e-mail with the same status', async () => {
    const wrong = await signIn(MINOR.email, 'Wrong-2026!')
    const unknown = await signIn(freshEmail(), 'Wrong-2026!')
    expect(wrong.status).toBe(unknown.status)
    await expectError(wrong, 401, 'INVALID_PASSWORD')
    await expectError(unknown, 401, 'NOT_REGISTERED_USER')
  })

  it('locks an e-mail for the hour after 5 failures (DUPLICATE_LOGIN), even with the right password; others are not affected', async () => {
    const email = freshEmail()
    const other = freshEmail()
    await signUpVerified(email)
    await signUpVerified(other)
    for (let i = 0; i < 5; i++) await expectError(await signIn(email, 'Wrong-pass-1'), 401, 'INVALID_PASSWORD')
    await expectError(await signIn(email, 'Newbie-2026'), 429, 'DUPLICATE_LOGIN')
    await expectError(await signIn(email.toUpperCase(), 'Newbie-2026'), 429, 'DUPLICATE_LOGIN')
    expect((await signIn(other, 'Newbie-2026')).status).toBe(200)
    // the hour is over: the lock lifts
    await db()
      .prepare(`UPDATE rate_limits SET reset_at = ? WHERE bucket = ?`)
      .bind(new Date(Date.now() - 1000).toISOString(), signInBucket(email, null))
      .run()
    expect((await signIn(email, 'Newbie-2026')).status).toBe(200)
  })

  it('forgets earlier failures after a successful sign-in', async () => {
    const email = freshEmail()
    await signUpVerified(email)
    for (let i = 0; i < 4; i++) await signIn(email, 'Wrong-pass-1')
    expect((await signIn(email, 'Newbie-2026')).status).toBe(200)
    for (let i = 0; i < 4; i++) await expectError(await signIn(email, 'Wrong-pass-1'), 401, 'INVALID_PASSWORD')
    expect((await signIn(email, 'Newbie-2026')).status).toBe(200)
  })

  it('starts a new session (token family) at every sign-in (ASVS 7.2.4)', async () => {
    const a = await tokensFor(MINOR.email, MINOR.password)
    const b = await tokensFor(MINOR.email, MINOR.password)
    const [sa, sb] = [(await tokenRow(MINOR.id, a.refreshToken))!.sessionId, (await tokenRow(MINOR.id, b.refreshToken))!.sessionId]
    expect(sa).not.toBe(sb)
  })
})

describe('POST /api/v1/auth/refresh and PUT /api/v1/auth/logout', () => {
  it('rotates the pair; the old refresh token never works again', async () => {
    const first = await tokensFor(READER.email, READER.password)
    const res = await refresh(first.accessToken.value, first.refreshToken.value)
    const body = await read(res)
    expect(res.status).toBe(200)
    expect(body.data.email).toBe(READER.email)
    expect(Object.keys(body.data).sort()).toEqual(['accessToken', 'email', 'ipAddress', 'refreshToken'])
    expect(body.data.refreshToken.value).not.toBe(first.refreshToken.value)
    expect((await me(bearer(body.data.accessToken.value))).status).toBe(200)
    await expectError(await refresh(first.accessToken.value, first.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
  })

  it('ends the whole session when a rotated token is replayed (ASVS 10.4.5)', async () => {
    const first = await tokensFor(READER.email, READER.password)
    const second = (await read(await refresh(first.accessToken.value, first.refreshToken.value))).data
    // an attacker replays the stolen first token later than the 30 s grace: refused, and the owner's current token dies with it
    await ageToken(READER.id, first.refreshToken, 'rotated_at', Date.now() - 31_000)
    expect((await me(bearer(second.accessToken.value))).status).toBe(200)
    await expectError(await refresh(first.accessToken.value, first.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    await expectError(await refresh(second.accessToken.value, second.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    expect((await tokenRow(READER.id, first.refreshToken))!.endedAt).not.toBeNull()
    // the session's access token still within its 15 minutes is refused at once too
    expect((await me(bearer(second.accessToken.value))).status).toBe(401)
  })

  it('refuses a token rotated less than 30 s ago without ending the session (two tabs refreshing at once)', async () => {
    const first = await tokensFor(READER.email, READER.password)
    const second = (await read(await refresh(first.accessToken.value, first.refreshToken.value))).data
    await expectError(await refresh(first.accessToken.value, first.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    // the tab that won keeps its session
    expect((await refresh(second.accessToken.value, second.refreshToken.value)).status).toBe(200)
  })

  it('lets exactly one of 40 simultaneous refreshes with one token win, and the winner stays signed in', async () => {
    const t = await tokensFor(MINOR.email, MINOR.password)
    const results = await Promise.all(Array.from({ length: 40 }, () => refresh(t.accessToken.value, t.refreshToken.value)))
    const losers = await Promise.all(results.filter((r) => r.status !== 200).map(read))
    expect(losers.map((b) => b.code)).toEqual(Array(39).fill('NOT_FOUND_REFRESH_TOKEN'))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    const winner = results.find((r) => r.status === 200)!
    const { accessToken, refreshToken } = (await read(winner)).data
    expect((await refresh(accessToken.value, refreshToken.value)).status).toBe(200)
  })

  it('answers an expired refresh token with EXPIRED_REFRESH_TOKEN and unknown ones with NOT_FOUND_REFRESH_TOKEN', async () => {
    const t = await tokensFor(MINOR.email, MINOR.password)
    await ageToken(MINOR.id, t.refreshToken, 'expires_at', Date.now() - 1000)
    await expectError(await refresh(t.accessToken.value, t.refreshToken.value), 401, 'EXPIRED_REFRESH_TOKEN')
    await expectError(await refresh(t.accessToken.value, newRefreshToken(MINOR.id).value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    await expectError(
      await refresh(t.accessToken.value, newRefreshToken(MINOR.id).value.slice(`${MINOR.id}.`.length)),
      401,
      'NOT_FOUND_REFRESH_TOKEN',
    )
    await expectError(await refresh(t.accessToken.value, 'short'), 401, 'NOT_FOUND_REFRESH_TOKEN')
  })

  it("refuses another account's access token next to my refresh token, and changes nothing", async () => {
    const mine = await tokensFor(MINOR.email, MINOR.password)
    const theirs = await tokensFor(READER.email, READER.password)
    await expectError(await refresh(theirs.accessToken.value, mine.refreshToken.value), 401, 'MALFORMED_JWT')
    expect((await refresh(mine.accessToken.value, mine.refreshToken.value)).status).toBe(200)
  })

  it('logout ends the session, its access token at once too; other sessions stay; an unknown token is a no-op', async () => {
    const t = await tokensFor(MINOR.email, MINOR.password)
    const other = await tokensFor(MINOR.email, MINOR.password)
    expect((await me(bearer(t.accessToken.value))).status).toBe(200)
    const res = await json('PUT', '/api/v1/auth/logout', { refreshToken: t.refreshToken.value })
    expect(await read(res)).toEqual({ result: 'SUCCESS', data: {} })
    await expectError(await refresh(t.accessToken.value, t.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
    expect((await me(bearer(t.accessToken.value))).status).toBe(401)
    expect((await me(bearer(other.accessToken.value))).status).toBe(200)
    // sent again (a retry): the same answer, nothing more changes
    expect((await json('PUT', '/api/v1/auth/logout', { refreshToken: t.refreshToken.value })).status).toBe(200)
    expect((await refresh(other.accessToken.value, other.refreshToken.value)).status).toBe(200)
    for (const unknown of [newRefreshToken(MINOR.id).value, newRefreshToken(MINOR.id).value.slice(`${MINOR.id}.`.length), 'short'])
      expect((await json('PUT', '/api/v1/auth/logout', { refreshToken: unknown })).status).toBe(200)
  })

  it('40 logouts with one token at once end its session once; its access token is refused at once by every route', async () => {
    const t = await tokensFor(MINOR.email, MINOR.password)
    const { sessionId } = (await tokenRow(MINOR.id, t.refreshToken))!
    const outs = await Promise.all(
      Array.from({ length: 40 }, () => json('PUT', '/api/v1/auth/logout', { refreshToken: t.refreshToken.value })),
    )
    expect(outs.map((r) => r.status)).toEqual(Array(40).fill(200))
    const endedAt = () => execInReader(MINOR.id, `SELECT ended_at AS at FROM sessions WHERE id = ?`, sessionId)
    const ended = await endedAt()
    expect(ended).toEqual([{ at: expect.stringMatching(/^\d{4}-/) }])
    // the session check (middleware) and the routes that check it in their own call to the reader's object
    for (const path of ['/api/v1/user/me', '/api/v1/coin', '/api/v1/library/favorite'])
      await expectError(await request(app, path, { headers: bearer(t.accessToken.value) }), 401, 'NEED_TO_REFRESH')
    // a logout again changes nothing
    expect((await json('PUT', '/api/v1/auth/logout', { refreshToken: t.refreshToken.value })).status).toBe(200)
    expect(await endedAt()).toEqual(ended)
  })

  it("a session started before sessions moved into readers' objects (its tokens in D1) refreshes once moved; its old token is then a replay", async () => {
    const email = freshEmail()
    await signUpVerified(email)
    const userId = (await db().prepare('SELECT id FROM users WHERE email = ?').bind(email).first<number>('id'))!
    const keys = await deriveKeys(e.SESSION_SECRET!)
    const legacy = newRefreshToken(userId).value.slice(`${userId}.`.length) // the former shape: no reader id
    const created = new Date(Date.now() - 3_600_000).toISOString()
    await db()
      .prepare(
        `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, client_kind, created_at, expires_at) VALUES (?, ?, 'legacy-family', ?, 'WEB', ?, ?)`,
      )
      .bind(`legacy-${userId}`, userId, await hashToken(legacy), created, new Date(Date.now() + 86_400_000).toISOString())
      .run()
    const access = await signAccessToken(keys, userId, ISS, new Date(Date.now() - 3_600_000), 0, 'legacy-family')
    const res = await refresh(access.value, legacy)
    expect(res.status).toBe(200)
    const fresh = (await read(res)).data as { accessToken: Token; refreshToken: Token }
    expect(fresh.refreshToken.value.startsWith(`${userId}.`)).toBe(true)
    expect(await db().prepare('SELECT COUNT(*) AS n FROM refresh_tokens WHERE user_id = ?').bind(userId).first('n')).toBe(0)
    expect((await me(bearer(fresh.accessToken.value))).status).toBe(200)
    await ageToken(userId, { value: legacy, expiredAt: '' }, 'rotated_at', Date.now() - 31_000)
    await expectError(await refresh(access.value, legacy), 401, 'NOT_FOUND_REFRESH_TOKEN')
    await expectError(await refresh(fresh.accessToken.value, fresh.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
  })
})

describe('GET /api/v1/user/me', () => {
  it('gives the reader their own user and coin balances (unexpired lots per type)', async () => {
    const t = await tokensFor(READER.email, READER.password)
    const res = await me(bearer(t.accessToken.value))
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toContain('no-store')
    const { user, coin } = (await read(res)).data
    expect(user).toMatchObject({ id: READER.id, email: READER.email, isAdult: true })
    expect(Object.keys(user).sort()).toEqual([
      'agreePush',
      'birthedAt',
      'email',
      'id',
      'isAdult',
      'isAdultKr',
      'isAgreeMail',
      'isBlToggle',
      'isKrIpUser',
      'name',
      'nickname',
      'purchaseCount',
      'showAdult',
      'snsId',
      'snsProvider',
    ])
    const results = await readerRows.all<{ type: string; n: number }>(
      READER.id,
      `SELECT type, SUM(remaining) AS n FROM coin_lots WHERE user_id = ? AND remaining > 0 AND (expires_at IS NULL OR expires_at > ?) GROUP BY type`,
      READER.id,
      new Date().toISOString(),
    )
    const sum = (type: string) => results.find((r) => r.type === type)?.n ?? 0
    expect(coin).toEqual({
      coin: sum('COIN'),
      freeCoin: sum('FREE_COIN'),
      bonus: sum('BONUS'),
      mileage: sum('MILEAGE'),
      total: sum('COIN') + sum('FREE_COIN') + sum('BONUS'),
    })
    expect(coin.coin).toBeGreaterThan(0)
  })

  it("never shows another account's data: each token reads its own account", async () => {
    const minor = await tokensFor(MINOR.email, MINOR.password)
    const { user } = (await read(await me(bearer(minor.accessToken.value)))).data
    expect(user.id).toBe(MINOR.id)
    expect(user.email).toBe(MINOR.email)
    // the id in the URL or query is never used
    const res = await request(app, `/api/v1/user/me?userId=${READER.id}`, { headers: bearer(minor.accessToken.value) })
    expect((await read(res)).data.user.id).toBe(MINOR.id)
  })

  it('refuses missing, forged, foreign and alg=none tokens (NOT_LOGIN_USER) and asks for a refresh on expired ones', async () => {
    const keys = await deriveKeys(e.SESSION_SECRET!)
    await expectError(await me({}), 401, 'NOT_LOGIN_USER')
    await expectError(await me(bearer('garbage')), 401, 'NOT_LOGIN_USER')
    await expectError(await me({ authorization: 'Basic abc' }), 401, 'NOT_LOGIN_USER')
    const none = new UnsecuredJWT({})
      .setSubject(String(READER.id))
      .setIssuer(ISS)
      .setAudience(ISS)
      .setIssuedAt()
      .setNotBefore('0s')
      .setExpirationTime('10m')
      .encode()
    await expectError(await me(bearer(none)), 401, 'NOT_LOGIN_USER')
    const forged = await signAccessToken(await deriveKeys('attacker-secret-0123456789abcdefghijkl'), READER.id, ISS)
    await expectError(await me(bearer(forged.value)), 401, 'NOT_LOGIN_USER')
    const otherEdition = await signAccessToken(keys, READER.id, 'https://jp.bomtoon.example')
    await expectError(await me(bearer(otherEdition.value)), 401, 'NOT_LOGIN_USER')
    const expired = await signAccessToken(keys, READER.id, ISS, new Date(Date.now() - 16 * 60_000))
    await expectError(await me(bearer(expired.value)), 401, 'NEED_TO_REFRESH')
  })
})

const form = (fields: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) =>
  request(app, '/api/v1/auth/web/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })
const cookieOf = (res: Response) => /wt_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]

describe('web session (login form and wt_session cookie)', () => {
  it('signs in through the form: encrypted HttpOnly Lax cookie, redirect to the callback', async () => {
    const res = await form({ email: READER.email, password: READER.password, callback: '/gift?x=1' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/gift?x=1')
    const setCookie = res.headers.get('set-cookie')!
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    expect(setCookie).toMatch(/Path=\//)
    expect(setCookie).not.toMatch(/Secure/i) // http://localhost; https gets Secure
    const value = cookieOf(res)!
    expect(value.split('.')).toHaveLength(5)
    const meRes = await me({ cookie: `wt_session=${value}` })
    expect((await read(meRes)).data.user.id).toBe(READER.id)
  })

  it('sets Secure on https', async () => {
    const res = await request(app, 'https://fr.example/api/v1/auth/web/sign-in', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://fr.example' },
      body: new URLSearchParams({ email: READER.email, password: READER.password }).toString(),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('set-cookie')).toMatch(/Secure/)
  })

  it('never redirects off-site (callback) and shows errors on the login page', async () => {
    for (const callback of ['https://evil.example/', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await form({ email: READER.email, password: READER.password, callback })
      expect(res.headers.get('location'), callback).toBe('/')
    }
    const bad = await form({ email: READER.email, password: 'nope', callback: '/gift' })
    expect(bad.status).toBe(303)
    const to = new URL(bad.headers.get('location')!, ORIGIN)
    expect(to.pathname).toBe('/user/login')
    expect(to.searchParams.get('error')).toBe('INVALID_PASSWORD')
    expect(to.searchParams.get('callback')).toBe('/gift')
    expect(cookieOf(bad)).toBeUndefined()
    const malformed = await form({ email: READER.email })
    expect(new URL(malformed.headers.get('location')!, ORIGIN).searchParams.get('error')).toBe('INVALID_PARAMETER')
  })

  it('refuses the form from another Origin or without one (login CSRF)', async () => {
    await expectError(
      await form({ email: READER.email, password: READER.password }, { origin: 'https://evil.example' }),
      403,
      'FORBIDDEN_ORIGIN',
    )
    await expectError(await form({ email: READER.email, password: READER.password }, {}), 403, 'FORBIDDEN_ORIGIN')
  })

  it('refreshes the cookie when 5 minutes or less are left and keeps the reader signed in', async () => {
    const t = await tokensFor(READER.email, READER.password)
    const keys = await deriveKeys(e.SESSION_SECRET!)
    const { sv, sid } = decodeJwt<{ sv: number; sid: string }>(t.accessToken.value)
    // the same session's access token, signed 11 min ago: 4 min left
    const oldAccess = await signAccessToken(keys, READER.id, ISS, new Date(Date.now() - 11 * 60_000), sv, sid)
    const cookie = await sealSession(keys, { accessToken: oldAccess, refreshToken: t.refreshToken })
    const res = await me({ cookie: `wt_session=${cookie}` })
    expect(res.status).toBe(200)
    const renewed = await openSession(keys, cookieOf(res))
    expect(renewed!.refreshToken.value).not.toBe(t.refreshToken.value)
    expect(new Date(renewed!.accessToken.expiredAt).getTime() - Date.now()).toBeGreaterThan(14 * 60_000)
    // the rotated token inside the old cookie is now spent
    await expectError(await refresh(t.accessToken.value, t.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
  })

  it('keeps the other tab signed in when two tabs refresh one cookie within 30 s; a later replay logs out', async () => {
    const t = await tokensFor(READER.email, READER.password)
    const keys = await deriveKeys(e.SESSION_SECRET!)
    const { sv, sid } = decodeJwt<{ sv: number; sid: string }>(t.accessToken.value)
    // the same session's access token, signed 11 min ago: 4 min left
    const oldAccess = await signAccessToken(keys, READER.id, ISS, new Date(Date.now() - 11 * 60_000), sv, sid)
    const cookie = `wt_session=${await sealSession(keys, { accessToken: oldAccess, refreshToken: t.refreshToken })}`
    const tabA = await me({ cookie })
    expect(tabA.status).toBe(200)
    const renewed = cookieOf(tabA)!
    // tab B sent the same cookie a moment later: served with its still-valid access token, the cookie left alone
    const tabB = await me({ cookie })
    expect(tabB.status).toBe(200)
    expect(tabB.headers.get('set-cookie')).toBeNull()
    expect((await me({ cookie: `wt_session=${renewed}` })).status).toBe(200)
    // the same old cookie after the grace: a replay; the cookie is cleared and the family revoked
    await ageToken(READER.id, t.refreshToken, 'rotated_at', Date.now() - 31_000)
    const late = await me({ cookie })
    expect(late.headers.get('set-cookie')).toMatch(/wt_session=;/)
    const web = (await openSession(keys, renewed))!
    await expectError(await refresh(web.accessToken.value, web.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
  })

  it('keeps a cookie with plenty of time left as it is', async () => {
    const res = await form({ email: MINOR.email, password: MINOR.password })
    const again = await me({ cookie: `wt_session=${cookieOf(res)}` })
    expect(again.status).toBe(200)
    expect(again.headers.get('set-cookie')).toBeNull()
  })

  it('clears the cookie when the refresh token has expired (spec §4: logged out)', async () => {
    const t = await tokensFor(MINOR.email, MINOR.password)
    const keys = await deriveKeys(e.SESSION_SECRET!)
    await ageToken(MINOR.id, t.refreshToken, 'expires_at', Date.now() - 1000)
    const expiredAccess = await signAccessToken(keys, MINOR.id, ISS, new Date(Date.now() - 20 * 60_000))
    const cookie = await sealSession(keys, { accessToken: expiredAccess, refreshToken: t.refreshToken })
    const res = await me({ cookie: `wt_session=${cookie}` })
    await expectError(res, 401, 'NOT_LOGIN_USER')
    expect(res.headers.get('set-cookie')).toMatch(/wt_session=;.*Max-Age=0/i)
  })

  it('treats a forged cookie as no session and clears it', async () => {
    const res = await me({ cookie: 'wt_session=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aaaa.bbbb.cccc' })
    await expectError(res, 401, 'NOT_LOGIN_USER')
    expect(res.headers.get('set-cookie')).toMatch(/wt_session=;/)
  })

  it('refuses a cookie-authenticated logout from another Origin and changes nothing', async () => {
    const res = await form({ email: MINOR.email, password: MINOR.password })
    const value = cookieOf(res)!
    const keys = await deriveKeys(e.SESSION_SECRET!)
    const web = (await openSession(keys, value))!
    const put = await json(
      'PUT',
      '/api/v1/auth/logout',
      { refreshToken: web.refreshToken.value },
      { cookie: `wt_session=${value}`, origin: 'https://evil.example' },
    )
    await expectError(put, 403, 'FORBIDDEN_ORIGIN')
    const post = await request(app, '/api/v1/auth/web/logout', {
      method: 'POST',
      headers: { cookie: `wt_session=${value}`, origin: 'https://evil.example' },
    })
    await expectError(post, 403, 'FORBIDDEN_ORIGIN')
    expect((await me({ cookie: `wt_session=${value}` })).status).toBe(200)
    expect((await refresh(web.accessToken.value, web.refreshToken.value)).status).toBe(200)
  })

  it('web logout ends the session server-side and clears the cookie', async () => {
    const res = await form({ email: MINOR.email, password: MINOR.password })
    const value = cookieOf(res)!
    const web = (await openSession(await deriveKeys(e.SESSION_SECRET!), value))!
    const out = await request(app, '/api/v1/auth/web/logout', {
      method: 'POST',
      headers: { cookie: `wt_session=${value}`, origin: ORIGIN },
      redirect: 'manual',
    })
    expect(out.status).toBe(303)
    expect(out.headers.get('set-cookie')).toMatch(/wt_session=;/)
    await expectError(await refresh(web.accessToken.value, web.refreshToken.value), 401, 'NOT_FOUND_REFRESH_TOKEN')
  })
})

describe('session middleware in front of pages', () => {
  const page: MiddlewareHandler = async (c) => c.html(`<!doctype html><title>${c.req.path}</title>`)
  const pagesApp = createApp({ edition: frEdition, messages: frMessages, pages: [session as unknown as MiddlewareHandler, page] })

  it('sends a protected page with a dead cookie to the login route and clears the cookie', async () => {
    const res = await pagesApp.request(new Request('http://localhost/gift?porch=app', { headers: { cookie: 'wt_session=forged' } }))
    expect(res.status).toBe(302)
    const to = new URL(res.headers.get('location')!, ORIGIN)
    expect(to.pathname).toBe('/user/login')
    expect(to.searchParams.get('callback')).toBe('/gift?porch=app')
    expect(res.headers.get('set-cookie')).toMatch(/wt_session=;/)
  })

  it('lets a valid session through to a protected page', async () => {
    const res = await form({ email: READER.email, password: READER.password })
    const page = await pagesApp.request(new Request('http://localhost/gift', { headers: { cookie: `wt_session=${cookieOf(res)}` } }))
    expect(page.status).toBe(200)
  })

  it('leaves public pages and guests alone', async () => {
    expect((await pagesApp.request(new Request('http://localhost/'))).status).toBe(200)
    expect((await pagesApp.request(new Request('http://localhost/gift'))).status).toBe(302)
  })
})
