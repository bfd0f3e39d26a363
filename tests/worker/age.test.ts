/**
 * Age check on real workerd + D1 (spec §4/§5/§6, issue 3 item 7): adult authentication with renewed tokens
 * (Bearer answer, web cookie), the 1-year validity, a minor kept out of adult series on every path, the jp
 * guest cookie, the kr phone rule, adult and BL toggles (members only; BL only on the -me edition), events
 * restricted to adults or minors, and bad input that changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { appFor, expectHandled, frMessages, request } from './app.ts'
import { seedDemo, DEMO_ACCOUNTS } from './seed.ts'
import { db, expectError, newSeries, read, type Reader } from './purchase.helpers.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { issueTokens } from '../../src/features/auth/auth.server.ts'
import { deriveKeys } from '../../src/features/auth/tokens.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { openSession } from '../../src/features/session/cookie.ts'
import { accountChanged, assertEventAccess } from '../../src/features/age/age.server.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import fr from '../../editions/fr/edition.json'
import jp from '../../editions/jp/edition.json'
import kr from '../../editions/kr/edition.json'
import ar from '../../editions/ar/edition.json'
import th from '../../editions/th/edition.json'

const editions = {
  fr: parseEdition('fr', fr),
  jp: parseEdition('jp', jp),
  kr: parseEdition('kr', kr),
  ar: parseEdition('ar', ar),
  th: parseEdition('th', th),
}
const apps = {
  fr: appFor(editions.fr),
  jp: appFor(editions.jp, frMessages),
  kr: appFor(editions.kr, frMessages),
  ar: appFor(editions.ar, frMessages),
  th: appFor(editions.th, frMessages),
}
type Ed = keyof typeof apps
const ORIGIN = 'http://localhost'
const secret = (env as unknown as { SESSION_SECRET: string }).SESSION_SECRET
let seq = 0

/** A signed-in account (Bearer) with the given columns; the token's issuer is the edition's. */
async function member(
  cols: { birthedAt?: string | null; isAdult?: boolean; verifiedAt?: string | null } = {},
  ed: Ed = 'fr',
): Promise<Reader> {
  const email = `age-${Date.now()}-${++seq}@example.com`
  const row = await db.first<{ id: number }>(
    `INSERT INTO users (email, birthed_at, is_adult, adult_verified_at, show_adult) VALUES (?, ?, ?, ?, ?) RETURNING id`,
    email,
    cols.birthedAt ?? null,
    cols.isAdult ? 1 : 0,
    cols.verifiedAt ?? null,
    cols.isAdult ? 1 : 0,
  )
  const token = (await issueTokens(createDb(env.DB), row!.id, { issuer: editions[ed].siteUrl, t: (k) => k })).accessToken
  return { id: row!.id, headers: { authorization: `Bearer ${token.value}` } }
}
const call = (ed: Ed, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  request(apps[ed], path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  })
const verify = (who: Reader, body: unknown, ed: Ed = 'fr', extra: Record<string, string> = {}) =>
  call(ed, 'PUT', '/api/v1/user/adult', { ...who.headers, ...extra }, body)
const userRow = (id: number) =>
  db.first<{ isAdult: number; birthedAt: string | null; verifiedAt: string | null; showAdult: number; kr: number; bl: number }>(
    `SELECT is_adult AS isAdult, birthed_at AS birthedAt, adult_verified_at AS verifiedAt, show_adult AS showAdult, is_kr_ip_user AS kr, is_bl_toggle AS bl FROM users WHERE id = ?`,
    id,
  )
const cookieValue = (res: Response, name: string) => new RegExp(`(?:^|, )${name}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '')?.[1]

let adultSeries: { seriesId: number; episodeIds: number[] }
beforeAll(async () => {
  await seedDemo(env.DB)
  adultSeries = await newSeries({ episodes: 2, free: 1, adult: true })
})

/** Every path that shows an adult series: detail API, its free episode in the viewer, the MATURE tab. */
async function adultPaths(ed: Ed, headers: Record<string, string>) {
  const detail = await call(ed, 'GET', `/api/v1/contents/${adultSeries.seriesId}`, headers)
  const viewer = await call(ed, 'GET', `/api/v1/viewer/${adultSeries.episodeIds[0]}`, headers)
  const mature = await call(ed, 'GET', '/api/v1/contents?tab=MATURE', headers)
  return { detail: detail.status, viewer: viewer.status, mature: mature.status }
}

describe('adult authentication (PUT /api/v1/user/adult)', () => {
  it('a member with an adult birth date becomes adult for one year and sees adult series on every path', async () => {
    const who = await member()
    expect(await adultPaths('fr', who.headers)).toEqual({ detail: 403, viewer: 403, mature: 403 })
    const res = await verify(who, { birthedAt: '1990-05-01' })
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.user).toMatchObject({ id: who.id, isAdult: true, showAdult: true, birthedAt: '1990-05-01' })
    expect(data.coin).toMatchObject({ total: 0 })
    const row = (await userRow(who.id))!
    expect(row.isAdult).toBe(1)
    expect(Math.abs(Date.parse(row.verifiedAt!) - Date.now())).toBeLessThan(60_000)
    expect(await adultPaths('fr', who.headers)).toEqual({ detail: 200, viewer: 200, mature: 200 })
  })

  it('an app that sends its refresh token gets a renewed pair; the old refresh token is spent', async () => {
    const email = `age-app-${Date.now()}@example.com`
    await db.run(
      `INSERT INTO users (email, password_hash, email_verified_at) SELECT ?, password_hash, email_verified_at FROM users WHERE email = ?`,
      email,
      DEMO_ACCOUNTS.reader.email,
    )
    const sign = await read(await call('fr', 'POST', '/api/v1/auth/sign-in', {}, { email, password: DEMO_ACCOUNTS.reader.password }))
    const old = sign.data as { accessToken: { value: string }; refreshToken: { value: string } }
    const res = await verify(
      { id: 0, headers: { authorization: `Bearer ${old.accessToken.value}` } },
      { birthedAt: '1985-01-31', refreshToken: old.refreshToken.value },
    )
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.user.isAdult).toBe(true)
    expect(data.accessToken.value).toMatch(/^ey/)
    expect(data.refreshToken.value).not.toBe(old.refreshToken.value)
    const again = await call(
      'fr',
      'POST',
      '/api/v1/auth/refresh',
      {},
      { accessToken: old.accessToken.value, refreshToken: old.refreshToken.value },
    )
    expect(again.status).toBeGreaterThanOrEqual(400)
    const next = await call(
      'fr',
      'POST',
      '/api/v1/auth/refresh',
      {},
      { accessToken: data.accessToken.value, refreshToken: data.refreshToken.value },
    )
    expect(next.status).toBe(200)
  })

  it('on the web the renewed pair goes back into the encrypted session cookie, never into the body', async () => {
    const csrfRes = await call('fr', 'GET', '/api/auth/csrf')
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const csrfCookie = `wt_csrf=${cookieValue(csrfRes, 'wt_csrf')}`
    const email = `age-web-${Date.now()}@example.com`
    await db.run(
      `INSERT INTO users (email, password_hash, email_verified_at) SELECT ?, password_hash, email_verified_at FROM users WHERE email = ?`,
      email,
      DEMO_ACCOUNTS.reader.email,
    )
    const login = await request(apps.fr, '/api/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie: csrfCookie },
      body: new URLSearchParams({
        email,
        password: DEMO_ACCOUNTS.reader.password,
        csrfToken,
        callbackUrl: `${ORIGIN}/`,
        json: 'true',
      }).toString(),
    })
    expect(login.status).toBe(200)
    const before = cookieValue(login, 'wt_session')!
    const res = await verify({ id: 0, headers: { cookie: `wt_session=${before}`, origin: ORIGIN } }, { birthedAt: '1990-05-01' })
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.accessToken).toBeUndefined()
    const after = cookieValue(res, 'wt_session')!
    expect(after).toBeTruthy()
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i)
    const keys = await deriveKeys(secret)
    expect((await openSession(keys, after))!.refreshToken.value).not.toBe((await openSession(keys, before))!.refreshToken.value)
    const detail = await call('fr', 'GET', `/api/v1/contents/${adultSeries.seriesId}`, { cookie: `wt_session=${after}` })
    expect(detail.status).toBe(200)
    // a write from another site with the cookie is refused (ASVS 3.5) and changes nothing
    const minor = await member({ birthedAt: '2012-01-01' })
    const cross = await call('fr', 'PUT', '/api/v1/user/adult/toggle/false', {
      cookie: `wt_session=${after}`,
      origin: 'https://evil.example',
    })
    expect(cross.status).toBe(403)
    expect((await userRow(minor.id))!.showAdult).toBe(0)
  })

  it('adult verification is valid 1 year: after it the reader is asked again', async () => {
    const longAgo = new Date(Date.now() - 366 * 86_400_000).toISOString()
    const who = await member({ birthedAt: '1990-05-01', isAdult: true, verifiedAt: longAgo })
    expect(await adultPaths('fr', who.headers)).toMatchObject({ detail: 403, viewer: 403 })
    const state = await read(await call('fr', 'GET', '/api/v1/user/adult', who.headers))
    expect(state.data).toMatchObject({ signedIn: true, isAdult: false, mode: 'birthday' })
    expect((await verify(who, { birthedAt: '1990-05-01' })).status).toBe(200)
    expect(await adultPaths('fr', who.headers)).toMatchObject({ detail: 200, viewer: 200 })
  })
})

describe('a minor cannot see adult content after any path', () => {
  it('the demo minor: lying about the birth date, toggling, yes/no epoch: refused, nothing changes, every path stays closed', async () => {
    const sign = await read(
      await call('fr', 'POST', '/api/v1/auth/sign-in', {}, { email: DEMO_ACCOUNTS.minor.email, password: DEMO_ACCOUNTS.minor.password }),
    )
    const headers = { authorization: `Bearer ${sign.data.accessToken.value}` }
    const minor = { id: DEMO_ACCOUNTS.minor.id, headers }
    const before = await userRow(minor.id)
    await expectError(await verify(minor, { birthedAt: '1990-05-01' }), 400, 'INVALID_PARAMETER')
    await expectError(await verify(minor, { birthedAt: before!.birthedAt }), 400, 'INVALID_PARAMETER')
    await expectError(await verify(minor, {}), 400, 'INVALID_PARAMETER')
    await expectError(await verify(minor, { birthedAt: '1970-01-01' }), 400, 'INVALID_PARAMETER')
    await expectError(await call('fr', 'PUT', '/api/v1/user/adult/toggle/true', headers), 403, 'ADULT_ONLY_CONTENTS')
    expect(await userRow(minor.id)).toEqual(before)
    expect(await adultPaths('fr', headers)).toEqual({ detail: 403, viewer: 403, mature: 403 })
    // with the jp guest cookie too: a member is judged by the account
    expect(await adultPaths('fr', { ...headers, cookie: 'not-login-adult=Y' })).toEqual({ detail: 403, viewer: 403, mature: 403 })
  })

  it('a new member under age cannot authenticate, on a birthday edition or a yes/no one once the birth date is known', async () => {
    const young = new Date(Date.now() - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10)
    const who = await member()
    await expectError(await verify(who, { birthedAt: young }), 400, 'INVALID_PARAMETER')
    expect((await userRow(who.id))!.birthedAt).toBeNull()
    const jpMinor = await member({ birthedAt: young }, 'jp')
    await expectError(await verify(jpMinor, {}, 'jp'), 400, 'INVALID_PARAMETER')
    expect(await adultPaths('jp', jpMinor.headers)).toEqual({ detail: 403, viewer: 403, mature: 403 })
  })

  it('a guest sees no adult series on fr, even with the jp cookie', async () => {
    expect(await adultPaths('fr', {})).toEqual({ detail: 403, viewer: 403, mature: 403 })
    expect(await adultPaths('fr', { cookie: 'not-login-adult=Y' })).toEqual({ detail: 403, viewer: 403, mature: 403 })
    const state = await read(await call('fr', 'GET', '/api/v1/user/adult'))
    expect(state.data).toMatchObject({ signedIn: false, isAdult: false, mode: 'login', checkType: 'BIRTHDAY', adultAge: 18 })
    await expectError(await verify({ id: 0, headers: {} }, { birthedAt: '1990-05-01' }), 401, 'NOT_LOGIN_USER')
  })
})

describe('jp: the not-logged-in-adult cookie', () => {
  it('a guest with the cookie Y sees adult series; without it, or with N, not', async () => {
    expect(await adultPaths('jp', { cookie: 'not-login-adult=Y' })).toEqual({ detail: 200, viewer: 200, mature: 200 })
    expect(await adultPaths('jp', {})).toEqual({ detail: 403, viewer: 403, mature: 403 })
    expect(await adultPaths('jp', { cookie: 'not-login-adult=N' })).toEqual({ detail: 403, viewer: 403, mature: 403 })
    const state = await read(await call('jp', 'GET', '/api/v1/user/adult'))
    expect(state.data).toMatchObject({ signedIn: false, mode: 'guestYesNo', checkType: 'YES_NO' })
  })

  it('a member answering yes is confirmed with the fixed epoch date', async () => {
    const who = await member({}, 'jp')
    expect((await read(await call('jp', 'GET', '/api/v1/user/adult', who.headers))).data.mode).toBe('yesNo')
    expect((await verify(who, {}, 'jp')).status).toBe(200)
    expect((await userRow(who.id))!.birthedAt).toBe('1970-01-01')
    expect(await adultPaths('jp', who.headers)).toEqual({ detail: 200, viewer: 200, mature: 200 })
  })
})

describe('kr: Korean IP users also need the Korean adult auth', () => {
  it('verified from a Korean IP: adult by birth date, still closed until isAdultKr; from elsewhere: open', async () => {
    const korean = await member({}, 'kr')
    expect((await verify(korean, { birthedAt: '1990-05-01' }, 'kr', { 'cf-ipcountry': 'KR' })).status).toBe(200)
    expect((await userRow(korean.id))!.kr).toBe(1)
    expect(await adultPaths('kr', korean.headers)).toMatchObject({ detail: 403, viewer: 403 })
    expect((await read(await call('kr', 'GET', '/api/v1/user/adult', korean.headers))).data.mode).toBe('krPhone')
    await db.run(`UPDATE users SET is_adult_kr = 1 WHERE id = ?`, korean.id) // as the carrier check writes it
    await accountChanged(korean.id)
    expect(await adultPaths('kr', korean.headers)).toMatchObject({ detail: 200, viewer: 200 })
    const abroad = await member({}, 'kr')
    expect((await verify(abroad, { birthedAt: '1990-05-01' }, 'kr', { 'cf-ipcountry': 'FR' })).status).toBe(200)
    expect(await adultPaths('kr', abroad.headers)).toMatchObject({ detail: 200, viewer: 200 })
    // kr's adult age is 19
    const eighteen = await member({}, 'kr')
    const birth = new Date(Date.now() - 18.5 * 365.25 * 86_400_000).toISOString().slice(0, 10)
    await expectError(await verify(eighteen, { birthedAt: birth }, 'kr'), 400, 'INVALID_PARAMETER')
  })
})

describe('th/tw: the birth date must be known', () => {
  it('an account flagged adult without a birth date stays closed until the age check records one', async () => {
    const who = await member({ isAdult: true, verifiedAt: new Date().toISOString() }, 'th')
    expect(await adultPaths('th', who.headers)).toEqual({ detail: 403, viewer: 403, mature: 403 })
    expect((await verify(who, { birthedAt: '1990-05-01' }, 'th')).status).toBe(200)
    expect(await adultPaths('th', who.headers)).toEqual({ detail: 200, viewer: 200, mature: 200 })
  })
})

describe('adult and BL toggles (members only; BL only on the -me edition)', () => {
  it('adult toggle: an adult turns adult series off and on; a guest gets NOT_LOGIN_USER', async () => {
    const who = await member({ birthedAt: '1990-05-01', isAdult: true, verifiedAt: new Date().toISOString() })
    const off = await call('fr', 'PUT', '/api/v1/user/adult/toggle/false', who.headers)
    expect(off.status).toBe(200)
    expect((await read(off)).data.user.showAdult).toBe(false)
    await expectError(await call('fr', 'GET', '/api/v1/contents?tab=MATURE', who.headers), 403, 'ADULT_ONLY_CONTENTS')
    expect((await call('fr', 'PUT', '/api/v1/user/adult/toggle/true', who.headers)).status).toBe(200)
    expect((await userRow(who.id))!.showAdult).toBe(1)
    expect((await call('fr', 'GET', '/api/v1/contents?tab=MATURE', who.headers)).status).toBe(200)
    await expectError(await call('fr', 'PUT', '/api/v1/user/adult/toggle/true'), 401, 'NOT_LOGIN_USER')
  })

  it('BL toggle: NOT_EXIST on fr; on ar a member switches it, a guest cannot', async () => {
    const who = await member({}, 'ar')
    await expectError(await call('fr', 'PUT', '/api/v1/user/BL/toggle/false', who.headers), 404, 'NOT_EXIST')
    const res = await call('ar', 'PUT', '/api/v1/user/BL/toggle/false', who.headers)
    expect(res.status).toBe(200)
    expect((await read(res)).data.user.isBlToggle).toBe(false)
    expect((await userRow(who.id))!.bl).toBe(0)
    expect((await call('ar', 'PUT', '/api/v1/user/BL/toggle/Y', who.headers)).status).toBe(200)
    expect((await userRow(who.id))!.bl).toBe(1)
    await expectError(await call('ar', 'PUT', '/api/v1/user/BL/toggle/true'), 401, 'NOT_LOGIN_USER')
  })
})

describe('events restricted to adults or minors (demo events 1–4)', () => {
  const code = async (p: Promise<void>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof AppError ? e.code : String(e)),
    )
  it('adult-only refuses minors and guests, minors-only refuses adults, periods and unknown events', async () => {
    const { reader, minor } = DEMO_ACCOUNTS
    const ed = editions.fr
    expect(await code(assertEventAccess(db, 1, null, ed))).toBe('ok')
    expect(await code(assertEventAccess(db, 2, reader.id, ed))).toBe('ok')
    expect(await code(assertEventAccess(db, 2, minor.id, ed))).toBe('UNAUTHORIZED_NON_ADULT')
    expect(await code(assertEventAccess(db, 2, null, ed))).toBe('UNAUTHORIZED_USER')
    expect(await code(assertEventAccess(db, 3, minor.id, ed))).toBe('ok')
    expect(await code(assertEventAccess(db, 3, reader.id, ed))).toBe('UNAUTHORIZED_ADULT')
    expect(await code(assertEventAccess(db, 4, reader.id, ed))).toBe('NOT_EVENT_PERIOD')
    expect(await code(assertEventAccess(db, 999, reader.id, ed))).toBe('NOT_FOUND_EVENT')
  })
})

describe('bad input changes nothing', () => {
  it('malformed bodies and values: catalogue codes, never 5xx, the account untouched', async () => {
    const who = await member()
    const before = await userRow(who.id)
    const bodies: unknown[] = [
      '{',
      '[]',
      'null',
      { birthedAt: 19900501 },
      { birthedAt: '1990-02-30' },
      { birthedAt: 'x'.repeat(11) },
      { birthedAt: '2999-01-01' },
      { birthedAt: '1800-01-01' },
      { refreshToken: 5 },
    ]
    for (const body of bodies) {
      const res = await verify(who, body)
      expect(res.status).toBe(400)
      await expectHandled(res)
    }
    for (const path of ['/api/v1/user/adult/toggle/maybe', '/api/v1/user/adult/toggle/', '/api/v1/user/BL/toggle/2'])
      await expectHandled(await call('fr', 'PUT', path, who.headers))
    await expectHandled(
      await call('fr', 'PUT', '/api/v1/user/adult', { authorization: 'Bearer forged.token.here' }, { birthedAt: '1990-05-01' }),
    )
    expect(await userRow(who.id)).toEqual(before)
  })

  it('1,000 generated bodies and toggle values: never a 5xx, every error a catalogue code, no adult made', async () => {
    const who = await member({ birthedAt: '2012-03-04' })
    const before = await userRow(who.id)
    const body = fc.oneof(
      fc.json(),
      fc.record(
        {
          birthedAt: fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
            fc.integer(),
          ),
          refreshToken: fc.option(fc.string({ maxLength: 300 })),
        },
        { requiredKeys: [] },
      ),
    )
    await fc.assert(
      fc.asyncProperty(body, fc.string({ maxLength: 12 }), async (b, value) => {
        await expectHandled(await verify(who, typeof b === 'string' ? b : JSON.stringify(b)))
        await expectHandled(await call('fr', 'PUT', `/api/v1/user/adult/toggle/${encodeURIComponent(value)}`, who.headers))
      }),
      { numRuns: 1000 },
    )
    expect(await userRow(who.id)).toEqual(before) // the minor's birth date stayed, nothing became adult
  })
})
