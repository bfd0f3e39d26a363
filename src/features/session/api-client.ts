/**
 * The browser's API client (docs/ARCHITECTURE.md "Pages, islands and client state"), loaded by `api.ts` on the
 * first call: the platform's `fetch` and an `AbortController`, nothing more (a request library cost 2.8 KB gzip on
 * every page that calls; issue 40 point 1). Every request carries the spec §7 headers (`X-Platform: WEB`, the
 * browser's `X-Time-Zone`, the page's `lang` as `Accept-Language`) and gives up after 30 s (spec §9), with the
 * edition's retry message unless `quiet`. `call` decodes the docs/API.md envelope once into an `ApiResult` and
 * applies the spec §8 follow-ups for every caller: NEED_TO_REFRESH refreshes the session and tries once more (the
 * same Idempotency-Key), NOT_FOUND_ACCESS_TOKEN signs out, ADULT_ONLY_CONTENTS asks for the age popup; a network
 * failure or time-out is the result `NETWORK`.
 */
import type { ApiResult, Call, Send } from './api.ts'
import { REQUEST_TIMEOUT_MS, requireAge, showRetry } from '../../lib/shell/stores.ts'

/** `fetch`: the answer whatever its status; rejects on a network failure, a time-out or `signal`. */
export async function send(url: string, { method = 'GET', body, headers, signal, quiet = false, keepalive }: Send = {}): Promise<Response> {
  const controller = new AbortController()
  let late = false
  const timer = setTimeout(() => {
    late = true
    controller.abort()
  }, REQUEST_TIMEOUT_MS)
  const stop = () => controller.abort(signal?.reason)
  if (signal?.aborted) stop()
  signal?.addEventListener('abort', stop)
  try {
    return await fetch(url, {
      method,
      body,
      keepalive,
      credentials: 'same-origin',
      signal: controller.signal,
      headers: {
        'X-Platform': 'WEB',
        'X-Time-Zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
        'Accept-Language': document.documentElement.lang,
        ...headers,
      },
    })
  } catch (error) {
    if (late && !quiet) showRetry()
    throw error
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', stop)
  }
}

type Envelope<T> = { result?: string; data?: T; code?: string; message?: string }

/** A call to `/api/v1` + `path` with a JSON body, its envelope decoded and the spec §8 follow-ups applied. */
export async function call<T>(path: string, { body, key, ...rest }: Call = {}, retried = false): Promise<ApiResult<T>> {
  let res: Response
  try {
    res = await send(`/api/v1${path}`, {
      ...rest,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(key ? { 'Idempotency-Key': key } : {}),
      },
    })
  } catch {
    return { ok: false, code: 'NETWORK', message: null, status: 0 }
  }
  const answer = (await res.json().catch(() => null)) as Envelope<T> | null
  if (res.ok && answer?.result === 'SUCCESS') return { ok: true, data: answer.data as T }
  const code = answer?.code ?? 'UNKNOWN'
  if (code === 'NEED_TO_REFRESH' && !retried) {
    await (await import('./store.ts')).refreshSession()
    return call(path, { body, key, ...rest }, true)
  }
  if (code === 'NOT_FOUND_ACCESS_TOKEN') void import('./sign-out.ts').then((m) => m.signOut())
  if (code === 'ADULT_ONLY_CONTENTS') requireAge()
  return { ok: false, code, message: answer?.message ?? null, status: res.status }
}
