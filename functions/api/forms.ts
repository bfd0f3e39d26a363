/** Shared by the auth and account sub-apps: the request's auth context and the plain-form (no JavaScript) flow. */
import type { Context } from 'hono'
import type { ZodType, z } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import type { AuthContext } from '../../src/features/auth/auth.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { clientIp } from '../middleware/session.ts'
import { env } from 'cloudflare:workers'
import { clientPlatform } from '../../src/features/auth/app-client.ts'

/**
 * What the auth flows need from the request: the edition's siteUrl (token iss/aud), translator, client IP, and
 * the platform a sign-in fixes in the session (an app's only with its client credential, else WEB).
 */
export function authContext(c: Context<AppEnv>): AuthContext {
  const platform = c.req.header('x-platform')
  return {
    issuer: c.var.edition.siteUrl,
    t: c.var.t,
    ip: clientIp((n) => c.req.header(n)),
    clientKind: platform && platform !== 'WEB' ? 'APP' : 'WEB',
    phoneCountry: c.var.edition.phoneCountry,
    platform: clientPlatform(c.req.header('x-client-id'), c.req.header('x-client-secret'), env as unknown as Record<string, unknown>),
  }
}

/** ASVS 3.5: the web forms (login CSRF included) are accepted only from the site's own Origin. */
export function assertSameOrigin(c: Context<AppEnv>) {
  if (c.req.header('origin') !== new URL(c.req.url).origin) throw new AppError('FORBIDDEN_ORIGIN')
}

/**
 * A plain-form flow (no JavaScript needed): same Origin only, the urlencoded body through `schema`, then
 * `run`; 303 to `done` on success, to `failed(code)` on a refusal with a catalogue code (a 503, e.g. RETRY when
 * a mail could not go, is shown on the form too: the reader can try again).
 */
export async function formFlow<S extends ZodType, R = unknown>(
  c: Context<AppEnv>,
  schema: S,
  run: (data: z.infer<S>) => Promise<R>,
  done: (data: z.infer<S>, result: R) => string,
  failed: (code: string, raw: Record<string, unknown>) => string,
) {
  assertSameOrigin(c)
  const raw = ((await c.req.parseBody({ all: true }).catch(() => null)) ?? {}) as Record<string, unknown>
  const form = schema.safeParse(raw)
  if (!form.success) return c.redirect(failed('INVALID_PARAMETER', raw), 303)
  try {
    const result = await run(form.data)
    return c.redirect(done(form.data, result), 303)
  } catch (e) {
    if (e instanceof AppError && (e.status < 500 || e.status === 503)) return c.redirect(failed(e.code, raw), 303)
    throw e
  }
}
export const field = (raw: Record<string, unknown>, name: string) => (typeof raw[name] === 'string' ? (raw[name] as string).slice(0, 254) : '')

