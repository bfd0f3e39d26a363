/**
 * A local stand-in for a browser's push service (RFC 8030) on 127.0.0.1, so Web Push is exercised over real HTTP
 * with real encryption by the worker tests, the browser tests and the bench. A local run's worker sends the requests
 * meant for any push service to `base` when its `PUSH_SERVICE_BASE` says so (src/features/push/push.server.ts).
 *
 * - `subscribe(path)` makes a browser subscription as a browser would: a fresh P-256 key pair (Node's ECDH) and a
 *   16-byte auth secret, kept here; the answer is `PushSubscription.toJSON()` with the endpoint
 *   `https://fcm.googleapis.com/<path>/<n>`. `GET /__subscribe?path=P` does the same for callers inside workerd.
 * - Every push received is decrypted with the subscription's private key by `http_ece` (an independent RFC 8188
 *   implementation) and its VAPID token checked (RFC 8292: ES256 signature, the key against `vapidPublicKey` when
 *   given, audience, expiry); `received` lists what arrived, `GET /__received` too.
 * - The first path segment picks the answer: `gone` 410, `missing` 404, `fail` 500, `flaky` 500 to the first push of
 *   the subscription and 201 afterwards, anything else 201 Created.
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import ece from 'http_ece'

const PUSH_ORIGIN = 'https://fcm.googleapis.com'

/** The browser tests' push service listens at its edition server's port + 100 (playwright.config.ts, tests/e2e/push.ts). */
export const e2ePushPort = (serverPort: number) => serverPort + 100

export type PushSubscriptionJson = { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } }

export type ReceivedPush = {
  path: string
  ttl: string | null
  urgency: string | null
  encoding: string | null
  vapid: { aud: unknown; exp: unknown; sub: unknown; signatureValid: boolean; keyMatches: boolean } | null
  /** The decrypted JSON; null for a path no subscription of ours has. */
  payload: unknown
  /** Epoch seconds. */
  receivedAt: number
}

export type PushService = {
  base: string
  subscribe(path?: string): PushSubscriptionJson
  received: ReceivedPush[]
  close(): Promise<void>
}

/** Starts the service on `port` (0: a free one). */
export async function startPushService(options: { port?: number; vapidPublicKey?: string } = {}): Promise<PushService> {
  const keys = new Map<string, { ecdh: ECDH; auth: string }>()
  const received: ReceivedPush[] = []
  const seen = new Set<string>()
  let seq = 0

  const subscribe = (path = 'push'): PushSubscriptionJson => {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const auth = randomBytes(16).toString('base64url')
    const full = `/${path}/${++seq}`
    keys.set(full, { ecdh, auth })
    return { endpoint: `${PUSH_ORIGIN}${full}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } }
  }

  const checkVapid = (header: string | undefined): ReceivedPush['vapid'] => {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
    if (!m) return null
    const [h, p, s] = m[1]!.split('.')
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', ...pointToJwk(m[2]!) }, format: 'jwk' })
    const signatureValid =
      JSON.parse(Buffer.from(h!, 'base64url').toString('utf8')).alg === 'ES256' &&
      verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url'))
    return { aud: claims.aud, exp: claims.exp, sub: claims.sub, signatureValid, keyMatches: m[2] === options.vapidPublicKey }
  }

  const server = http.createServer((req, res) => {
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(json === undefined ? '' : JSON.stringify(json))
    }
    const url = new URL(req.url ?? '/', 'http://local')
    if (req.method === 'GET' && url.pathname === '/__received') return reply(200, received)
    if (req.method === 'GET' && url.pathname === '/__subscribe') return reply(200, subscribe(url.searchParams.get('path') ?? undefined))
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const sub = keys.get(url.pathname)
      let payload: unknown = null
      try {
        if (sub)
          payload = JSON.parse(
            ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString('utf8'),
          )
      } catch (e) {
        payload = { decryptError: String(e) }
      }
      received.push({
        path: url.pathname,
        ttl: req.headers.ttl?.toString() ?? null,
        urgency: req.headers.urgency?.toString() ?? null,
        encoding: req.headers['content-encoding'] ?? null,
        vapid: checkVapid(req.headers.authorization),
        payload,
        receivedAt: Math.floor(Date.now() / 1000),
      })
      const first = url.pathname.split('/')[1]
      const flakyFails = first === 'flaky' && !seen.has(url.pathname)
      seen.add(url.pathname)
      reply(first === 'gone' ? 410 : first === 'missing' ? 404 : first === 'fail' || flakyFails ? 500 : 201)
    })
  })
  server.keepAliveTimeout = 60_000
  server.unref() // never what keeps a process (the bench, a test run) alive
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscribe,
    received,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function pointToJwk(k: string): { x: string; y: string } {
  const raw = Buffer.from(k, 'base64url')
  return { x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }
}
