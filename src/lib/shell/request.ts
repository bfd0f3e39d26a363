/**
 * The one way browser code calls the site's API (spec §7 "Calls"): every request carries `X-Platform: WEB`,
 * `X-Time-Zone` (the browser's IANA zone) and `Accept-Language` (the edition's locale, the page's `lang`), and
 * gives up after 30 s (spec §9 API time-out). A time-out shows the edition's retry message (the toast region's
 * `data-timeout`, Base.astro) and rejects, so the caller's failure path ends its busy state.
 * `navigator.sendBeacon` cannot carry headers; it stays as it is (the viewer's last progress save).
 */
import { REQUEST_TIMEOUT_MS, showRetry } from './stores.ts'

/** The spec §7 headers of a browser request. */
function requestHeaders(): Record<string, string> {
  return {
    'x-platform': 'WEB',
    'x-time-zone': Intl.DateTimeFormat().resolvedOptions().timeZone,
    'accept-language': document.documentElement.lang,
  }
}

/**
 * `fetch` with the spec §7 headers (the caller's own headers win) and the 30 s time-out (a `TimeoutError`).
 * `quiet`: a call the reader did not ask for (the session poll, search suggestions) fails without the message.
 */
export async function apiFetch(input: string, init: RequestInit = {}, { quiet = false } = {}): Promise<Response> {
  const controller = new AbortController()
  const timeout = new DOMException('No answer within 30 s', 'TimeoutError')
  const timer = setTimeout(() => controller.abort(timeout), REQUEST_TIMEOUT_MS)
  const outer = init.signal
  const follow = () => controller.abort(outer?.reason)
  if (outer?.aborted) follow()
  else outer?.addEventListener('abort', follow, { once: true })
  const headers = new Headers(requestHeaders())
  new Headers(init.headers).forEach((value, name) => headers.set(name, value))
  try {
    return await fetch(input, { ...init, headers, signal: controller.signal })
  } catch (err) {
    if (controller.signal.reason === timeout && !quiet) showRetry()
    throw err
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', follow)
  }
}
