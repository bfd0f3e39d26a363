/**
 * Vitest globalSetup of the worker project (runs in Node): a local stand-in for Stripe's API on
 * 127.0.0.1:<free port>, which the worker's official Stripe SDK is pointed at (host, port, protocol from the
 * binding STRIPE_API_URL). It answers the two calls the shop makes with the object shapes of Stripe's API
 * reference — `POST /v1/checkout/sessions` (a Checkout Session) and `POST /v1/refunds` (a Refund) — replays the
 * first answer for a repeated Idempotency-Key as Stripe does, and records every request it gets so tests assert
 * exactly what was asked (amount, currency, idempotency key, URLs).
 *
 * Test controls (not Stripe's): `GET /__requests` (the record), `POST /__faults` with
 * `{match, kind: 'status500' | 'hang' | 'hold', times}` — the next `times` requests whose form body contains
 * `match` answer 500, never answer, or wait until `POST /__release` with `{match}`.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    stripeApiUrl: string
  }
}

export type RecordedRequest = {
  method: string
  path: string
  idempotencyKey: string | null
  authorization: string | null
  params: Record<string, string>
}
type Fault = { match: string; kind: 'status500' | 'hang' | 'hold'; times: number }

export const STRIPE_TEST_SECRET_KEY = 'sk_test_worker0123456789abcdef'
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_worker0123456789abcdef'

/** The worker project's Stripe bindings (vitest.config.ts). */
export function stripeTestBindings(apiUrl: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
    STRIPE_API_URL: apiUrl,
    STRIPE_API_TIMEOUT_MS: '1000',
  }
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${Math.random().toString(36).slice(2)}` })
  res.end(JSON.stringify(body))
}
const random = (prefix: string) => `${prefix}_test_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`

/** A Checkout Session as Stripe answers `POST /v1/checkout/sessions` (the fields the shop and the tests read). */
function checkoutSession(p: Record<string, string>) {
  const id = random('cs')
  const amount = Number(p['line_items[0][price_data][unit_amount]']) * Number(p['line_items[0][quantity]'] ?? 1)
  const metadata = Object.fromEntries(
    Object.entries(p)
      .filter(([k]) => /^metadata\[/.test(k))
      .map(([k, v]) => [k.slice(9, -1), v]),
  )
  return {
    id,
    object: 'checkout.session',
    amount_subtotal: amount,
    amount_total: amount,
    cancel_url: p.cancel_url ?? null,
    client_reference_id: p.client_reference_id ?? null,
    created: Math.floor(Date.now() / 1000),
    currency: p['line_items[0][price_data][currency]'],
    customer: null,
    expires_at: Math.floor(Date.now() / 1000) + 86_400,
    livemode: false,
    metadata,
    mode: p.mode,
    payment_intent: null,
    payment_status: 'unpaid',
    status: 'open',
    success_url: p.success_url ?? null,
    url: `https://checkout.stripe.com/c/pay/${id}`,
  }
}

/** A Refund as Stripe answers `POST /v1/refunds`. */
function refund(p: Record<string, string>) {
  return {
    id: random('re'),
    object: 'refund',
    amount: 0,
    charge: random('ch'),
    created: Math.floor(Date.now() / 1000),
    currency: 'eur',
    metadata: {},
    payment_intent: p.payment_intent ?? null,
    reason: null,
    status: 'succeeded',
  }
}

export default async function setup(project: TestProject) {
  const requests: RecordedRequest[] = []
  const faults: Fault[] = []
  const held = new Map<string, (() => void)[]>()
  const answers = new Map<string, { status: number; body: unknown }>()

  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk) => (raw += chunk))
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!
      if (path === '/__requests') return json(res, 200, requests)
      if (path === '/__faults') {
        faults.push(JSON.parse(raw) as Fault)
        return json(res, 200, { ok: true })
      }
      if (path === '/__release') {
        const { match } = JSON.parse(raw) as { match: string }
        for (const go of held.get(match) ?? []) go()
        held.delete(match)
        return json(res, 200, { ok: true })
      }
      const params = Object.fromEntries(new URLSearchParams(raw))
      const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null
      requests.push({
        method: req.method ?? '',
        path,
        idempotencyKey,
        authorization: (req.headers.authorization as string | undefined) ?? null,
        params,
      })
      const answer = () => {
        const replay = idempotencyKey ? answers.get(`${path} ${idempotencyKey}`) : undefined
        if (replay) return json(res, replay.status, replay.body)
        let out: { status: number; body: unknown }
        if (req.method === 'POST' && path === '/v1/checkout/sessions') out = { status: 200, body: checkoutSession(params) }
        else if (req.method === 'POST' && path === '/v1/refunds') out = { status: 200, body: refund(params) }
        else
          out = {
            status: 404,
            body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } },
          }
        if (idempotencyKey && out.status === 200) answers.set(`${path} ${idempotencyKey}`, out)
        json(res, out.status, out.body)
      }
      const fault = faults.find((f) => f.times > 0 && raw.includes(f.match))
      if (!fault) return answer()
      fault.times--
      if (fault.kind === 'status500') return json(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } })
      if (fault.kind === 'hang') return // never answers: the SDK's timeout ends it
      held.set(fault.match, [...(held.get(fault.match) ?? []), answer])
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  project.provide('stripeApiUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  return async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
