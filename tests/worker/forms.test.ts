/**
 * The plain-form routes (functions/api/forms.ts `formRoute`) on real workerd + D1: a form that moves coins goes
 * through the same `idempotent()` middleware as the JSON routes, keyed by the hidden `key` field its page renders.
 * The same form sent again (or 40 times at once) moves coins once and lands on the first answer's page; the same
 * key with another form is IDEMPOTENCY_KEY_REUSED; nothing else changes. A refused form goes back with only
 * `?error=CODE` and a one-read flash cookie of what is safe to show again (never a password), the field concerned
 * and, for a wrong code, the tries left (issue 25 point 3); the sign-up code signs the reader in, to the callback.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { app, expectInvariant, get, newReader, read, type Reader } from './purchase.helpers.ts'
import { giveTickets, newRoulette, rouletteSnapshot } from './roulette.helpers.ts'
import { newProduct, paymentFor, postWebhook, signedEvent } from './payment.helpers.ts'
import { request } from './app.ts'
import { readerRows } from './reader-rows.ts'

const form = (reader: Pick<Reader, 'headers'>, path: string, fields: Record<string, string>) =>
  request(app, path, {
    method: 'POST',
    headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded', ...reader.headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })

const ledgerRows = async (userId: number) =>
  (await readerRows.first<{ n: number }>(userId, `SELECT count(*) AS n FROM coin_ledger WHERE user_id = ?`, userId))!.n

describe('a repeated plain form moves coins once', () => {
  it('roulette: 40 concurrent posts of one rendered form spin once; all land on its prize', async () => {
    const reader = await newReader()
    const eventId = await newRoulette()
    await giveTickets(reader.id, 3, eventId)
    const fields = { eventId: String(eventId), key: crypto.randomUUID() }
    const answers = await Promise.all(Array.from({ length: 40 }, () => form(reader, '/api/v1/roulette/web/spin', fields)))
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(303))
    expect(new Set(answers.map((r) => r.headers.get('location')))).toEqual(new Set(['/roulette?prize=BONUS:5#roulette-status']))
    expect((await rouletteSnapshot(reader.id)).entries).toEqual({ n: 1 })
    expect((await read(await get(reader, `/api/v1/roulette?eventId=${eventId}`))).data.tickets).toBe(2)
    expect(await ledgerRows(reader.id)).toBe(1)
    // the same key with another form: refused, nothing moves
    const other = await form(reader, '/api/v1/roulette/web/spin', { eventId: String(eventId + 1), key: fields.key })
    expect(other.headers.get('location')).toBe('/roulette?error=IDEMPOTENCY_KEY_REUSED#roulette-status')
    expect(await ledgerRows(reader.id)).toBe(1)
    await expectInvariant(reader.id)
  })

  it('refund (charge history): the same form twice refunds once and answers refunded both times', async () => {
    const reader = await newReader()
    const paymentId = await paymentFor(reader, await newProduct({ coins: 100, bonus: 15 }))
    expect((await postWebhook(await signedEvent(paymentId))).status).toBe(200)
    const fields = { paymentId, key: `k${crypto.randomUUID().replaceAll('-', '')}` }
    const first = await form(reader, '/api/v1/payment/web/refund', fields)
    const again = await form(reader, '/api/v1/payment/web/refund', fields)
    expect([first.status, again.status]).toEqual([303, 303])
    expect([first.headers.get('location'), again.headers.get('location')]).toEqual([
      '/history/charge?refunded=1',
      '/history/charge?refunded=1',
    ])
    expect(
      await readerRows.all(
        reader.id,
        `SELECT kind, amount FROM coin_ledger WHERE user_id = ? AND ref = ? AND kind = 'REFUND_PURCHASE' ORDER BY id`,
        reader.id,
        paymentId,
      ),
    ).toEqual([
      { kind: 'REFUND_PURCHASE', amount: -100 },
      { kind: 'REFUND_PURCHASE', amount: -15 },
    ])
    // a new render (another key) of a refunded payment: the catalogue code of the refusal
    const late = await form(reader, '/api/v1/payment/web/refund', { paymentId, key: `k${crypto.randomUUID().replaceAll('-', '')}` })
    expect(late.headers.get('location')).toBe('/history/charge?error=INVALID_PARAMETER')
    await expectInvariant(reader.id)
  })
})

const guest = { headers: {} }
const PASSWORD = 'Newbie-2026'
let seq = 0
const freshEmail = () => `flash${Date.now()}-${++seq}@example.com`
/** The flash cookie a refusal set: its attributes and its JSON. */
function flashOf(res: Response) {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('form-flash='))
  if (!raw) return null
  return { raw, value: JSON.parse(decodeURIComponent(/^form-flash=([^;]*)/.exec(raw)![1]!)) as Record<string, unknown> }
}
async function latestOtp(email: string) {
  const mail = await env.DB.prepare(`SELECT body FROM outbox WHERE recipient = ? AND template = 'signup-otp' ORDER BY id DESC LIMIT 1`)
    .bind(email)
    .first<{ body: string }>()
  return /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1]
}
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
const signUp = (email: string, extra: Record<string, string> = {}) =>
  form(guest, '/api/v1/auth/web/sign-up', { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: 'on', ...extra })

describe('a refused form keeps what the reader typed (flash cookie), passwords aside', () => {
  it('sign-up, mismatched confirmation: ?error only in the URL; the flash keeps the e-mail and the ticked boxes, names the confirmation', async () => {
    const email = freshEmail()
    const res = await signUp(email, { passwordConfirm: 'Other-2026', agreeMail: 'on', callback: '/series/1' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/user/signup?error=INCORRECT_PASSWORD&callback=%2Fseries%2F1')
    const flash = flashOf(res)!
    expect(flash.raw).toMatch(/HttpOnly/)
    expect(flash.raw).toMatch(/SameSite=Lax/)
    expect(flash.raw).toMatch(/Path=\/user\/signup(;|$)/)
    expect(flash.raw).toMatch(/Max-Age=60\b/)
    expect(flash.value).toEqual({
      code: 'INCORRECT_PASSWORD',
      field: 'passwordConfirm',
      values: { email, agreeTerms: 'on', agreeMail: 'on' },
    })
    expect(flash.raw).not.toContain('Newbie')
    expect(flash.raw).not.toContain('Other-2026')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE email = ?').bind(email).first('n')).toBe(0)
  })

  it('sign-up, terms not ticked: the flash names the terms checkbox; an e-mail already used names the e-mail', async () => {
    const email = freshEmail()
    const noTerms = await form(guest, '/api/v1/auth/web/sign-up', { email, password: PASSWORD, passwordConfirm: PASSWORD })
    expect(flashOf(noTerms)!.value).toEqual({ code: 'INVALID_PARAMETER', field: 'agreeTerms', values: { email } })
    expect((await signUp(email)).status).toBe(303)
    const used = await signUp(email)
    expect(used.headers.get('location')).toBe('/user/signup?error=ALREADY_USED_EMAIL')
    expect(flashOf(used)!.value).toMatchObject({ field: 'email', values: { email, agreeTerms: 'on' } })
  })

  it('sign-in, wrong password: the flash keeps the e-mail, names the password, never holds it', async () => {
    const reader = await newReader()
    const email = (await env.DB.prepare('SELECT email FROM users WHERE id = ?').bind(reader.id).first<string>('email'))!
    const res = await form(guest, '/api/v1/auth/web/sign-in', { email, password: 'Wrong-pass-1', callback: '/gift' })
    expect(res.headers.get('location')).toBe('/user/login?error=INVALID_PASSWORD&callback=%2Fgift')
    const flash = flashOf(res)!
    expect(flash.value).toEqual({ code: 'INVALID_PASSWORD', field: 'password', values: { email } })
    expect(flash.raw).toMatch(/Path=\/user\/login(;|$)/)
    expect(flash.raw).not.toContain('Wrong-pass')
  })
})

describe('the sign-up code step', () => {
  it('a wrong code says how many tries are left (4, 3, …); the right one signs the reader in and goes to the callback', async () => {
    const email = freshEmail()
    const up = await signUp(email, { callback: '/series/1' })
    expect(up.headers.get('location')).toBe('/user/signup?step=otp&callback=%2Fseries%2F1')
    const code = (await latestOtp(email))!
    for (const left of [4, 3]) {
      const wrong = await form(guest, '/api/v1/auth/web/verify-otp', { email, code: otherCode(code), callback: '/series/1' })
      expect(wrong.headers.get('location')).toBe('/user/signup?step=otp&error=INVALID_PARAMETER&callback=%2Fseries%2F1')
      expect(flashOf(wrong)!.value).toEqual({ code: 'INVALID_PARAMETER', field: 'code', values: { email }, attemptsLeft: left })
    }
    const right = await form(guest, '/api/v1/auth/web/verify-otp', { email, code, callback: '/series/1' })
    expect(right.status).toBe(303)
    expect(right.headers.get('location')).toBe('/series/1')
    const session = /wt_session=([^;]*)/.exec(right.headers.getSetCookie().join('\n'))?.[1]
    expect(session).toBeTruthy()
    const me = await request(app, '/api/v1/user/me', { headers: { cookie: `wt_session=${session}` } })
    expect((await read(me)).data.user.email).toBe(email)
  })

  it('40 wrong codes at once: five are told 4, 3, 2, 1, 0 tries left (one conditional statement), the rest EXPIRED_OTP', async () => {
    const email = freshEmail()
    await signUp(email)
    const wrongCode = otherCode((await latestOtp(email))!)
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => form(guest, '/api/v1/auth/web/verify-otp', { email, code: wrongCode })),
    )
    const errors = answers.map((r) => new URL(r.headers.get('location')!, 'http://localhost').searchParams.get('error'))
    expect(errors.filter((e) => e === 'INVALID_PARAMETER')).toHaveLength(5)
    expect(errors.filter((e) => e === 'EXPIRED_OTP')).toHaveLength(35)
    const left = answers.map((r) => flashOf(r)?.value.attemptsLeft).filter((n) => n !== undefined)
    expect(left.sort()).toEqual([0, 1, 2, 3, 4])
  })
})
