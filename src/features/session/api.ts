/**
 * The one way browser code calls the site (docs/ARCHITECTURE.md "Pages, islands and client state"): `api` for
 * `/api/v1` (the envelope decoded, the spec §8 follow-ups applied), `send` for what answers outside the envelope
 * (`/api/auth`, the comment pages' forms). The client itself (`api-client.ts`, on the platform's fetch) loads on the first call,
 * so a page pays for it only once it calls. Only `navigator.sendBeacon` (the viewer's last progress save) stays
 * outside: it cannot carry headers.
 */

/** A call's answer: its `data`, or the refusal's code and translated message (`NETWORK`: no answer, status 0). */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; code: string; message: string | null; status: number }

/** `quiet`: a request the reader did not ask for (the session poll, search suggestions) times out without the message. */
export type Send = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  body?: BodyInit
  headers?: Record<string, string>
  signal?: AbortSignal
  quiet?: boolean
  keepalive?: boolean
}

/** `body` is sent as JSON; `key` is the Idempotency-Key of a money call (docs/API.md "Idempotency"), kept by the caller for the reader's own retry. */
export type Call = Omit<Send, 'body' | 'headers'> & { body?: unknown; key?: string }

const client = () => import('./api-client.ts')

export const api = async <T>(path: string, options?: Call): Promise<ApiResult<T>> => (await client()).call<T>(path, options)

export const send = async (url: string, options?: Send): Promise<Response> => (await client()).send(url, options)
