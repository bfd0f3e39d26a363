/**
 * Web Push (issue 13 point 2) against the local push service of push-global-setup.ts: the pushes are really
 * encrypted by the worker and decrypted there by http_ece with the subscription's private key.
 */
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { expectHandled, read } from './app.ts'
import { call, db, newReader, type Reader } from './comment.helpers.ts'
import { deliverPush } from '../../src/features/push/push.server.ts'
import type { PushMessage } from '../../src/features/push/push.ts'
import type { ReceivedPush } from '../../scripts/push-service.ts'

/** A push message waits at most 12 hours at the push service. */
const PUSH_TTL_SECONDS = 12 * 3600

const base = env.PUSH_SERVICE_BASE!
const noon = new Date('2026-11-27T11:00:00Z') // 12:00 in Paris (the fr edition)
const night = new Date('2026-11-27T22:00:00Z') // 23:00 in Paris
const episode: PushMessage = { kind: 'contents', title: 'Nouvel épisode', body: 'Épisode 7 de « Lune »', url: '/detail/7' }
const ticket: PushMessage = { kind: 'freetime', title: 'Ticket', body: 'Un ticket vous attend', url: '/home/free' }

type Sub = { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }
const browser = async (path = 'push'): Promise<Sub> => (await fetch(`${base}/__subscribe?path=${path}`)).json()
const receivedAt = async (endpoint: string): Promise<ReceivedPush[]> =>
  ((await (await fetch(`${base}/__received`)).json()) as ReceivedPush[]).filter((r) => `https://fcm.googleapis.com${r.path}` === endpoint)
const subscriptions = (userId: number) =>
  db.all<{ endpoint: string; p256dh: string }>(`SELECT endpoint, p256dh FROM push_subscriptions WHERE user_id = ?`, userId)
const settings = { isAgreePush: true, isAgreePushNight: false, isAgreePushFreetime: true, isAgreePushContents: true }

async function subscribedReader(prefs: Partial<typeof settings> = {}, path = 'push'): Promise<{ reader: Reader; sub: Sub }> {
  const reader = await newReader()
  expect((await call(reader, 'PUT', '/api/v1/app/push', { ...settings, ...prefs })).status).toBe(200)
  const sub = await browser(path)
  const res = await call(reader, 'POST', '/api/v1/app/push/subscription', sub)
  expect(res.status).toBe(200)
  return { reader, sub }
}

describe('Web Push delivery', () => {
  it('sends the encrypted push with a VAPID token for the push service, TTL and Urgency', async () => {
    const { reader, sub } = await subscribedReader()
    expect(await deliverPush(env, db, reader.id, episode, noon)).toEqual({ status: 'sent', delivered: 1, removed: 0, failed: [] })
    const [got, ...more] = await receivedAt(sub.endpoint)
    expect(more).toEqual([])
    expect(got!.payload).toEqual({ ...episode, icon: '/favicon.svg' })
    expect(got!.encoding).toBe('aes128gcm')
    expect(got!.ttl).toBe(String(PUSH_TTL_SECONDS))
    expect(got!.urgency).toBe('normal')
    const vapid = got!.vapid!
    expect(vapid).toMatchObject({ aud: 'https://fcm.googleapis.com', sub: env.VAPID_SUBJECT, signatureValid: true, keyMatches: true })
    expect(Number(vapid.exp) - got!.receivedAt).toBeGreaterThan(0)
    expect(Number(vapid.exp) - got!.receivedAt).toBeLessThanOrEqual(24 * 3600)
  })

  it('removes a subscription the push service no longer knows (410, 404) and reports other failures', async () => {
    const { reader, sub: gone } = await subscribedReader({}, 'gone')
    const missing = await browser('missing')
    const failing = await browser('fail')
    for (const s of [missing, failing]) expect((await call(reader, 'POST', '/api/v1/app/push/subscription', s)).status).toBe(200)
    const outcome = await deliverPush(env, db, reader.id, episode, noon)
    expect(outcome).toMatchObject({ status: 'sent', delivered: 0, removed: 2, failed: [{ httpStatus: 500 }] })
    expect((await subscriptions(reader.id)).map((s) => s.endpoint)).toEqual([failing.endpoint])
    expect(await receivedAt(gone.endpoint)).toHaveLength(1)
  })

  it.each([
    ['push off', { isAgreePush: false, isAgreePushNight: true }, episode, 'off'],
    ['new-episode push off', { isAgreePushContents: false }, episode, 'kind-off'],
    ['FreeTime push off', { isAgreePushFreetime: false }, ticket, 'kind-off'],
  ] as const)('sends nothing with %s', async (_, prefs, message, reason) => {
    const { reader, sub } = await subscribedReader(prefs)
    expect(await deliverPush(env, db, reader.id, message, noon)).toEqual({ status: 'skipped', reason })
    expect(await receivedAt(sub.endpoint)).toEqual([])
    // the other kind still goes when only one kind is off
    if (reason === 'kind-off')
      expect(await deliverPush(env, db, reader.id, message === episode ? ticket : episode, noon)).toMatchObject({ delivered: 1 })
  })

  it('holds a push at night until 08:00 in Paris, unless the reader agreed to night push', async () => {
    const { reader, sub } = await subscribedReader()
    expect(await deliverPush(env, db, reader.id, episode, night)).toEqual({ status: 'held', holdUntil: '2026-11-28T07:00:00.000Z' })
    expect(await receivedAt(sub.endpoint)).toEqual([])
    const owl = await subscribedReader({ isAgreePushNight: true })
    expect(await deliverPush(env, db, owl.reader.id, episode, night)).toMatchObject({ status: 'sent', delivered: 1 })
  })

  it('sends the local-run test push to the signed-in reader only', async () => {
    const { reader } = await subscribedReader({ isAgreePushNight: true })
    const res = await call(reader, 'POST', '/api/v1/app/push/test', ticket)
    expect((await read(res)).data).toEqual({ status: 'sent', delivered: 1, removed: 0, failed: [] })
  })
})

describe('push subscription route', () => {
  it('stores one row per endpoint: subscribing again updates it, another reader on the device takes it', async () => {
    const { reader, sub } = await subscribedReader()
    const renewed = { ...sub, keys: { ...sub.keys, p256dh: (await browser()).keys.p256dh } }
    expect((await call(reader, 'POST', '/api/v1/app/push/subscription', renewed)).status).toBe(200)
    expect(await subscriptions(reader.id)).toEqual([{ endpoint: sub.endpoint, p256dh: renewed.keys.p256dh }])
    const other = await newReader()
    expect((await call(other, 'POST', '/api/v1/app/push/subscription', renewed)).status).toBe(200)
    expect(await subscriptions(reader.id)).toEqual([])
    expect(await subscriptions(other.id)).toHaveLength(1)
  })

  it('keeps one row for 40 simultaneous subscriptions of one endpoint', async () => {
    const { reader, sub } = await subscribedReader()
    const answers = await Promise.all(Array.from({ length: 40 }, () => call(reader, 'POST', '/api/v1/app/push/subscription', sub)))
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(200))
    expect(await db.all(`SELECT id FROM push_subscriptions WHERE endpoint = ?`, sub.endpoint)).toHaveLength(1)
  })

  it('issue 34 (4): refuses endpoints off the browsers’ push services and stores none of them', async () => {
    const reader = await newReader()
    const keys = (await browser()).keys
    for (const endpoint of [
      'https://127.0.0.1:8443/push',
      'https://localhost/push',
      'https://10.0.0.5/push',
      'https://192.168.1.1/push',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/push',
      'https://fcm.googleapis.com:22/fcm/send/x',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://user:pw@fcm.googleapis.com/fcm/send/x',
      'https://fcm.googleapis.com.evil.example/fcm/send/x',
      'https://evilfcm.googleapis.com.example/x',
      `https://fcm.googleapis.com/fcm/send/${'a'.repeat(2010)}`,
    ]) {
      const res = await call(reader, 'POST', '/api/v1/app/push/subscription', { endpoint, expirationTime: null, keys })
      expect(res.status, endpoint).toBe(400)
      expect((await read(res)).code, endpoint).toBe('INVALID_PARAMETER')
    }
    expect(await subscriptions(reader.id)).toEqual([])
    // each browser's own push service is accepted
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGq',
      'https://wns2-par02p.notify.windows.com/w/?token=abc',
    ])
      expect((await call(reader, 'POST', '/api/v1/app/push/subscription', { endpoint, expirationTime: null, keys })).status, endpoint).toBe(
        200,
      )
  })

  it('issue 34 (4): at most 10 browsers per reader, also for 40 at once; an existing one is renewed', async () => {
    const reader = await newReader()
    const subs = await Promise.all(Array.from({ length: 40 }, () => browser()))
    const answers = await Promise.all(subs.map((sub) => call(reader, 'POST', '/api/v1/app/push/subscription', sub)))
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10)
    const refused = answers.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(30)
    for (const r of refused)
      expect(await read(r)).toMatchObject({
        code: 'INVALID_PARAMETER',
        reason: 'TOO_MANY_SUBSCRIPTIONS',
        message: expect.stringContaining('10 appareils'),
      })
    const stored = await subscriptions(reader.id)
    expect(stored).toHaveLength(10)
    const kept = subs.find((s) => s.endpoint === stored[0]!.endpoint)!
    expect((await call(reader, 'POST', '/api/v1/app/push/subscription', kept)).status).toBe(200)
    expect((await call(reader, 'POST', '/api/v1/app/push/subscription', await browser())).status).toBe(400)
  })

  it("lets a reader remove their own subscription, never another account's", async () => {
    const { reader, sub } = await subscribedReader()
    const other = await newReader()
    const theirs = await call(other, 'DELETE', '/api/v1/app/push/subscription', { endpoint: sub.endpoint })
    expect((await read(theirs)).data).toEqual({ removed: false })
    expect(await subscriptions(reader.id)).toHaveLength(1)
    expect((await call(null, 'DELETE', '/api/v1/app/push/subscription', { endpoint: sub.endpoint })).status).toBe(401)
    const mine = await call(reader, 'DELETE', '/api/v1/app/push/subscription', { endpoint: sub.endpoint })
    expect((await read(mine)).data).toEqual({ removed: true })
    expect(await subscriptions(reader.id)).toEqual([])
  })

  it('never answers 5xx nor writes to 1,000 generated bad bodies (subscription and test push)', async () => {
    const { reader } = await subscribedReader()
    const count = async () => (await db.first<{ n: number }>(`SELECT count(*) AS n, group_concat(p256dh) AS k FROM push_subscriptions`))!
    const before = await count()
    const field = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.webUrl().map((u) => u.replace(/^https?:/, 'http:')),
    )
    const body = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            endpoint: field,
            expirationTime: fc.anything(),
            keys: fc.oneof(fc.anything(), fc.record({ p256dh: field, auth: field })),
            kind: fc.oneof(fc.anything(), fc.constantFrom('contents', 'freetime', 'notice')),
            title: fc.anything(),
            url: fc.oneof(fc.anything(), fc.webUrl()),
          },
          { requiredKeys: [] },
        )
        .map((v) => {
          try {
            return JSON.stringify(v)
          } catch {
            return '{}'
          }
        }),
    )
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('POST', 'DELETE', 'TEST'), async (b, method) => {
        const [verb, path] = method === 'TEST' ? ['POST', '/api/v1/app/push/test'] : [method, '/api/v1/app/push/subscription']
        await expectHandled(await call(reader, verb, path, b))
      }),
      { numRuns: 1000 },
    )
    expect(await count()).toEqual(before)
  }, 120_000)
})
