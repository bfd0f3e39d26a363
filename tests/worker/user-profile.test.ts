/**
 * Spec §7 PUT /user (issue 12 point 2): PROFILE sets the nickname shown on comments (2–20 characters, the comments'
 * prohibited words, unique per edition whatever its case), ADULT is the age check, MAIL the e-mail consent; each
 * renews the token pair (`authResponse` for an app that sent its refresh token). Also the /my/profile plain form,
 * another account's nickname out of reach, 40 readers racing for one nickname, and 1,000 generated bad bodies.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectApiAnswer, frMessages } from './app.ts'
import { bearer, db, expectError, form, json, makeUser, read, tokensFor, uniq, webCookie } from './account.helpers.ts'
import { call, newReader, newSeries, type Reader } from './comment.helpers.ts'
import { nicknameKey } from '../../src/features/account/profile.ts'
import { rekeyNicknames } from '../../src/features/account/profile.server.ts'
import { createDb } from '../../src/lib/server/db.ts'

const put = (headers: Record<string, string>, body: unknown) => json('PUT', '/api/v1/user', body, headers)
const profile = (nickname: string, extra: Record<string, unknown> = {}) => ({ action: 'PROFILE', profileRequest: { nickname }, ...extra })
const nick = (prefix = 'Zoé') => `${prefix}${uniq()}`.slice(0, 20)
const row = (id: number) =>
  db()
    .prepare(`SELECT nickname, nickname_key, is_agree_mail, is_adult, birthed_at, updated_at FROM users WHERE id = ?`)
    .bind(id)
    .first<Record<string, unknown>>()

beforeAll(async () => {
  await db().prepare(`INSERT OR IGNORE INTO banned_words (word) VALUES ('arnaque')`).run()
})

describe('PUT /user action PROFILE', () => {
  it('sets the nickname: /user/me has it and other readers see it on the comment and its reply instead of the e-mail stub', async () => {
    const author = await newReader()
    const viewer = await newReader()
    const s = await newSeries({ episodes: 1 })
    const posted = await read(await call(author, 'POST', '/api/v1/comment', { contentsId: s.seriesId, text: 'Premier !' }))
    await call(author, 'POST', '/api/v1/comment', { contentsId: s.seriesId, parentId: posted.data.id, text: 'Et une réponse' })
    const names = async () => {
      const page = await read(await call(viewer, 'GET', `/api/v1/comment?contentsId=${s.seriesId}`))
      const replies = await read(await call(viewer, 'GET', `/api/v1/comment/${posted.data.id}/reply`))
      return [page.data.items[0].author.name, replies.data.items[0].author.name]
    }
    const stub = `${author.email.slice(0, 2)}***`
    expect(await names()).toEqual([stub, stub])

    const name = nick()
    const res = await put(author.headers, profile(`  ${name}  `))
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.user.nickname).toBe(name)
    expect(data.authResponse).toBeNull() // no refresh token sent: nothing to hand back
    expect(await names()).toEqual([name, name])
    expect((await read(await call(author, 'GET', '/api/v1/user/me'))).data.user.nickname).toBe(name)
  })

  it('refuses a nickname another reader has, whatever its case (É too), in French, and changes nothing', async () => {
    const first = await newReader()
    const second = await newReader()
    const name = nick('Émile')
    expect((await put(first.headers, profile(name))).status).toBe(200)
    const before = await row(second.id)
    for (const other of [name.toUpperCase(), name.toLowerCase(), ` ${name} `]) {
      const res = await put(second.headers, profile(other))
      const body = await read(res)
      expect({ status: res.status, code: body.code, reason: body.reason }).toEqual({
        status: 400,
        code: 'INVALID_PARAMETER',
        reason: 'TAKEN',
      })
      expect(body.message).toBe('Ce pseudo est déjà pris. Choisissez-en un autre.')
    }
    expect(await row(second.id)).toEqual(before)
    // its owner may change its case
    expect((await read(await put(first.headers, profile(name.toUpperCase())))).data.user.nickname).toBe(name.toUpperCase())
  })

  it('refuses a prohibited word, a length outside 2–20 and other characters, each with its own French message', async () => {
    const reader = await newReader()
    const before = await row(reader.id)
    const cases: [string, string, string][] = [
      ['Roi des Arnaques', 'BANNED', "Le mot arnaque n'est pas autorisé."],
      ['a', 'LENGTH', 'Le pseudo doit compter de 2 à 20 caractères.'],
      ['x'.repeat(21), 'LENGTH', 'Le pseudo doit compter de 2 à 20 caractères.'],
      ['<b>moi</b>', 'CHARS', frMessages['account.profile.chars']!],
    ]
    for (const [nickname, reason, message] of cases) {
      const body = await read(await put(reader.headers, profile(nickname)))
      expect({ code: body.code, reason: body.reason, message: body.message }).toEqual({ code: 'INVALID_PARAMETER', reason, message })
    }
    expect(await row(reader.id)).toEqual(before)
  })

  it('a guest is sent to log in, and a body naming another account changes only the caller', async () => {
    await expectError(await put({}, profile(nick())), 401, 'NOT_LOGIN_USER')
    const caller = await newReader()
    const victim = await newReader()
    const before = await row(victim.id)
    const name = nick()
    expect((await put(caller.headers, { ...profile(name), userId: victim.id, id: victim.id })).status).toBe(200)
    expect(await row(victim.id)).toEqual(before)
    expect((await row(caller.id))!.nickname).toBe(name)
  })

  it('issue 34 (6): a lookalike of a taken nickname is TAKEN; a name of the service or its staff is RESERVED, in French', async () => {
    const first = await newReader()
    const second = await newReader()
    const name = `lecteur${uniq().replace(/\D/g, '').slice(-6)}`
    expect((await put(first.headers, profile(name))).status).toBe(200)
    for (const other of [name.replace('e', '\u0435'), name.toUpperCase().replace('L', 'Ｌ'), name.replace('l', '1')]) {
      const body = await read(await put(second.headers, profile(other)))
      expect({ code: body.code, reason: body.reason }, other).toEqual({ code: 'INVALID_PARAMETER', reason: 'TAKEN' })
    }
    const invisible = await read(await put(second.headers, profile(`${name}\u034f`)))
    expect(invisible.reason).toBe('CHARS')
    for (const staff of ['Admin', 'Équipe Bomtoon', 'Modérateur_1', 'Аdmin']) {
      const body = await read(await put(second.headers, profile(staff)))
      expect({ reason: body.reason, message: body.message }, staff).toEqual({
        reason: 'RESERVED',
        message: frMessages['account.profile.reserved'],
      })
    }
    expect((await row(second.id))?.nickname).toBeNull()
  })

  it('the cron re-keys nicknames keyed by the older rule; of two that now look alike the older account keeps the key', async () => {
    const older = await newReader()
    const younger = await newReader()
    const tag = uniq().replace(/\D/g, '').slice(-6)
    await db()
      .prepare(`UPDATE users SET nickname = ?, nickname_key = ?, nickname_key_version = 1 WHERE id = ?`)
      .bind(`ana${tag}`, `ana${tag}`, older.id)
      .run()
    await db()
      .prepare(`UPDATE users SET nickname = ?, nickname_key = ?, nickname_key_version = 1 WHERE id = ?`)
      .bind(`\u0430na${tag}`, `\u0430na${tag}`, younger.id)
      .run()
    while ((await rekeyNicknames(createDb(db()))) > 0);
    const keys = await db()
      .prepare(`SELECT id, nickname_key AS k, nickname_key_version AS v FROM users WHERE id IN (?, ?) ORDER BY id`)
      .bind(older.id, younger.id)
      .all()
    expect(keys.results).toEqual([
      { id: older.id, k: nicknameKey(`ana${tag}`), v: 2 },
      { id: younger.id, k: `${nicknameKey(`ana${tag}`)}#${younger.id}`, v: 2 },
    ])
    // a third reader cannot take either look now
    const third = await newReader()
    expect((await read(await put(third.headers, profile(`ana${tag}`)))).reason).toBe('TAKEN')
  })

  it('40 readers asking for one nickname at once: exactly one gets it, the 39 others are told it is taken', async () => {
    const readers = await Promise.all(Array.from({ length: 40 }, () => newReader()))
    const name = nick('Course')
    const answers = await Promise.all(readers.map((r) => put(r.headers, profile(name))))
    const outcomes = await Promise.all(answers.map(async (res) => (res.status === 200 ? 'OK' : `${(await read(res)).reason}`)))
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'TAKEN')).toHaveLength(39)
    const holders = await db().prepare(`SELECT id FROM users WHERE nickname_key = ?`).bind(nicknameKey(name)).all<{ id: number }>()
    expect(holders.results).toHaveLength(1)
    expect(readers[outcomes.indexOf('OK')]!.id).toBe(holders.results[0]!.id)
  })
})

describe('PUT /user actions ADULT and MAIL, and the renewed tokens', () => {
  it('an app that sends its refresh token gets authResponse: a renewed pair, the old refresh token spent', async () => {
    const user = await makeUser()
    const old = await tokensFor(user.email)
    const res = await put(bearer(old.accessToken.value), profile(nick(), { refreshToken: old.refreshToken.value }))
    expect(res.status).toBe(200)
    const { authResponse } = (await read(res)).data
    expect(authResponse.accessToken.value).toMatch(/^ey/)
    expect(authResponse.refreshToken.value).not.toBe(old.refreshToken.value)
    const refresh = (pair: { accessToken: { value: string }; refreshToken: { value: string } }) =>
      json('POST', '/api/v1/auth/refresh', { accessToken: pair.accessToken.value, refreshToken: pair.refreshToken.value })
    expect((await refresh(old)).status).toBeGreaterThanOrEqual(400)
    expect((await refresh(authResponse)).status).toBe(200)
  })

  it('ADULT runs the age check: an adult birth date makes the reader adult, a minor one is refused and changes nothing', async () => {
    const user = await makeUser()
    const old = await tokensFor(user.email)
    const headers = bearer(old.accessToken.value)
    const minor = `${new Date().getUTCFullYear() - 12}-01-01`
    await expectError(await put(headers, { action: 'ADULT', verifyAdultRequest: { birthedAt: minor } }), 400, 'INVALID_PARAMETER')
    expect((await row(user.id))!.is_adult).toBe(0)
    const res = await put(headers, {
      action: 'ADULT',
      verifyAdultRequest: { birthedAt: '1985-01-31' },
      refreshToken: old.refreshToken.value,
    })
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.user.isAdult).toBe(true)
    expect(data.user.birthedAt).toBe('1985-01-31')
    expect(data.authResponse.refreshToken.value).not.toBe(old.refreshToken.value)
  })

  it('MAIL sets the e-mail consent alone; the push settings stay as they were', async () => {
    const reader = await newReader()
    const push = { isAgreePush: true, isAgreePushNight: false, isAgreePushFreetime: true, isAgreePushContents: false }
    expect((await call(reader, 'PUT', '/api/v1/user/push', push)).status).toBe(200)
    for (const isAgreeMail of [true, false]) {
      const { data } = await read(await put(reader.headers, { action: 'MAIL', agreeMailRequest: { isAgreeMail } }))
      expect(data.user.isAgreeMail).toBe(isAgreeMail)
      const saved = (await read(await call(reader, 'GET', '/api/v1/user/push'))).data
      expect(saved).toMatchObject({ ...push, isAgreeMail })
    }
  })

  it('on the web the renewed pair goes into the session cookie, never into the body', async () => {
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    const res = await put({ cookie, origin: 'http://localhost' }, { action: 'MAIL', agreeMailRequest: { isAgreeMail: true } })
    expect(res.status).toBe(200)
    expect((await read(res)).data.authResponse).toBeNull()
    const renewed = /wt_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
    expect(renewed).toBeTruthy()
    expect(`wt_session=${renewed}`).not.toBe(cookie)
  })
})

describe('the /my/profile plain form', () => {
  it('saves the nickname and goes back to the page; a taken one comes back with its reason and the typed nickname kept', async () => {
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    const name = nick()
    const ok = await form('/api/v1/user/web/profile', { nickname: name }, { cookie })
    expect(ok.status).toBe(303)
    expect(ok.headers.get('location')).toBe('/my/profile?saved=1')
    expect((await row(user.id))!.nickname).toBe(name)

    const other = await makeUser()
    const otherCookie = await webCookie(other.email)
    const taken = await form('/api/v1/user/web/profile', { nickname: name.toUpperCase() }, { cookie: otherCookie })
    expect(taken.status).toBe(303)
    expect(taken.headers.get('location')).toBe('/my/profile?error=INVALID_PARAMETER&reason=TAKEN')
    expect(taken.headers.get('set-cookie')).toMatch(/form-flash=.*nickname/)
    const banned = await form('/api/v1/user/web/profile', { nickname: 'arnaqueur' }, { cookie: otherCookie })
    expect(banned.headers.get('location')).toBe('/my/profile?error=INVALID_PARAMETER&reason=BANNED&word=arnaque')
    expect((await row(other.id))!.nickname).toBeNull()
  })

  it('a guest goes to log in, another site is refused, and neither changes anything', async () => {
    const guest = await form('/api/v1/user/web/profile', { nickname: nick() })
    expect(guest.status).toBe(303)
    expect(guest.headers.get('location')).toBe('/user/login?callback=%2Fmy%2Fprofile')
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    const cross = await form('/api/v1/user/web/profile', { nickname: nick() }, { cookie, origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect((await row(user.id))!.nickname).toBeNull()
  })
})

describe('PUT /user bad input', () => {
  it('1,000 generated bad bodies: never a 5xx, every error a catalogue code with a message, a refused one changes nothing', async () => {
    const reader: Reader = await newReader()
    const anything = fc.oneof(fc.anything(), fc.string({ maxLength: 30 }), fc.string({ minLength: 250, maxLength: 400 }))
    const body = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            action: fc.oneof(fc.constantFrom('PROFILE', 'ADULT', 'MAIL', 'profile', ''), anything),
            profileRequest: fc.oneof(fc.record({ nickname: anything }, { requiredKeys: [] }), anything),
            verifyAdultRequest: fc.oneof(fc.record({ birthedAt: anything }, { requiredKeys: [] }), anything),
            agreeMailRequest: fc.oneof(fc.record({ isAgreeMail: anything }, { requiredKeys: [] }), anything),
            refreshToken: anything,
          },
          { requiredKeys: [] },
        )
        .map((v) => {
          try {
            return JSON.stringify(v) ?? '{}'
          } catch {
            return '{}'
          }
        }),
    )
    let refused = 0
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('application/json', 'text/plain', ''), async (b, type) => {
        const before = await row(reader.id)
        const res = await call({ headers: { ...reader.headers, ...(type ? { 'content-type': type } : {}) } }, 'PUT', '/api/v1/user', b)
        const status = res.status
        await expectApiAnswer(res, b.slice(0, 200))
        if (status >= 400) {
          refused++
          expect(await row(reader.id)).toEqual(before)
        }
      }),
      { numRuns: 1000 },
    )
    expect(refused).toBeGreaterThan(900)
  }, 180_000)
})
