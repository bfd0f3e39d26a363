/**
 * The browser's API client (api-client.ts) with a stubbed `fetch`: the spec §7 headers, the envelope decoded into
 * one result, each spec §8 follow-up (NEED_TO_REFRESH refreshed and retried once with the same Idempotency-Key,
 * NOT_FOUND_ACCESS_TOKEN signs out, ADULT_ONLY_CONTENTS asks for the age popup), the 30 s time-out with the
 * edition's retry message, a network failure and an unreadable body.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api } from './api.ts'
import { $age, $toast, REQUEST_TIMEOUT_MS } from '../../lib/shell/stores.ts'
import { ERRORS } from '../../lib/errors/catalogue.ts'

const signOut = vi.hoisted(() => vi.fn(async () => {}))
vi.mock('./sign-out.ts', () => ({ signOut }))

const RETRY = 'Le serveur met trop de temps à répondre.'
type Seen = { url: string; method: string; headers: Headers; body: unknown }
let seen: Seen[] = []
let answers: ((req: Seen, signal: AbortSignal) => Promise<Response>)[] = []

const json = (status: number, body: unknown) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const refused = (status: number, code: string) => json(status, { result: 'ERROR', code, message: `message ${code}`, requestId: 'r' })
const ok = (data: unknown) => json(200, { result: 'SUCCESS', data })
/** Never answers; rejects as fetch does once its signal aborts. */
const silent = async (_: Seen, signal: AbortSignal) =>
  new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))

beforeEach(() => {
  vi.stubGlobal('document', {
    documentElement: { lang: 'fr' },
    getElementById: (id: string) => (id === 'toast' ? { dataset: { timeout: RETRY } } : null),
  })
  vi.stubGlobal('location', { pathname: '/viewer/7', search: '' })
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const req = {
        url,
        method: init.method ?? 'GET',
        headers: new Headers(init.headers),
        body: init.body ? JSON.parse(String(init.body)) : null,
      }
      seen.push(req)
      const answer = answers.shift()
      if (!answer) throw new Error(`unexpected request ${url}`)
      return answer(req, init.signal!)
    }),
  )
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
  seen = []
  answers = []
  signOut.mockClear()
  $toast.set(null)
  $age.set(null)
})

describe('api (docs/API.md envelope, spec §7 headers)', () => {
  it('sends the spec §7 headers under /api/v1 and decodes a success into its data', async () => {
    answers = [ok({ total: 5 })]
    expect(await api('/coin')).toEqual({ ok: true, data: { total: 5 } })
    expect(seen[0]!.url).toBe('/api/v1/coin')
    expect(Object.fromEntries(seen[0]!.headers)).toMatchObject({
      'x-platform': 'WEB',
      'x-time-zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
      'accept-language': 'fr',
      accept: 'application/json',
    })
  })

  it('decodes a refusal into its code, message and status; a body it cannot read is UNKNOWN', async () => {
    answers = [refused(402, 'COIN_INSUFFICIENT'), async () => new Response('<html>bad gateway</html>', { status: 502 })]
    expect(await api('/purchase', { method: 'POST', key: 'k', body: {} })).toEqual({
      ok: false,
      code: 'COIN_INSUFFICIENT',
      message: 'message COIN_INSUFFICIENT',
      status: 402,
    })
    expect(await api('/coin')).toEqual({ ok: false, code: 'UNKNOWN', message: null, status: 502 })
    expect(signOut).not.toHaveBeenCalled()
  })

  it('NEED_TO_REFRESH: the session is asked again, then the call once more with the same Idempotency-Key and body', async () => {
    answers = [refused(401, 'NEED_TO_REFRESH'), json(200, {}), ok({ paymentId: 'p' })]
    const body = { productId: 1, method: 'card' }
    expect(await api('/payment/charge', { method: 'POST', key: 'charge-1', body })).toEqual({ ok: true, data: { paymentId: 'p' } })
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/payment/charge',
      'GET /api/auth/session',
      'POST /api/v1/payment/charge',
    ])
    expect([seen[0]!.headers.get('idempotency-key'), seen[2]!.headers.get('idempotency-key')]).toEqual(['charge-1', 'charge-1'])
    expect(seen[2]!.body).toEqual(body)
  })

  it('NEED_TO_REFRESH twice: retried once only, the second refusal is the result', async () => {
    answers = [refused(401, 'NEED_TO_REFRESH'), json(200, {}), refused(401, 'NEED_TO_REFRESH')]
    expect(await api('/purchase', { method: 'POST', key: 'k', body: {} })).toMatchObject({ ok: false, code: 'NEED_TO_REFRESH' })
    expect(seen).toHaveLength(3)
  })

  it('NOT_FOUND_ACCESS_TOKEN signs out', async () => {
    answers = [refused(401, 'NOT_FOUND_ACCESS_TOKEN')]
    expect(await api('/viewer/8')).toMatchObject({ ok: false, code: 'NOT_FOUND_ACCESS_TOKEN' })
    await vi.waitFor(() => expect(signOut).toHaveBeenCalledOnce())
  })

  it('ADULT_ONLY_CONTENTS asks for the age popup, back to this page', async () => {
    answers = [refused(403, 'ADULT_ONLY_CONTENTS')]
    expect(await api('/viewer/8')).toMatchObject({ ok: false, code: 'ADULT_ONLY_CONTENTS' })
    expect($age.get()).toBe('/viewer/7')
  })

  it('follows the catalogue: these are the codes whose follow-up is a refresh, a logout, the age popup', () => {
    expect([ERRORS.NEED_TO_REFRESH.followUp, ERRORS.NOT_FOUND_ACCESS_TOKEN.followUp, ERRORS.ADULT_ONLY_CONTENTS.followUp]).toEqual([
      'refreshAndRetry',
      'logout',
      'adultPopup',
    ])
  })

  it('no answer within 30 s: NETWORK with the edition retry message; quiet calls without it', async () => {
    vi.useFakeTimers()
    answers = [silent, silent]
    const loud = api('/coin')
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1)
    expect(seen).toHaveLength(1)
    expect($toast.get()).toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(await loud).toEqual({ ok: false, code: 'NETWORK', message: null, status: 0 })
    expect($toast.get()?.message).toBe(RETRY)
    $toast.set(null)
    const quiet = api('/search?keyword=a', { quiet: true })
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS)
    expect(await quiet).toMatchObject({ code: 'NETWORK' })
    expect($toast.get()).toBeNull()
  })

  it('a network failure or the caller cancelling is NETWORK, without the time-out message', async () => {
    answers = [
      async () => {
        throw new TypeError('Failed to fetch')
      },
      silent,
    ]
    expect(await api('/coin')).toMatchObject({ ok: false, code: 'NETWORK', status: 0 })
    const controller = new AbortController()
    const cancelled = api('/search?keyword=a', { signal: controller.signal })
    await vi.waitFor(() => expect(seen).toHaveLength(2))
    controller.abort()
    expect(await cancelled).toMatchObject({ code: 'NETWORK' })
    expect($toast.get()).toBeNull()
  })
})
