/**
 * The edge app as the worker builds it, for worker tests: same middleware and API, with a page
 * renderer that answers like a page would (the real Astro pages are covered by the browser tests).
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { contextStorage } from 'hono/context-storage'
import type { AppEnv } from '../../functions/lib/env.ts'
import { expect } from 'vitest'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { createApp } from '../../functions/app.ts'
import { parseEdition, type Edition } from '../../src/lib/edition/schema.ts'
import fr from '../../editions/fr/edition.json'

export const frEdition = parseEdition('fr', fr)
/** Every French message file, as the edition plugin merges them. */
export const frMessages: Record<string, string> = Object.assign(
  {},
  ...Object.values(import.meta.glob<Record<string, string>>('../../editions/fr/messages/*.json', { eager: true, import: 'default' })),
)

const page: MiddlewareHandler = async (c) => c.html(`<!doctype html><title>${c.req.path}</title>`)

export function appFor(edition: Edition = frEdition, messages = frMessages) {
  return createApp({ edition, messages, pages: [page] })
}

/** Calls the app like workerd would for a request to http://localhost. */
export function request(app: ReturnType<typeof appFor>, path: string, init?: RequestInit) {
  return app.request(new Request(new URL(path, 'http://localhost'), init))
}

/** Stricter, for JSON API routes: an error carries a catalogue code and a translated message, a success says SUCCESS. */
export async function expectApiAnswer(res: Response, label: string) {
  expect(res.status, label).toBeLessThan(500)
  const text = await res.text()
  if (res.status >= 400) {
    const parsed = JSON.parse(text) as { result: string; code: string; message: string }
    expect(parsed.result).toBe('ERROR')
    expect(isErrorCode(parsed.code), parsed.code).toBe(true)
    expect(parsed.message).not.toMatch(/^error\./)
  } else expect(JSON.parse(text).result).toBe('SUCCESS')
}

/** Bad-input checks: never a 5xx; an error is the envelope with a catalogue code and a message. */
export async function expectHandled(res: Response) {
  expect(res.status).toBeLessThan(500)
  if (res.status >= 400) {
    const body = (await res.json()) as { result: string; code: string; message: string }
    expect(body.result).toBe('ERROR')
    expect(isErrorCode(body.code)).toBe(true)
    expect(body.message).toBeTruthy()
  } else await res.body?.cancel()
}

/** An API answer's JSON envelope. */
export type Body = { result: string; code?: string; message?: string; data?: any; [k: string]: unknown }
export async function read(res: Response): Promise<Body> {
  return (await res.json()) as Body
}

/** An error answer: its status, its catalogue code, and a translated message (never a raw message key). */
export async function expectError(res: Response, status: number, code: string) {
  const body = await read(res)
  expect({ status: res.status, code: body.code, result: body.result }).toEqual({ status, code, result: 'ERROR' })
  expect(body.message).toBeTruthy()
  expect(body.message).not.toMatch(/^[a-z]+\./)
}

/**
 * View and ranking counts are per UTC day: a test that straddles UTC midnight sees its counts split over two days
 * (CI runs at night too). It runs once more then, with its own fresh readers and series, far from midnight; a
 * failure within one day fails.
 */
export async function onOneUtcDay(body: () => Promise<void>) {
  const day = new Date().toISOString().slice(0, 10)
  try {
    await body()
  } catch (e) {
    if (new Date().toISOString().slice(0, 10) === day) throw e
    await body()
  }
}

/**
 * Runs `work` as code does while the edge app answers a request: inside Hono's context storage, with the request's
 * `vars` (its id, its edition), which message delivery reads (src/lib/messaging/messaging.server.ts).
 */
export async function inRequest<T>(vars: { requestId: string; edition: Edition }, work: () => Promise<T>): Promise<T> {
  let outcome: { value: T } | { error: unknown } = { error: new Error('the request never ran') }
  const app = new Hono<AppEnv>().use(contextStorage()).all('*', async (c) => {
    c.set('requestId', vars.requestId)
    c.set('edition', vars.edition)
    outcome = await work().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    )
    return c.body(null, 204)
  })
  await app.request('http://localhost/')
  const done = outcome as { value: T } | { error: unknown } // set by the handler, which the narrowing above cannot see
  if ('error' in done) throw done.error
  return done.value
}
