/**
 * The operator's reader routes (docs/API.md "Operator API": `GET /api/ops/readers`, `POST /api/ops/readers/{id}/sessions/end`;
 * `npm run ops -- reader show|sessions end`) on the real edge app and D1: off without OPS_TOKEN, 401 without the right
 * token; a reader looked up by e-mail or id with balances, payments and their refunds, purchases and sign-ins (never a
 * password hash or token); all their sessions ended, so the app token and the browser cookie that worked are refused at
 * the next request; the reason in the JSON log line; 1,000 generated bad bodies answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, expectBadBodiesRefused, auditLines, logSpy } from './ops.helpers.ts'
import { request } from './app.ts'
import { app, call, db, expectError, read } from './comment.helpers.ts'
import { bearer, makeUser, tokensFor, webCookie } from './account.helpers.ts'
import { give, newSeries } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { nicknameKey } from '../../src/features/account/profile.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

/** What ending sessions writes in D1. */
const snapshot = () => db.first(`SELECT group_concat(id || ':' || session_version) AS versions FROM users`)

const get = (path: string, headers: Record<string, string>) => request(app, path, { headers, redirect: 'manual' })

describe('operator API: readers', () => {
  it('both routes are 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, changing nothing', async () => {
    const before = await snapshot()
    for (const [method, path] of [
      ['GET', '/api/ops/readers?id=1'],
      ['POST', '/api/ops/readers/1/sessions/end'],
    ] as const) {
      const send = (reader: typeof OPS | null) => call(reader, method, path, method === 'POST' ? { reason: 'x' } : undefined)
      for (const OPS_TOKEN of ['', undefined]) {
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => send(OPS))) as Response, 404, 'NOT_EXIST')
      }
      await expectError(await send(null), 401, 'NOT_LOGIN_USER')
      await expectError(await send({ headers: { authorization: 'Bearer wrong' } }), 401, 'NOT_LOGIN_USER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('reader show: by e-mail or id, the account, balances, payments with refunds, purchases, sign-ins; no secret', async () => {
    const user = await makeUser()
    await give(user.id, 'BONUS', 7)
    const pair = await tokensFor(user.email) // one app sign-in
    await webCookie(user.email) // one browser sign-in
    await readerRows.run(
      user.id,
      `INSERT INTO payments (id, user_id, state, provider, method, amount, currency, coins, bonus, idempotency_key, provider_ref, created_at, paid_at, refunded_at)
       VALUES (?1, ?2, 'REFUNDED', 'stripe', 'card', 499, 'EUR', 50, 5, ?1, ?1, '2026-11-01T10:00:00.000Z', '2026-11-01T10:00:05.000Z', '2026-11-02T08:00:00.000Z')`,
      `pay_ops_${user.id}`,
      user.id,
    )
    await readerRows.run(
      user.id,
      `INSERT INTO payment_events (provider, event_id, payment_id, type, received_at) VALUES ('stripe', ?, ?, 'charge.refunded', '2026-11-02T08:00:00.000Z')`,
      `evt_ops_${user.id}`,
      `pay_ops_${user.id}`,
    )
    const { seriesId, episodeIds } = await newSeries({ episodes: 2 })
    await readerRows.run(
      user.id,
      `INSERT INTO purchases (user_id, series_id, episode_id, type, coins) VALUES (?, ?, ?, 'RENT', 2)`,
      user.id,
      seriesId,
      episodeIds[1],
    )

    const res = await call(OPS, 'GET', `/api/ops/readers?email=${encodeURIComponent(user.email.toUpperCase())}`)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const report = (await read(res)).data
    expect(report.account).toMatchObject({ id: user.id, email: user.email, deletedAt: null, signIn: ['password'], isAdult: false })
    expect(report.account.lastLoginAt).not.toBeNull()
    expect(report.balances).toMatchObject({ BONUS: 7, total: 7 })
    expect(report.wallet).toMatchObject({ lots: 7, ledger: 7 })
    expect(report.payments).toEqual([
      expect.objectContaining({
        id: `pay_ops_${user.id}`,
        state: 'REFUNDED',
        amount: 499,
        currency: 'EUR',
        refundedAt: '2026-11-02T08:00:00.000Z',
        events: [{ type: 'charge.refunded', receivedAt: '2026-11-02T08:00:00.000Z' }],
      }),
    ])
    expect(report.purchases).toEqual([
      expect.objectContaining({ type: 'RENT', coins: 2, seriesId, episodeId: episodeIds[1], episodeNo: 2 }),
    ])
    expect(report.signIns).toHaveLength(2)
    expect(report.signIns.every((s: { open: boolean }) => s.open)).toBe(true)
    expect(report.signIns.map((s: { client: string }) => s.client)).toEqual(['WEB', 'WEB']) // no app client credential: both WEB
    // no limit set: support sees none, and the month's spending with its reset
    expect(report.spending).toEqual({ limit: null, next: null, spent: expect.any(Number), resetsAt: expect.any(String) })
    const text = JSON.stringify(report)
    expect(text).not.toMatch(/password_?hash|token_?hash|\$argon|\$scrypt|pbkdf2/i)
    expect(text).not.toContain(pair.refreshToken.value)

    const byId = (await read(await call(OPS, 'GET', `/api/ops/readers?id=${user.id}`))).data
    expect(byId).toEqual({ ...report, signIns: byId.signIns })

    await expectError(await call(OPS, 'GET', '/api/ops/readers?id=999999999'), 404, 'NOT_FOUND_USER')
    await expectError(await call(OPS, 'GET', '/api/ops/readers?email=nobody-here@example.com'), 404, 'NOT_FOUND_USER')
    for (const bad of ['', '?id=0', '?id=x', '?email=not-an-address', `?email=${user.email}&id=${user.id}`]) {
      await expectError(await call(OPS, 'GET', `/api/ops/readers${bad}`), 400, 'INVALID_PARAMETER')
    }
  })

  it('reader show by nickname (any case, lookalikes), by one of their payment ids, by phone as typed (issue 39 point 6)', async () => {
    // 06 6x xx xx xx: a French mobile number whatever the clock (06 39…, 06 90…–06 94… are not numbers a carrier gives)
    const digits = `6${String(Date.now()).slice(-7)}`
    const user = await makeUser({ phone: `+336${digits}` })
    const nickname = `Lune${digits}`
    await db.run(`UPDATE users SET nickname = ?, nickname_key = ? WHERE id = ?`, nickname, nicknameKey(nickname), user.id)
    await readerRows.run(
      user.id,
      `INSERT INTO payments (id, user_id, state, provider, amount, currency, coins, bonus, idempotency_key) VALUES (?1, ?2, 'UNPAID', 'stripe', 499, 'EUR', 50, 0, ?1)`,
      `pay_find_${user.id}`,
      user.id,
    )
    // the shared index a charge writes first (createCharge), through which a payment id finds its reader
    await db.run(`INSERT INTO payment_readers (payment_id, provider, user_id) VALUES (?, 'stripe', ?)`, `pay_find_${user.id}`, user.id)
    const found = async (query: string) => (await read(await call(OPS, 'GET', `/api/ops/readers?${query}`))).data.account.id
    expect(await found(`nickname=${encodeURIComponent(nickname.toUpperCase())}`)).toBe(user.id)
    expect(await found(`nickname=${encodeURIComponent(`ＬＵＮＥ${digits}`)}`)).toBe(user.id) // fullwidth: the same name to a reader
    expect(await found(`payment=pay_find_${user.id}`)).toBe(user.id)
    expect(await found(`phone=${encodeURIComponent(`06 ${digits.replace(/(\d\d)(?=\d)/g, '$1 ')}`)}`)).toBe(user.id) // fr: read in FR
    expect(await found(`phone=${encodeURIComponent(`+336${digits}`)}`)).toBe(user.id)
    for (const query of ['nickname=nobody-at-all', 'payment=pay_nobody', 'phone=0699999999', 'phone=12345'])
      await expectError(await call(OPS, 'GET', `/api/ops/readers?${query}`), 404, 'NOT_FOUND_USER')
    for (const query of ['nickname=a&phone=0612345678', 'payment=ch_1', 'phone=call%20me', 'nickname=%20', 'phone=12', ''])
      await expectError(await call(OPS, 'GET', `/api/ops/readers?${query}`), 400, 'INVALID_PARAMETER')
  })

  it('reader sessions end: the app token and the browser cookie that worked are refused at the next request', async () => {
    const user = await makeUser()
    const pair = await tokensFor(user.email)
    const cookie = { cookie: await webCookie(user.email) }
    const old = bearer(pair.accessToken.value)
    expect((await get('/api/v1/coin', old)).status).toBe(200)
    expect((await get('/api/v1/coin', cookie)).status).toBe(200)

    logSpy()
    const res = await call(OPS, 'POST', `/api/ops/readers/${user.id}/sessions/end`, { reason: 'account shared, ticket 7' })
    expect(res.status).toBe(200)
    expect((await read(res)).data).toEqual({ id: user.id, email: user.email, ended: 2 })
    expect(auditLines()).toEqual([
      expect.objectContaining({
        ops: 'reader.sessions.end',
        userId: user.id,
        devices: 2,
        reason: 'account shared, ticket 7',
        edition: 'fr',
      }),
    ])
    vi.restoreAllMocks()

    // the app: its access token asks for a refresh, and the refresh is refused (signed out)
    await expectError(await get('/api/v1/coin', old), 401, 'NEED_TO_REFRESH')
    await expectError(
      await call(null, 'POST', '/api/v1/auth/refresh', { accessToken: pair.accessToken.value, refreshToken: pair.refreshToken.value }),
      401,
      'NOT_FOUND_REFRESH_TOKEN',
    )
    // the browser: signed out, its cookie cleared
    const coin = await get('/api/v1/coin', cookie)
    expect(coin.status).toBe(401)
    expect(coin.headers.get('set-cookie') ?? '').toMatch(/wt_session=;/)
    expect(await (await get('/api/auth/session', cookie)).json()).toEqual({})
    const shown = (await read(await call(OPS, 'GET', `/api/ops/readers?id=${user.id}`))).data
    expect(shown.signIns.map((s: { open: boolean }) => s.open)).toEqual([false, false])
    // a new sign-in works
    expect((await get('/api/v1/coin', bearer((await tokensFor(user.email)).accessToken.value))).status).toBe(200)

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', '/api/ops/readers/999999999/sessions/end', { reason: 'r' }), 404, 'NOT_FOUND_USER')
    await expectError(await call(OPS, 'POST', `/api/ops/readers/${user.id}/sessions/end`, {}), 400, 'INVALID_PARAMETER')
    await expectError(await call(OPS, 'POST', `/api/ops/readers/${user.id}/sessions/end`, { reason: ' ' }), 400, 'INVALID_PARAMETER')
    await expectError(await call(OPS, 'POST', '/api/ops/readers/0/sessions/end', { reason: 'r' }), 400, 'INVALID_PARAMETER')
    expect(await snapshot()).toEqual(before)
  })

  it('1,000 generated bad bodies on sessions end: no 5xx, only catalogue codes, nothing changed', { timeout: 300_000 }, async () => {
    const user = await makeUser()
    await tokensFor(user.email)
    const before = await snapshot()
    await expectBadBodiesRefused([`/api/ops/readers/${user.id}/sessions/end`], {
      email: fc.string(),
      id: fc.oneof(fc.integer(), fc.string()),
    })
    expect(await snapshot()).toEqual(before)
  })
})
