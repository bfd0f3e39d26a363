/**
 * Helpers of the account life-cycle worker tests: the app with the account messages, fresh accounts written
 * straight into D1 (password `Reader-2026!` under the tests' pepper), JSON calls and the outbox as a reader sees it.
 */
import { expect } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, expectError, frEdition, frMessages, read, request, type Body } from './app.ts'

export { expectError, read, type Body }
import { READER_PASSWORD_HASH } from './seed.ts'

export const ORIGIN = 'http://localhost'
export const PASSWORD = 'Reader-2026!'
export const app = appFor(frEdition, frMessages)
export const db = () => env.DB

export const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(app, path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
/** A plain HTML form post from the site's own page. */
export const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  request(app, path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  })

let seq = 0
export const uniq = () => `${Date.now().toString(36)}${(++seq).toString(36)}`
/** A unique French mobile number in E.164 (06 1x: every number of that range is a valid mobile; 069x ones are not). */
export const freshPhone = () => `+3361${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq % 100).padStart(2, '0')}`

/** A verified e-mail account (password `Reader-2026!`), optionally phone-registered or social-only. */
export async function makeUser(opts: { phone?: string; social?: boolean; email?: string } = {}): Promise<{ id: number; email: string }> {
  const email = opts.email ?? `acct-${uniq()}@example.com`
  const row = await db()
    .prepare(`INSERT INTO users (email, password_hash, phone, email_verified_at) VALUES (?, ?, ?, ?) RETURNING id`)
    .bind(email, opts.social ? null : READER_PASSWORD_HASH, opts.phone ?? null, new Date().toISOString())
    .first<{ id: number }>()
  if (opts.social)
    await db()
      .prepare(`INSERT INTO identities (user_id, provider, provider_user_id, email) VALUES (?, 'google', ?, ?)`)
      .bind(row!.id, uniq(), email)
      .run()
  return { id: row!.id, email }
}

export const signIn = (email: string, password = PASSWORD) => json('POST', '/api/v1/auth/sign-in', { email, password })
export async function tokensFor(email: string, password = PASSWORD) {
  const res = await signIn(email, password)
  expect(res.status).toBe(200)
  return (await read(res)).data as { accessToken: { value: string }; refreshToken: { value: string }; userId: number }
}
/** The cookies a sign-in through the login form leaves in the browser: the session and its readable mark. */
export async function webCookie(email: string, password = PASSWORD): Promise<string> {
  const res = await form('/api/v1/auth/web/sign-in', { email, password, callback: '/' })
  const value = /wt_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]
  expect(value).toBeTruthy()
  expect(res.headers.getSetCookie().some((c) => c.startsWith('wt_signed=1;'))).toBe(true)
  return `wt_session=${value}; wt_signed=1`
}

export type OutboxRow = { id: number; channel: string; recipient: string; template: string; subject: string | null; body: string }
export async function outboxFor(recipient: string, template?: string): Promise<OutboxRow[]> {
  const rows = await db()
    .prepare(`SELECT id, channel, recipient, template, subject, body FROM outbox WHERE recipient = ? ORDER BY id DESC`)
    .bind(recipient)
    .all<OutboxRow>()
  return rows.results.filter((r) => template === undefined || r.template === template)
}
/** The reset link of the latest reset mail, as the reader would click it: {userId, uuid}. */
export async function latestResetLink(email: string): Promise<{ userId: number; uuid: string; url: string }> {
  const [mail] = await outboxFor(email, 'reset-password')
  const url = /https?:\/\/\S+/.exec(mail?.body ?? '')?.[0]
  expect(url, 'reset mail with a link').toBeTruthy()
  const u = new URL(url!)
  return { userId: Number(u.searchParams.get('userId')), uuid: u.searchParams.get('uuid')!, url: url! }
}
/** The code of the latest SMS to `phone`. */
export async function latestSmsCode(phone: string): Promise<string> {
  const [sms] = await outboxFor(phone)
  const code = /\b(\d{6})\b/.exec(sms?.body ?? '')?.[1]
  expect(code, 'an SMS code').toBeTruthy()
  return code!
}
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
export async function passwordHashOf(id: number) {
  return db().prepare(`SELECT password_hash FROM users WHERE id = ?`).bind(id).first<string>('password_hash')
}
