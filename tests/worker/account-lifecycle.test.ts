/**
 * Account life cycle on real workerd + D1 (spec §2/§3/§4/§8/§9, issue 3 item 8): push settings persisted per
 * reader, withdrawal (reasons, agreement, mail, approval, deletion, DELETED_USER for 30 days), another reader
 * never reaching someone else's settings, and refusals changing nothing.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { request } from './app.ts'
import {
  ORIGIN,
  PASSWORD,
  app,
  bearer,
  db,
  expectError,
  form,
  json,
  makeUser,
  outboxFor,
  read,
  signIn,
  tokensFor,
  webCookie,
} from './account.helpers.ts'
import { buy, db as walletDb, expectInvariant, give, newSeries, snapshot } from './purchase.helpers.ts'
import { failingAt, withMoneyFaultAt } from './faults.ts'
import { frEdition, frMessages } from './app.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'
import { approveWithdrawal } from '../../src/features/account/withdrawal.server.ts'
import { execInReader, placesOf, readerObject } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const ALL_OFF = { isAgreePush: false, isAgreePushNight: false, isAgreePushFreetime: false, isAgreePushContents: false }

describe('push settings (GET/PUT /api/v1/user/push)', () => {
  it('PUT /app/push (spec §7 name), through the app router, saves the same settings, for its own reader only', async () => {
    const a = await tokensFor((await makeUser()).email)
    const b = await tokensFor((await makeUser()).email)
    const saved = await read(await json('PUT', '/api/v1/app/push', { ...ALL_OFF, isAgreePushFreetime: true }, bearer(a.accessToken.value)))
    expect(saved.data.isAgreePushFreetime).toBe(true)
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(a.accessToken.value)))).data.isAgreePushFreetime).toBe(true)
    // another reader's settings are neither read nor changed by it
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(b.accessToken.value)))).data.isAgreePushFreetime).toBe(
      false,
    )
    await expectError(await json('PUT', '/api/v1/app/push', ALL_OFF), 401, 'NOT_LOGIN_USER')
    await expectError(await json('PUT', '/api/v1/app/push', { isAgreePush: 'yes' }, bearer(a.accessToken.value)), 400, 'INVALID_PARAMETER')
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(a.accessToken.value)))).data.isAgreePushFreetime).toBe(true)
  })

  it('start all off, persist per reader, and leave other readers alone', async () => {
    const a = await tokensFor((await makeUser()).email)
    const b = await tokensFor((await makeUser()).email)
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(a.accessToken.value)))).data).toEqual({
      ...ALL_OFF,
      isAppPush: false,
      isAgreeMail: false,
    })
    const saved = await read(
      await json(
        'PUT',
        '/api/v1/user/push',
        { ...ALL_OFF, isAgreePush: true, isAgreePushNight: true, isAgreeMail: true },
        bearer(a.accessToken.value),
      ),
    )
    expect(saved.data).toMatchObject({ isAgreePush: true, isAgreePushNight: true, isAgreePushFreetime: false, isAgreeMail: true })
    expect((await read(await json('GET', '/api/v1/user/me', undefined, bearer(a.accessToken.value)))).data.user.agreePush).toEqual({
      isAgreePush: true,
      isAgreePushContents: false,
      isAgreePushFreetime: false,
      isAgreePushNight: true,
    })
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(b.accessToken.value)))).data.isAgreePush).toBe(false)
  })

  it('needs a reader, refuses malformed bodies, and changes nothing then', async () => {
    const a = await tokensFor((await makeUser()).email)
    await expectError(await json('PUT', '/api/v1/user/push', { ...ALL_OFF, isAgreePush: true }), 401, 'NOT_LOGIN_USER')
    await expectError(
      await json('PUT', '/api/v1/user/push', { ...ALL_OFF, isAgreePush: 'yes' }, bearer(a.accessToken.value)),
      400,
      'INVALID_PARAMETER',
    )
    await expectError(await json('PUT', '/api/v1/user/push', { isAgreePush: true }, bearer(a.accessToken.value)), 400, 'INVALID_PARAMETER')
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(a.accessToken.value)))).data.isAgreePush).toBe(false)
  })

  it('plain form: unchecked boxes are off, checked ones on', async () => {
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    const res = await form('/api/v1/user/web/push', { isAgreePush: 'on', isAgreePushContents: 'on' }, { cookie })
    expect(res.headers.get('location')).toBe('/setting/push?saved=1')
    const row = await db()
      .prepare('SELECT is_agree_push AS p, is_agree_push_contents AS c, is_agree_push_night AS n FROM push_settings WHERE user_id = ?')
      .bind(user.id)
      .first()
    expect(row).toEqual({ p: 1, c: 1, n: 0 })
    const cross = await form('/api/v1/user/web/push', {}, { cookie, origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(await db().prepare('SELECT is_agree_push FROM push_settings WHERE user_id = ?').bind(user.id).first('is_agree_push')).toBe(1)
  })
})

describe('withdrawal (spec §4: agree, confirm, mail, approval, deletion)', () => {
  const request = (token: string, body: unknown) => json('POST', '/api/v1/user/withdrawal', body, bearer(token))
  const approve = (body: unknown) => json('POST', '/api/v1/user/withdrawal/approve', body)
  async function link(email: string) {
    const [mail] = await outboxFor(email, 'withdrawal')
    const url = new URL(/https?:\/\/\S+/.exec(mail!.body)![0])
    expect(url.pathname).toBe('/setting/withdrawal/confirm')
    return { userId: Number(url.searchParams.get('userId')), uuid: url.searchParams.get('uuid')! }
  }

  it('refuses without agreement, reason or the detail of OTHER, and changes nothing', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await expectError(await request(t.accessToken.value, { reasons: ['PRIVACY'], agree: false }), 400, 'INVALID_PARAMETER')
    await expectError(await request(t.accessToken.value, { reasons: [], agree: true }), 400, 'INVALID_PARAMETER')
    await expectError(await request(t.accessToken.value, { reasons: ['OTHER'], agree: true }), 400, 'INVALID_PARAMETER')
    await expectError(await request(t.accessToken.value, { reasons: ['NOPE'], agree: true }), 400, 'INVALID_PARAMETER')
    await expectError(await json('POST', '/api/v1/user/withdrawal', { reasons: ['PRIVACY'], agree: true }), 401, 'NOT_LOGIN_USER')
    expect(await outboxFor(user.email)).toHaveLength(0)
    expect(await db().prepare('SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?').bind(user.id).first('n')).toBe(0)
  })

  it('mails a confirmation link; approving deletes the account, ends its sessions, blocks re-sign-up 30 days', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    const res = await read(await request(t.accessToken.value, { reasons: ['OTHER', 'TOO_EXPENSIVE'], detail: 'Trop de pubs', agree: true }))
    expect(res.data.sent).toBe(true)
    await expectError(await request(t.accessToken.value, { reasons: ['PRIVACY'], agree: true }), 429, 'FREQUENT_REQUEST')
    // not deleted before the approval
    expect((await signIn(user.email)).status).toBe(200)
    const l = await link(user.email)
    expect(l.userId).toBe(user.id)
    const pushed = await json(
      'POST',
      '/api/v1/app/push/subscription',
      {
        endpoint: `https://fcm.googleapis.com/withdrawn/${user.id}`,
        keys: { p256dh: 'BPk0aW5n', auth: 'YXV0aA' },
      },
      bearer(t.accessToken.value),
    )
    expect(pushed.status).toBe(200)
    // a place kept in the reader's own object (issue 38)
    await readerObject(user.id).saveProgress(user.id, {
      seriesId: 1,
      episodeId: 1,
      episodeNo: 1,
      position: 0.5,
      updatedAt: new Date().toISOString(),
    })
    expect(await placesOf(user.id)).toHaveLength(1)
    // a favourite, which the shared side's copy learns through the queue for the new-episode alarms
    await readerObject(user.id).mark(user.id, 1, 'favorite', true)
    const marks = () => db().prepare('SELECT COUNT(*) AS n FROM library_marks WHERE user_id = ?').bind(user.id).first('n')
    await vi.waitFor(async () => expect(await marks()).toBe(1), { timeout: 10_000, interval: 50 })
    // a creator they follow (issue 37 point 2), which the copy learns the same way for the same alarms
    const creator = (await db().prepare(`INSERT INTO creators (name) VALUES ('Suivi') RETURNING id`).first<number>('id'))!
    await readerObject(user.id).follow(user.id, creator, true)
    const followed = () => db().prepare('SELECT COUNT(*) AS n FROM creator_followers WHERE user_id = ?').bind(user.id).first('n')
    await vi.waitFor(async () => expect(await followed()).toBe(1), { timeout: 10_000, interval: 50 })
    // a spending limit (issue 37 point 5)
    await readerObject(user.id).setSpendingLimit(user.id, 30, new Date().toISOString())
    await expectError(await approve({ userId: user.id, uuid: l.uuid.slice(0, -2) + 'AA' }), 410, 'TIMEOUT')
    expect(await placesOf(user.id)).toHaveLength(1)
    expect(await read(await approve(l))).toEqual({ result: 'SUCCESS', data: { deleted: true } })
    // the object forgot everything of the reader, and no alarm reaches them through the copy
    expect(await placesOf(user.id)).toEqual([])
    expect(await marks()).toBe(0)
    expect(await followed()).toBe(0)
    for (const table of ['follows', 'likes', 'spending_limit'])
      expect(await execInReader(user.id, `SELECT count(*) AS n FROM ${table}`), table).toEqual([{ n: 0 }])
    // the browsers it subscribed to Web Push receive nothing more
    expect(await db().prepare('SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?').bind(user.id).first('n')).toBe(0)
    const row = await db()
      .prepare('SELECT deleted_at, password_hash FROM users WHERE id = ?')
      .bind(user.id)
      .first<{ deleted_at: string; password_hash: string | null }>()
    expect(row!.deleted_at).toBeTruthy()
    expect(row!.password_hash).toBeNull()
    expect(
      JSON.parse(
        (await db()
          .prepare('SELECT reasons FROM withdrawals WHERE user_id = ? AND approved_at IS NOT NULL')
          .bind(user.id)
          .first<string>('reasons'))!,
      ),
    ).toEqual(['OTHER', 'TOO_EXPENSIVE'])
    // sessions over, sign-in answers as for an unknown account, sign-up blocked for 30 days
    await expectError(
      await json('POST', '/api/v1/auth/refresh', { accessToken: t.accessToken.value, refreshToken: t.refreshToken.value }),
      401,
      'NOT_FOUND_REFRESH_TOKEN',
    )
    // the access token too (ASVS 7.4.3): the app refreshes, which fails above, and signs out
    await expectError(await json('GET', '/api/v1/user/me', undefined, bearer(t.accessToken.value)), 401, 'NEED_TO_REFRESH')
    await expectError(await signIn(user.email), 401, 'NOT_REGISTERED_USER')
    await expectError(
      await json('POST', '/api/v1/auth/sign-up', {
        email: user.email,
        password: 'Again-2026',
        passwordConfirm: 'Again-2026',
        agreeTerms: true,
      }),
      403,
      'DELETED_USER',
    )
    // the link again
    await expectError(await approve(l), 404, 'NOT_FOUND_USER')
    // after 30 days the address may sign up again
    await db()
      .prepare('UPDATE users SET deleted_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 31 * 86_400_000).toISOString(), user.id)
      .run()
    expect(
      (
        await json('POST', '/api/v1/auth/sign-up', {
          email: user.email,
          password: 'Again-2026',
          passwordConfirm: 'Again-2026',
          agreeTerms: true,
        })
      ).status,
    ).toBe(200)
  })

  /** A reader holding coins of every type, one bonus lot spent to 0 by a rental; returns the lots still holding coins. */
  async function readerWithCoins() {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await give(user.id, 'BONUS', 2)
    await give(user.id, 'COIN', 30, undefined, 'PAYMENT')
    await give(user.id, 'FREE_COIN', 7, 10)
    await give(user.id, 'MILEAGE', 3000, undefined, 'MILEAGE')
    const { episodeIds } = await newSeries({ episodes: 1, priceRent: 2 })
    expect((await buy({ headers: bearer(t.accessToken.value) }, { episodeIds, kind: 'RENT' })).status).toBe(200)
    const held = await readerRows.all<{ id: number; type: string; source: string; remaining: number }>(
      user.id,
      'SELECT id, type, source, remaining FROM coin_lots WHERE user_id = ? AND remaining > 0 ORDER BY id',
      user.id,
    )
    expect(held.map((l) => [l.type, l.remaining])).toEqual([
      ['COIN', 30],
      ['FREE_COIN', 7],
      ['MILEAGE', 3000],
    ])
    await request(t.accessToken.value, { reasons: ['PRIVACY'], agree: true })
    return { user, t, held, link: await link(user.email) }
  }

  it('writes off the coins left through the ledger, right after the deletion batch: one EXPIRE row per lot, balances = ledger', async () => {
    const { user, held, link: l } = await readerWithCoins()
    expect((await approve(l)).status).toBe(200)
    const rows = await readerRows.all(
      user.id,
      `SELECT lot_id AS lotId, type, source, amount FROM coin_ledger WHERE user_id = ? AND kind = 'EXPIRE' AND description = 'withdrawal' ORDER BY lot_id`,
      user.id,
    )
    expect(rows).toEqual(held.map((lot) => ({ lotId: lot.id, type: lot.type, source: lot.source, amount: -lot.remaining })))
    expect(
      (await readerRows.first<{ m: number }>(user.id, 'SELECT max(remaining) AS m FROM coin_lots WHERE user_id = ?', user.id))!.m,
    ).toBe(0)
    expect(await expectInvariant(user.id)).toMatchObject({ lots: 0, ledger: 0 })
  })

  it('a worker stopped between the deletion batch and the write-off: the link opened again writes the coins off', async () => {
    const { user, held, link: l } = await readerWithCoins()
    const ctx = { issuer: frEdition.siteUrl, t: createTranslator(frEdition, frMessages) }
    // the reader's write-off (the batch after the account's) fails whole: as if the worker stopped in between
    await expect(withMoneyFaultAt(0, () => approveWithdrawal(walletDb, l, ctx))).rejects.toThrow()
    const heldNow = () =>
      readerRows.all<{ id: number }>(user.id, 'SELECT id FROM coin_lots WHERE user_id = ? AND remaining > 0 ORDER BY id', user.id)
    expect((await heldNow()).map((lot) => lot.id)).toEqual(held.map((lot) => lot.id))
    await expectError(await approve(l), 404, 'NOT_FOUND_USER')
    expect(await heldNow()).toEqual([])
    expect(await expectInvariant(user.id)).toMatchObject({ lots: 0, ledger: 0 })
    await expectError(await approve(l), 404, 'NOT_FOUND_USER') // again: nothing more to write off
    expect(await expectInvariant(user.id)).toMatchObject({ lots: 0, ledger: 0 })
  })

  it('a D1 failure at any statement of the deletion batch leaves nothing half-done', async () => {
    const { user, t, link: l } = await readerWithCoins()
    const ctx = { issuer: frEdition.siteUrl, t: createTranslator(frEdition, frMessages) }
    const state = async () => ({
      wallet: await snapshot(user.id),
      user: await db()
        .prepare('SELECT deleted_at, password_hash IS NOT NULL AS local, session_version FROM users WHERE id = ?')
        .bind(user.id)
        .first(),
      withdrawal: await db()
        .prepare('SELECT approved_at FROM withdrawals WHERE user_id = ? ORDER BY id DESC')
        .bind(user.id)
        .first('approved_at'),
    })
    const before = await state()
    let size = 0
    await expect(
      approveWithdrawal(
        failingAt(walletDb, 0, (statements) => (size = statements.length)),
        l,
        ctx,
      ),
    ).rejects.toThrow()
    expect(size).toBeGreaterThan(5)
    for (let at = 0; at < size; at++) {
      if (at > 0) await expect(approveWithdrawal(failingAt(walletDb, at), l, ctx)).rejects.toThrow()
      expect(await state(), `failure at statement ${at}`).toEqual(before)
    }
    expect((await json('GET', '/api/v1/coin', undefined, bearer(t.accessToken.value))).status).toBe(200) // still signed in
    // the link still works once D1 does
    expect(await approveWithdrawal(walletDb, l, ctx)).toEqual({ deleted: true })
    expect(await expectInvariant(user.id)).toMatchObject({ lots: 0, ledger: 0 })
  })

  it('an expired link (1 hour) is TIMEOUT and the account stays', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await request(t.accessToken.value, { reasons: ['RARELY_USED'], agree: true })
    const l = await link(user.email)
    await db()
      .prepare(`UPDATE one_time_codes SET expires_at = ? WHERE kind = 'WITHDRAWAL_MAIL' AND user_id = ?`)
      .bind(new Date(Date.now() - 1).toISOString(), user.id)
      .run()
    await expectError(await approve(l), 410, 'TIMEOUT')
    expect(await db().prepare('SELECT deleted_at FROM users WHERE id = ?').bind(user.id).first('deleted_at')).toBeNull()
    expect((await signIn(user.email)).status).toBe(200)
  })

  it('plain forms: several reasons, agreement, then the approval clears the cookie', async () => {
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    const body = new URLSearchParams([
      ['reason', 'PRIVACY'],
      ['reason', 'NO_CONTENT'],
      ['agree', 'on'],
    ])
    const res = await fetchForm('/api/v1/user/web/withdrawal', body, cookie)
    expect(res.headers.get('location')).toBe('/setting/withdrawal?sent=1')
    expect(
      JSON.parse((await db().prepare('SELECT reasons FROM withdrawals WHERE user_id = ?').bind(user.id).first<string>('reasons'))!),
    ).toEqual(['PRIVACY', 'NO_CONTENT'])
    const l = await link(user.email)
    const done = await form('/api/v1/user/web/withdrawal/approve', { userId: String(l.userId), uuid: l.uuid }, { cookie })
    expect(done.headers.get('location')).toBe('/callback/logout-success?withdrawn=1')
    expect(done.headers.get('set-cookie')).toMatch(/wt_session=;/)
    const noAgree = await fetchForm(
      '/api/v1/user/web/withdrawal',
      new URLSearchParams([['reason', 'PRIVACY']]),
      await webCookie((await makeUser()).email),
    )
    expect(noAgree.headers.get('location')).toBe('/setting/withdrawal?error=INVALID_PARAMETER')
  })
})

/** A form post with repeated fields (checkbox groups). */
function fetchForm(path: string, body: URLSearchParams, cookie: string) {
  return request(app, path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie },
    body: body.toString(),
    redirect: 'manual',
  })
}

describe('sign-in still works for a withdrawal that was only requested', () => {
  it('keeps the account until the approval', async () => {
    const user = await makeUser()
    const t = await tokensFor(user.email)
    await json('POST', '/api/v1/user/withdrawal', { reasons: ['RARELY_USED'], agree: true }, bearer(t.accessToken.value))
    expect((await signIn(user.email, PASSWORD)).status).toBe(200)
  })
})

describe('apple_guest (app guest mode)', () => {
  const guest = (guestKey: unknown, ip = '203.0.113.7') =>
    json('POST', '/api/v1/auth/sign-in/apple-guest', { guestKey }, { 'cf-connecting-ip': ip })
  const key = () =>
    btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')

  it('makes a guest account once, then signs the same device in; only a hash of the key is stored', async () => {
    const k = key()
    const first = await read(await guest(k))
    expect(first.data.isSignUp).toBe(true)
    const again = await read(await guest(k))
    expect(again.data).toMatchObject({ isSignUp: false, userId: first.data.userId })
    const me = await read(await json('GET', '/api/v1/user/me', undefined, bearer(again.data.accessToken.value)))
    expect(me.data.user).toMatchObject({ snsProvider: 'apple_guest', email: null })
    expect(me.data.user.snsId).not.toBe(k)
    expect((await read(await guest(key()))).data.userId).not.toBe(first.data.userId)
  })

  it('refuses a malformed key, changing nothing', async () => {
    const before = await db().prepare(`SELECT COUNT(*) AS n FROM identities WHERE provider = 'apple_guest'`).first('n')
    await expectError(await guest('short'), 400, 'INVALID_PARAMETER')
    await expectError(await guest(42), 400, 'INVALID_PARAMETER')
    expect(await db().prepare(`SELECT COUNT(*) AS n FROM identities WHERE provider = 'apple_guest'`).first('n')).toBe(before)
  })

  it('limits new guest accounts per client address (TOO_MANY_REQUESTS)', async () => {
    const ip = '198.51.100.99'
    for (let i = 0; i < 20; i++) expect((await guest(key(), ip)).status).toBe(200)
    await expectError(await guest(key(), ip), 429, 'TOO_MANY_REQUESTS')
  })
})
