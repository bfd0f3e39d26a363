/**
 * The browser's request helper (spec §7 headers, §9 30 s time-out) against a real local HTTP server: the three
 * headers reach it, the caller's own headers are kept, and a server that never answers ends in a TimeoutError
 * after 30 s with the edition's retry message shown.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { apiFetch } from './request.ts'
import { $toast, REQUEST_TIMEOUT_MS } from './stores.ts'

const RETRY = 'Le serveur met trop de temps à répondre.'
let server: Server
let base = ''
let seen: IncomingHttpHeaders[] = []
const toasts: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers)
    if (req.url === '/slow') return // never answered
    res.setHeader('content-type', 'application/json')
    res.end('{"result":"SUCCESS","data":{}}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  vi.stubGlobal('document', {
    documentElement: { lang: 'ar' },
    getElementById: (id: string) => (id === 'toast' ? { dataset: { timeout: RETRY } } : null),
  })
  $toast.listen((toast) => void (toast && toasts.push(toast.message)))
})
afterEach(() => {
  seen = []
  toasts.length = 0
  vi.useRealTimers()
})
afterAll(async () => {
  vi.unstubAllGlobals()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe('apiFetch', () => {
  it('sends X-Platform WEB, the browser time zone and the edition locale, and keeps the caller headers', async () => {
    const res = await apiFetch(`${base}/api/v1/coin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      body: '{}',
    })
    expect(await res.json()).toEqual({ result: 'SUCCESS', data: {} })
    expect(seen).toHaveLength(1)
    expect(seen[0]).toMatchObject({
      'x-platform': 'WEB',
      'x-time-zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
      'accept-language': 'ar',
      'content-type': 'application/json',
      'idempotency-key': 'k-1',
    })
    expect(toasts).toEqual([])
  })

  it('gives up on a server that never answers after 30 s: a TimeoutError and the retry message', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const call = apiFetch(`${base}/slow`)
    const outcome = call.then(
      () => 'answered',
      (e: DOMException) => e.name,
    )
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve)) // the server has it (real time)
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1)
    expect(toasts).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(await outcome).toBe('TimeoutError')
    expect(toasts).toEqual([RETRY])
  })

  it('a call the reader did not ask for (quiet) times out without the message', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const outcome = apiFetch(`${base}/slow`, {}, { quiet: true }).then(
      () => 'answered',
      (e: DOMException) => e.name,
    )
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS)
    expect(await outcome).toBe('TimeoutError')
    expect(toasts).toEqual([])
  })

  it("a caller's own abort is passed on and shows no retry message", async () => {
    const controller = new AbortController()
    const call = apiFetch(`${base}/slow`, { signal: controller.signal })
    await vi.waitFor(() => expect(seen).toHaveLength(1), { interval: 5 })
    controller.abort()
    await expect(call).rejects.toMatchObject({ name: 'AbortError' })
    expect(toasts).toEqual([])
  })
})
