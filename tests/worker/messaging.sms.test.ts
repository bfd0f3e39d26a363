/**
 * SMS through Twilio's Messages API (issue 22 §2–§4) on real workerd + D1, the worker running as a deployment:
 * the adapter talks HTTP to the local Twilio stand-in (tests/worker/sms-global-setup.ts), which records the
 * basic auth, the number and the text. The code in the SMS works; a 500, a time-out and a refused number give
 * the reader a catalogue answer (never a 500), the code already stored stays valid and the limits still hold.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, frEdition, frMessages, request } from './app.ts'
import { makeUser } from './account.helpers.ts'
import { deployed, smsRequests } from './messaging.helpers.ts'
import { SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FAILING, SMS_FROM, SMS_REJECTED, SMS_SLOW } from './sms-global-setup.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { createDb } from '../../src/lib/server/db.ts'
import ar from '../../editions/ar/edition.json'

const arMessages: Record<string, string> = Object.assign(
  {},
  ...Object.values(import.meta.glob<Record<string, string>>('../../editions/ar/messages/*.json', { eager: true, import: 'default' })),
)
const db = createDb(env.DB)
const fr = appFor(frEdition, frMessages)
const post = (app: ReturnType<typeof appFor>, path: string, body: unknown) =>
  request(app, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
let seq = 0
/** A French mobile number of its own for each test (+33 6 12 35 xx xx). */
const phone = () => `+3361235${String(Date.now() % 1000).padStart(3, '0')}${++seq % 10}`
const liveCodes = (p: string) => db.all(`SELECT id FROM one_time_codes WHERE kind = 'SMS' AND target = ? AND used_at IS NULL`, p)
const lastDelivery = (template: string) =>
  db.first<{ status: string; error: string | null; provider: string }>(
    `SELECT status, error, provider FROM deliveries WHERE template = ? ORDER BY id DESC LIMIT 1`,
    template,
  )

describe('SMS through Twilio', () => {
  it('sends the code with the account credentials, the sender and the number; the code in the text works; nothing secret in D1', async () => {
    const to = phone()
    const user = await makeUser({ phone: to })
    const res = await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: to }))
    expect(res.status).toBe(200)
    const [sms] = await smsRequests(to)
    expect(sms).toMatchObject({
      path: `/2010-04-01/Accounts/${SMS_ACCOUNT_SID}/Messages.json`,
      auth: `Basic ${btoa(`${SMS_ACCOUNT_SID}:${SMS_AUTH_TOKEN}`)}`,
      to,
      from: SMS_FROM,
      messagingServiceSid: null,
    })
    const code = /\b(\d{6})\b/.exec(sms!.body!)![1]!
    expect(sms!.body).toBe(frMessages['account.sms.code']!.replace('{{code}}', code))
    expect(await lastDelivery('sms-find_id')).toMatchObject({ status: 'SENT', provider: 'twilio' })
    expect(JSON.stringify(await db.all(`SELECT * FROM deliveries`))).not.toContain(to)
    expect(JSON.stringify(await db.all(`SELECT * FROM outbox`))).not.toContain(to)
    const verified = await deployed(() => post(fr, '/api/v1/auth/sms/verify', { purpose: 'FIND_ID', phone: to, code }))
    expect(verified.status).toBe(200)
    expect(JSON.stringify(await verified.json())).toContain(user.email.slice(0, 2))
  })

  it('writes the text in the edition language (ar)', async () => {
    const to = phone()
    const res = await deployed(() =>
      post(appFor(parseEdition('ar', ar), arMessages), '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: to }),
    )
    expect(res.status).toBe(200)
    const [sms] = await smsRequests(to)
    const code = /\b(\d{6})\b/.exec(sms!.body!)![1]!
    expect(sms!.body).toBe(arMessages['account.sms.code']!.replace('{{code}}', code))
  })

  it('a provider 500 gives the retry message (503 RETRY); the code stays valid and ALREADY_SEND_SMS still holds', async () => {
    const res = await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: SMS_FAILING }))
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ result: 'ERROR', code: 'RETRY', message: frMessages['error.RETRY'] })
    expect(await smsRequests(SMS_FAILING)).toHaveLength(1)
    expect(await liveCodes(SMS_FAILING)).toHaveLength(1)
    expect(await lastDelivery('sms-find_id')).toMatchObject({ status: 'FAILED', error: 'twilio-20500' })
    const again = await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: SMS_FAILING }))
    expect(((await again.json()) as { code: string }).code).toBe('ALREADY_SEND_SMS')
    expect(await smsRequests(SMS_FAILING)).toHaveLength(1)
  })

  it('a provider that does not answer within 5 s gives RETRY, logged as TIMEOUT', async () => {
    const started = Date.now()
    const res = await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: SMS_SLOW }))
    expect(res.status).toBe(503)
    expect(((await res.json()) as { code: string }).code).toBe('RETRY')
    expect(Date.now() - started).toBeLessThan(8_000)
    expect(await lastDelivery('sms-find_id')).toMatchObject({ status: 'TIMEOUT' })
    expect(await liveCodes(SMS_SLOW)).toHaveLength(1)
  })

  it('a number the provider refuses (21211) asks the reader to correct it: INVALID_PARAMETER on phone', async () => {
    const res = await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: SMS_REJECTED }))
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'INVALID_PARAMETER' })
    expect(await lastDelivery('sms-find_id')).toMatchObject({ status: 'REJECTED', error: 'twilio-21211' })
  })

  it('wrong credentials are a provider error (RETRY), never a 500', async () => {
    const to = phone()
    const res = await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: to }), { TWILIO_AUTH_TOKEN: 'wrong' })
    expect(res.status).toBe(503)
    expect((await smsRequests(to))[0]!.auth).toBe(`Basic ${btoa(`${SMS_ACCOUNT_SID}:wrong`)}`)
  })

  it('uses the messaging service instead of a sender number when one is set', async () => {
    const to = phone()
    await deployed(() => post(fr, '/api/v1/auth/sms/send', { purpose: 'FIND_ID', phone: to }), {
      TWILIO_MESSAGING_SERVICE_SID: 'MG00000000000000000000000000000001',
    })
    expect((await smsRequests(to))[0]).toMatchObject({ from: null, messagingServiceSid: 'MG00000000000000000000000000000001' })
  })
})

describe('an edition without SMS', () => {
  it('has no phone flows (NOT_EXIST) when edition.json names no provider or a secret is missing; nothing is written', async () => {
    const to = phone()
    for (const [app, overrides] of [
      [appFor({ ...frEdition, sms: null }, frMessages), {}],
      [fr, { TWILIO_AUTH_TOKEN: undefined }],
    ] as const) {
      const res = await deployed(
        () => post(app, '/api/v1/auth/sms/send', { purpose: 'FIND_PASSWORD', phone: to, id: 'someone@example.com' }),
        overrides,
      )
      expect(res.status).toBe(404)
      expect(((await res.json()) as { code: string }).code).toBe('NOT_EXIST')
    }
    expect(await liveCodes(to)).toHaveLength(0)
    expect(await smsRequests(to)).toHaveLength(0)
  })
})
