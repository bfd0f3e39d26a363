/**
 * Vitest globalSetup of the worker project (runs in Node): a local stand-in for a browser's push service (RFC 8030) on
 * 127.0.0.1:<free port>, so Web Push is tested over real HTTP with real encryption (issue 13 point 2).
 *
 * - `GET /__subscribe?path=P` makes a browser subscription as a browser would: a fresh P-256 key pair (Node's ECDH)
 *   and 16-byte auth secret, kept here; the answer is `PushSubscription.toJSON()` with the endpoint
 *   `https://push.test/P/<n>`. The worker's `PUSH_SERVICE_BASE` sends that origin's requests here.
 * - Every push received is decrypted with the subscription's private key by `http_ece` (an independent RFC 8188
 *   implementation), and its VAPID token checked (RFC 8292: ES256 signature against the worker's public key,
 *   audience, expiry); `GET /__received` lists what arrived.
 * - The first path segment picks the answer: `gone` 410, `missing` 404, `fail` 500, `flaky` 500 to the first push of
 *   the subscription and 201 afterwards, anything else 201.
 */
import { createECDH, createPublicKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import ece from 'http_ece'
import type { TestProject } from 'vitest/node'

export const PUSH_ORIGIN = 'https://push.test'
export const VAPID_SUBJECT = 'mailto:push-test@fr.bomtoon.example'

declare module 'vitest' {
  export interface ProvidedContext {
    pushServiceBase: string
    vapidKeys: { publicKey: string; privateKey: string }
  }
}

export type ReceivedPush = {
  path: string
  ttl: string | null
  urgency: string | null
  encoding: string | null
  vapid: { aud: unknown; exp: unknown; sub: unknown; signatureValid: boolean; keyMatches: boolean } | null
  payload: unknown
  receivedAt: number
}

export default async function setup(project: TestProject) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const publicRaw = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }))
    .subarray(-65)
    .toString('base64url')
  const keys = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string }>()
  const received: ReceivedPush[] = []
  let seq = 0
  const seen = new Set<string>()

  const checkVapid = (header: string | undefined): ReceivedPush['vapid'] => {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
    if (!m) return null
    const [h, p, s] = m[1]!.split('.')
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString('utf8')) as Record<string, unknown>
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', ...pointToJwk(m[2]!) }, format: 'jwk' })
    const signatureValid =
      JSON.parse(Buffer.from(h!, 'base64url').toString('utf8')).alg === 'ES256' &&
      verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s!, 'base64url'))
    return { aud: claims.aud, exp: claims.exp, sub: claims.sub, signatureValid, keyMatches: m[2] === publicRaw }
  }

  const server = http.createServer((req, res) => {
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(json === undefined ? '' : JSON.stringify(json))
    }
    const url = new URL(req.url ?? '/', 'http://local')
    if (req.method === 'GET' && url.pathname === '/__received') return reply(200, received)
    if (req.method === 'GET' && url.pathname === '/__subscribe') {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16).toString('base64url')
      const path = `/${url.searchParams.get('path') ?? 'push'}/${++seq}`
      keys.set(path, { ecdh, auth })
      return reply(200, {
        endpoint: `${PUSH_ORIGIN}${path}`,
        expirationTime: null,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
      })
    }
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  project.provide('pushServiceBase', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  project.provide('vapidKeys', { publicKey: publicRaw, privateKey: String(privateKey.export({ format: 'jwk' }).d) })
  return async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

function pointToJwk(k: string): { x: string; y: string } {
  const raw = Buffer.from(k, 'base64url')
  return { x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }
}

/** The worker project's bindings for the stand-in at `base` (vitest.config.ts). */
export function pushTestBindings(base: string, vapid: { publicKey: string; privateKey: string }): Record<string, string> {
  return { PUSH_SERVICE_BASE: base, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT }
}
