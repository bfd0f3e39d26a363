/**
 * The e-mail consent form of /setting (POST /api/v1/user/web/mail, spec §2 app settings): it sets the signed-in
 * reader's consent alone (push settings stay), only from our own pages, only for the reader who posts it; a
 * guest goes to the login route. 1,000 generated bodies: never a 5xx, always a 303 to /setting, a refusal is a
 * catalogue code and changes nothing, and no other account changes.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { ORIGIN, app, bearer, db, form, json, makeUser, read, tokensFor, webCookie } from './account.helpers.ts'
import { request } from './app.ts'

const PATH = '/api/v1/user/web/mail'
const ALL_ON = { isAgreePush: true, isAgreePushNight: true, isAgreePushFreetime: true, isAgreePushContents: true, isAgreeMail: true }

const consentOf = async (id: number) =>
  (await db().prepare('SELECT is_agree_mail FROM users WHERE id = ?').bind(id).first<number>('is_agree_mail'))!
const pushOf = (id: number) =>
  db()
    .prepare(
      'SELECT is_agree_push, is_agree_push_night, is_agree_push_freetime, is_agree_push_contents FROM push_settings WHERE user_id = ?',
    )
    .bind(id)
    .first()

let me: { id: number; email: string }
let other: { id: number; email: string }
let cookie = ''
beforeAll(async () => {
  me = await makeUser()
  other = await makeUser()
  cookie = await webCookie(me.email)
  for (const u of [me, other]) {
    const token = (await tokensFor(u.email)).accessToken.value
    expect((await json('PUT', '/api/v1/user/push', ALL_ON, bearer(token))).status).toBe(200)
  }
})

describe('e-mail consent on /setting (plain form)', () => {
  it('unticked turns the consent off, ticked on again; the push settings stay as they were', async () => {
    const off = await form(PATH, {}, { cookie })
    expect([off.status, off.headers.get('location')]).toEqual([303, '/setting?saved=mail'])
    expect(await consentOf(me.id)).toBe(0)
    expect(await pushOf(me.id)).toEqual({ is_agree_push: 1, is_agree_push_night: 1, is_agree_push_freetime: 1, is_agree_push_contents: 1 })
    const on = await form(PATH, { isAgreeMail: 'on' }, { cookie })
    expect(on.headers.get('location')).toBe('/setting?saved=mail')
    expect(await consentOf(me.id)).toBe(1)
    // what the app reads back agrees
    const token = (await tokensFor(me.email)).accessToken.value
    expect((await read(await json('GET', '/api/v1/user/push', undefined, bearer(token)))).data).toMatchObject(ALL_ON)
  })

  it('a guest goes to the login route (back to /setting after it) and nothing changes', async () => {
    const res = await form(PATH, {})
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/user/login?callback=%2Fsetting')
    expect([await consentOf(me.id), await consentOf(other.id)]).toEqual([1, 1])
  })

  it("another site's form is refused (403 FORBIDDEN_ORIGIN) and changes nothing", async () => {
    const res = await form(PATH, {}, { cookie, origin: 'https://evil.example' })
    expect(res.status).toBe(403)
    expect(await consentOf(me.id)).toBe(1)
  })

  it("only the poster's consent changes: another account's id in the form is ignored", async () => {
    const res = await form(PATH, { userId: String(other.id), id: String(other.id) }, { cookie })
    expect(res.headers.get('location')).toBe('/setting?saved=mail')
    expect([await consentOf(me.id), await consentOf(other.id)]).toEqual([0, 1])
    await form(PATH, { isAgreeMail: 'on' }, { cookie })
  })

  it('a value longer than a checkbox sends is refused with its catalogue code and changes nothing', async () => {
    const res = await form(PATH, { isAgreeMail: 'x'.repeat(17) }, { cookie })
    expect(res.headers.get('location')).toBe('/setting?error=INVALID_PARAMETER')
    expect(await consentOf(me.id)).toBe(1)
  })

  it(
    '1,000 generated form bodies: a 303 to /setting, a refusal is a catalogue code and changes nothing, never 5xx',
    { timeout: 300_000 },
    async () => {
      const name = fc.constantFrom('isAgreeMail', 'userId', 'isAgreePush', 'key', '')
      const value = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 300, maxLength: 600 }), fc.constant('on'))
      const pairs = fc.array(fc.tuple(name, value), { maxLength: 6 })
      await fc.assert(
        fc.asyncProperty(pairs, fc.boolean(), async (fields, multipart) => {
          const before = await consentOf(me.id)
          let body: BodyInit = new URLSearchParams(fields).toString()
          const headers: Record<string, string> = { origin: ORIGIN, cookie }
          if (multipart) {
            const data = new FormData()
            for (const [k, v] of fields) data.append(k, v)
            body = data
          } else headers['content-type'] = 'application/x-www-form-urlencoded'
          const res = await request(app, PATH, { method: 'POST', headers, body, redirect: 'manual' })
          expect(res.status).toBe(303)
          const location = new URL(res.headers.get('location')!, ORIGIN)
          expect(location.pathname).toBe('/setting')
          const code = location.searchParams.get('error')
          if (code !== null) {
            expect(isErrorCode(code), code).toBe(true)
            expect(await consentOf(me.id)).toBe(before)
          } else {
            const ticked = fields.filter(([k]) => k === 'isAgreeMail')
            expect(ticked.length).toBeLessThan(2) // a repeated field is not a checkbox: refused
            expect(await consentOf(me.id)).toBe(ticked.length)
          }
        }),
        { numRuns: 1000 },
      )
      expect(await consentOf(other.id)).toBe(1)
      for (const u of [me, other])
        expect(await pushOf(u.id)).toEqual({
          is_agree_push: 1,
          is_agree_push_night: 1,
          is_agree_push_freetime: 1,
          is_agree_push_contents: 1,
        })
    },
  )
})
