/**
 * Mail through Cloudflare Email Service (issue 22 §1, §3, §4) on real workerd + D1, the worker running as a
 * deployment (local-run switch off): every template the code sends, in fr and in ar, goes through the
 * simulated `send_email` binding (which accepts only the editions' senders) with the edition's sender, subject,
 * a plain-text and an HTML part in the edition's language, and no message body, code or link is left in D1.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, frEdition, frMessages, inRequest, request } from './app.ts'
import { makeUser } from './account.helpers.ts'
import { deployed, type SentMail } from './messaging.helpers.ts'
import { seedDemo } from './seed.ts'
import { parseEdition, type Edition } from '../../src/lib/edition/schema.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { answerQna } from '../../src/features/qna/qna.server.ts'
import { messageProvider } from '../../src/lib/messaging/messaging.server.ts'
import { issueTokens } from '../../src/features/auth/auth.server.ts'
import ar from '../../editions/ar/edition.json'

const arMessages: Record<string, string> = Object.assign(
  {},
  ...Object.values(import.meta.glob<Record<string, string>>('../../editions/ar/messages/*.json', { eager: true, import: 'default' })),
)
const db = createDb(env.DB)
const PASSWORD = 'Reader-2026!'
const withTransfer = (e: Edition): Edition => ({ ...e, features: { ...e.features, transfer: true } })
const EDITIONS = {
  fr: { edition: withTransfer(frEdition), messages: frMessages },
  ar: { edition: withTransfer(parseEdition('ar', ar)), messages: arMessages },
}

/** Subject and body keys of each template, for the language checks. */
const KEYS: Record<string, [string, string]> = {
  'signup-otp': ['auth.mail.otp.subject', 'auth.mail.otp.body'],
  'reset-password': ['account.mail.reset.subject', 'account.mail.reset.body'],
  'reset-not-local': ['account.mail.reset.subject', 'account.mail.reset.notLocal'],
  'password-changed': ['account.mail.changed.subject', 'account.mail.changed.body'],
  withdrawal: ['account.mail.withdrawal.subject', 'account.mail.withdrawal.body'],
  'transfer-code': ['account.mail.transfer.subject', 'account.mail.transfer.body'],
  'qna-received': ['community.qna.mail.received.subject', 'community.qna.mail.received.body'],
  'qna-answered': ['community.qna.mail.answered.subject', 'community.qna.mail.answered.body'],
}

const unescape = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
/** The longest fixed part of a message (between its {{placeholders}}): present in the mail only in that language. */
const fixedPart = (message: string) =>
  message
    .split(/\{\{\w+\}\}/)
    .map((s) => s.trim())
    .sort((a, b) => b.length - a.length)[0]!
const linkIn = (mail: SentMail) => /https?:\/\/\S+/.exec(mail.text!)![0]

/** Drives every flow that sends a mail through the edition's app and returns the mails by template. */
async function everyMail(edition: Edition, messages: Record<string, string>, sent: SentMail[]): Promise<Record<string, SentMail>> {
  const app = appFor(edition, messages)
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(app, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  // a real session (the access token names its refresh family: a token of no open session is refused)
  const bearer = async (id: number) => ({
    authorization: `Bearer ${(await issueTokens(createDb(env.DB), id, { issuer: edition.siteUrl, t: (k) => k })).accessToken.value}`,
  })
  const mails: Record<string, SentMail> = {}
  const last = (template: string) => {
    mails[template] = sent.at(-1)!
    return mails[template]
  }
  const uniq = () => `${edition.id}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`

  const newcomer = uniq()
  expect(
    (await post('/api/v1/auth/sign-up', { email: newcomer, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true })).status,
  ).toBe(200)
  expect(last('signup-otp').to).toBe(newcomer)

  const reader = await makeUser({ email: uniq() })
  expect((await post('/api/v1/auth/mail/password', { email: reader.email })).status).toBe(200)
  const reset = new URL(linkIn(last('reset-password')))
  // the link in the mail works: the reset succeeds and the "password changed" notice follows
  const done = await post('/api/v1/auth/local/reset/password', {
    userId: Number(reset.searchParams.get('userId')),
    uuid: reset.searchParams.get('uuid'),
    newPassword: 'Nouveau2026x',
  })
  expect(done.status).toBe(200)
  expect(last('password-changed').to).toBe(reader.email)

  const social = await makeUser({ email: uniq(), social: true })
  expect((await post('/api/v1/auth/mail/password', { email: social.email })).status).toBe(200)
  last('reset-not-local')

  const leaving = await makeUser({ email: uniq() })
  expect((await post('/api/v1/user/withdrawal', { reasons: ['PRIVACY'], agree: true }, await bearer(leaving.id))).status).toBe(200)
  last('withdrawal')

  const moving = await makeUser({ email: uniq() })
  expect((await post('/api/v1/user/transfer/start', {}, await bearer(moving.id))).status).toBe(200)
  expect((await post('/api/v1/user/transfer/request', { agree: true }, await bearer(moving.id))).status).toBe(200)
  last('transfer-code')

  const asking = await makeUser({ email: uniq() })
  const asked = await post(
    '/api/v1/qna',
    { category: 'PAYMENT', title: 'Double paiement', text: 'Débité deux fois.' },
    await bearer(asking.id),
  )
  expect(asked.status).toBe(201)
  last('qna-received')
  const qnaId = ((await asked.json()) as { data: { id: number } }).data.id
  const t = createTranslator(edition, messages)
  await inRequest({ requestId: `answer-${qnaId}`, edition }, () =>
    answerQna(db, qnaId, 'Nous vous avons remboursé.', { t, siteUrl: edition.siteUrl }),
  )
  expect(last('qna-answered').text).toContain('Nous vous avons remboursé.')
  return mails
}

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe.each(Object.entries(EDITIONS))('every mail template as a deployed %s edition sends it', (id, { edition, messages }) => {
  let mails: Record<string, SentMail>
  let outboxBefore: number
  beforeAll(async () => {
    outboxBefore = (await db.first<{ n: number }>(`SELECT count(*) AS n FROM outbox`))!.n
    mails = await deployed((sent) => everyMail(edition, messages, sent))
  })

  it.each(Object.keys(KEYS))('%s: sender, recipient, subject, text and HTML parts in the edition language', (template) => {
    const mail = mails[template]!
    const [subjectKey, bodyKey] = KEYS[template]!
    const host = new URL(edition.siteUrl).host
    expect(mail.from).toEqual({ name: edition.mail!.fromName, email: edition.mail!.from })
    expect(mail.messageId, 'accepted by the send_email binding for the sender domain').toMatch(
      new RegExp(`@${host.replace(/\./g, '\\.')}>$`),
    )
    expect(mail.to).toMatch(new RegExp(`^${id}-.*@example\\.com$`))
    expect(mail.subject).toBe(messages[subjectKey])
    // the same words in both parts, in this edition's language
    expect(mail.text).toContain(fixedPart(messages[bodyKey]!))
    expect(unescape(mail.html!)).toContain(fixedPart(messages[bodyKey]!))
    expect(mail.html).toContain(`<html lang="${edition.locale}" dir="${edition.direction}">`)
    expect(mail.html).toContain(edition.theme.primary)
    expect(mail.html).toContain(edition.siteName)
    // no remote images, every link absolute to the edition's own site
    expect(mail.html).not.toMatch(/<img|src=/i)
    const hrefs = [...mail.html!.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!)
    expect(hrefs.length).toBeGreaterThan(0)
    for (const href of hrefs) expect(href.startsWith(`${edition.siteUrl.replace(/\/$/, '')}/`), href).toBe(true)
    expect(mail.headers).toMatchObject({ 'Auto-Submitted': 'auto-generated', 'Content-Language': edition.locale })
    // a reply to a support answer goes to the question's own signed address; others to the support address
    if (template === 'qna-answered')
      expect(mail.replyTo).toMatch(new RegExp(`^support\\+q\\d+-[0-9a-f]{20}@${host.replace(/\./g, '\\.')}$`))
    else expect(mail.replyTo).toBe(edition.mail!.replyTo)
  })

  it('keeps no message body, code or link in D1: the outbox is untouched, the delivery log holds no secret', async () => {
    expect((await db.first<{ n: number }>(`SELECT count(*) AS n FROM outbox`))!.n).toBe(outboxBefore)
    const secrets = [
      /\b(\d{6})\b/.exec(mails['signup-otp']!.text!)![1]!,
      new URL(linkIn(mails['reset-password']!)).searchParams.get('uuid')!,
      new URL(linkIn(mails.withdrawal!)).searchParams.get('uuid')!,
      /\b([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\b/.exec(mails['transfer-code']!.text!)![1]!.replace(/-/g, ''),
    ]
    const tables = await db.all<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'`,
    )
    for (const { name } of tables) {
      const dump = JSON.stringify(await db.all(`SELECT * FROM "${name}"`))
      for (const secret of secrets) expect(dump.includes(secret), `${secret} in ${name}`).toBe(false)
    }
    const log = await db.all<{ template: string; status: string; provider: string; provider_message_id: string }>(
      `SELECT template, status, provider, provider_message_id FROM deliveries WHERE provider_message_id IN (${Object.values(mails)
        .map(() => '?')
        .join(',')})`,
      ...Object.values(mails).map((m) => m.messageId),
    )
    expect(log.map((r) => r.template).sort()).toEqual(Object.keys(KEYS).sort())
    expect(new Set(log.map((r) => `${r.status} ${r.provider}`))).toEqual(new Set(['SENT cloudflare-email']))
  })
})

describe('mail failures a reader can live with', () => {
  const app = appFor(frEdition, frMessages)
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(app, path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const failing = {
    send: async () => {
      throw new Error('Email Service: internal error')
    },
  } as unknown as SendEmail
  const hanging = { send: () => new Promise(() => {}) } as unknown as SendEmail

  it('a provider error gives the retry message (503 RETRY, never a 500) and the reset link stays valid', async () => {
    const reader = await makeUser()
    const res = await deployed(() => post('/api/v1/auth/mail/password', { email: reader.email }), { EMAIL: failing })
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ result: 'ERROR', code: 'RETRY', message: frMessages['error.RETRY'] })
    expect(
      await db.first(`SELECT id FROM one_time_codes WHERE kind = 'RESET_LINK' AND user_id = ? AND used_at IS NULL`, reader.id),
    ).not.toBeNull()
    expect(
      await db.first<{ status: string }>(`SELECT status FROM deliveries WHERE template = 'reset-password' ORDER BY id DESC LIMIT 1`),
    ).toEqual({ status: 'FAILED' })
    // the existing limit still holds: a second request within 5 minutes is FREQUENT_REQUEST
    expect(
      ((await (await deployed(() => post('/api/v1/auth/mail/password', { email: reader.email }))).json()) as { code: string }).code,
    ).toBe('FREQUENT_REQUEST')
  })

  it('a sender the Email Service refuses (real binding) is a provider error too: RETRY', async () => {
    const stray = { ...frEdition, mail: { ...frEdition.mail!, from: 'no-reply@elsewhere.example' } }
    const reader = await makeUser()
    const res = await deployed(() =>
      request(appFor(stray, frMessages), '/api/v1/auth/mail/password', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: reader.email }),
      }),
    )
    expect(res.status).toBe(503)
    expect(((await res.json()) as { code: string }).code).toBe('RETRY')
  })

  it('a provider that does not answer in 5 s gives RETRY, logged as TIMEOUT', async () => {
    const reader = await makeUser()
    const started = Date.now()
    const res = await deployed(() => post('/api/v1/auth/mail/password', { email: reader.email }), { EMAIL: hanging })
    expect(res.status).toBe(503)
    expect(Date.now() - started).toBeLessThan(9_000)
    expect(
      await db.first<{ status: string }>(`SELECT status FROM deliveries WHERE template = 'reset-password' ORDER BY id DESC LIMIT 1`),
    ).toEqual({ status: 'TIMEOUT' })
  })

  it('sign-up whose code mail fails: the account and its code exist, the web form goes on to the code step with the retry message', async () => {
    const email = `signup-fail-${Date.now()}@example.com`
    const api = await deployed(
      () => post('/api/v1/auth/sign-up', { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true }),
      { EMAIL: failing },
    )
    expect(api.status).toBe(200)
    expect(((await api.json()) as { data: { sent: boolean } }).data.sent).toBe(false)
    expect(
      await db.first(`SELECT id FROM one_time_codes WHERE kind = 'EMAIL_OTP' AND target = ? AND used_at IS NULL`, email),
    ).not.toBeNull()
    const web = await deployed(
      () =>
        request(app, '/api/v1/auth/web/sign-up', {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
          body: new URLSearchParams({ email: `web-${email}`, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: 'on' }).toString(),
        }),
      { EMAIL: failing },
    )
    expect(web.status).toBe(303)
    expect(new URL(web.headers.get('location')!, 'http://localhost').searchParams.get('error')).toBe('RETRY')
  })

  it('a notice that cannot be delivered does not undo what was done (the answer is saved)', async () => {
    const reader = await makeUser()
    const q = await db.first<{ id: number }>(
      `INSERT INTO qnas (user_id, title, body, email) VALUES (?, 'T', 'B', ?) RETURNING id`,
      reader.id,
      reader.email,
    )
    const t = createTranslator(frEdition, frMessages)
    await deployed(
      () =>
        inRequest({ requestId: 'notice-fail', edition: frEdition }, () =>
          answerQna(db, q!.id, 'Réponse', { t, siteUrl: frEdition.siteUrl }),
        ),
      { EMAIL: failing },
    )
    expect(await db.first(`SELECT status FROM qnas WHERE id = ?`, q!.id)).toEqual({ status: 'COMPLETED' })
  })

  it('never hands the same message over twice for one request (a failed one may be tried again)', async () => {
    const message = {
      channel: 'MAIL' as const,
      recipient: `once-${Date.now()}@example.com`,
      template: 'password-changed',
      subject: 'S',
      body: 'B',
    }
    const sent = await deployed(async (sent) => {
      await inRequest({ requestId: 'same-request-id', edition: frEdition }, async () => {
        await messageProvider(db).send(message)
        await messageProvider(db).send(message)
      })
      return sent
    })
    expect(sent).toHaveLength(1)
    // 40 hand-overs of one message at once in one request: the claim is one conditional statement, one goes out
    const burst = { ...message, recipient: `burst-${Date.now()}@example.com` }
    const once = await deployed(async (sent) => {
      await inRequest({ requestId: 'burst-request-id', edition: frEdition }, () =>
        Promise.all(Array.from({ length: 40 }, () => messageProvider(db).send(burst))),
      )
      return sent
    })
    expect(once).toHaveLength(1)
    expect(await db.all(`SELECT id FROM deliveries WHERE provider_message_id = ?`, once[0]!.messageId)).toHaveLength(1)
    const again = { ...message, recipient: `retry-${Date.now()}@example.com` }
    await deployed(() => inRequest({ requestId: 'retry-request-id', edition: frEdition }, () => messageProvider(db).send(again)), {
      EMAIL: failing,
    })
    const retried = await deployed(async (sent) => {
      await inRequest({ requestId: 'retry-request-id', edition: frEdition }, () => messageProvider(db).send(again))
      return sent
    })
    expect(retried).toHaveLength(1)
  })
})

describe('an edition without a mail provider', () => {
  it('refuses e-mail sign-up and reset before writing anything (EMAIL_REQUIRES_ADAPTER_ERROR, to login)', async () => {
    const app = appFor({ ...frEdition, mail: null }, frMessages)
    const email = `nomail-${Date.now()}@example.com`
    const res = await deployed(() =>
      request(app, '/api/v1/auth/sign-up', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true }),
      }),
    )
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({
      code: 'EMAIL_REQUIRES_ADAPTER_ERROR',
      message: frMessages['error.EMAIL_REQUIRES_ADAPTER_ERROR'],
    })
    expect(await db.first(`SELECT id FROM users WHERE email = ?`, email)).toBeNull()
    const reset = await deployed(() =>
      request(app, '/api/v1/auth/mail/password', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      }),
    )
    expect(((await reset.json()) as { code: string }).code).toBe('EMAIL_REQUIRES_ADAPTER_ERROR')
    // the same edition in a local run: the outbox delivers
    expect(
      (
        await request(app, '/api/v1/auth/sign-up', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true }),
        })
      ).status,
    ).toBe(200)
  })
})
