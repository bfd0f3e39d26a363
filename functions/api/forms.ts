/**
 * Shared by the API sub-apps: the request's auth context and the one way to write a plain-form route (no
 * JavaScript needed): `formRoute`.
 */
import type { Context, Handler, MiddlewareHandler } from 'hono'
import { createMiddleware } from 'hono/factory'
import { setCookie } from 'hono/cookie'
import { zValidator } from '@hono/zod-validator'
import { z, type ZodObject, type ZodType } from 'zod'
import { AppError, type ErrorCode } from '../../src/lib/errors/catalogue.ts'
import type { AuthContext } from '../../src/features/auth/auth.server.ts'
import { loginRedirect } from '../../src/features/session/routes.ts'
import { isIdempotencyKey } from '../../src/features/wallet/idempotency.ts'
import type { AppEnv } from '../lib/env.ts'
import { formPost } from '../lib/openapi.ts'
import { toAppError } from '../lib/respond.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { clientIp } from '../middleware/session.ts'
import { env } from 'cloudflare:workers'
import { clientPlatform } from '../../src/features/auth/app-client.ts'
import { FLASH_COOKIE, FLASH_SECONDS, flashOf } from '../../src/lib/forms/flash.ts'
import { saveDraft } from '../../src/lib/forms/draft.server.ts'

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

/** The form's fields as posted (repeated names as arrays), for the failure location; {} when not a form. */
export type RawForm = Record<string, unknown>
export const field = (raw: RawForm, name: string) => (typeof raw[name] === 'string' ? (raw[name] as string).slice(0, 254) : '')

/** The key a page renders into a form that moves coins or ownership (a fresh one per render: those pages are private, no-store). */
export const FormKey = z.string().refine((k) => isIdempotencyKey(k))

/**
 * The JSON route's schema read from a form: a field it wants as a number arrives as decimal text (an empty one
 * as absent), so the form is checked by the same rules as the JSON twin.
 */
export function fromForm<S extends ZodObject>(schema: S) {
  const numeric = Object.entries(schema.shape)
    .filter(([, s]) => isNumber(s as ZodType))
    .map(([k]) => k)
  return z.preprocess((raw) => {
    if (raw === null || typeof raw !== 'object') return raw
    const out: Record<string, unknown> = { ...raw }
    for (const k of numeric) {
      const v = out[k]
      if (v === '') delete out[k]
      else if (typeof v === 'string' && /^-?\d{1,16}$/.test(v)) out[k] = Number(v)
    }
    return out
  }, schema)
}
function isNumber(s: ZodType): boolean {
  return s instanceof z.ZodNumber || (s instanceof z.ZodOptional && isNumber(s.unwrap() as ZodType))
}

/** A guest sent to the login route, coming back to `page` after it. */
export const toLogin = (page: string) => (_raw: RawForm, c: Context<AppEnv>) => loginRedirect(new URL(page, c.req.url)) ?? '/user/login'

export type FormRoute<S extends ZodType, R> = {
  /** The form's fields: the JSON twin's schema where one exists (`fromForm`), plus the form's own (`key`). */
  schema: S
  /** The code of a form that does not fit `schema` (INVALID_PARAMETER unless the route's rules say otherwise). */
  invalid?: ErrorCode
  /** Readers only: where a guest goes instead (usually `toLogin(page)`); absent: guests may post. */
  guest?: (raw: RawForm, c: Context<AppEnv>) => string
  /** A check of the form alone, before any key is claimed (e.g. a required checkbox left empty): it throws a catalogue code. */
  before?: (data: z.infer<S>) => void
  /**
   * The form moves coins or ownership: once per rendered key, through the same `idempotent()` middleware as the
   * JSON routes (`scope` names the route; the stored key is `key(data)`, by default `web-` and the form's `key`).
   * A repeated form goes to the first answer's location; the same key with another form is IDEMPOTENCY_KEY_REUSED.
   */
  once?: { scope: string; key?: (data: z.infer<S>) => string }
  /** The write (it throws a catalogue code to refuse). */
  run: (data: z.infer<S>, c: Context<AppEnv>) => Promise<R>
  /** Where success goes (also for a repeated keyed form, with the first answer's result); `raw`: the fields as posted. */
  done: (data: z.infer<S>, result: R, c: Context<AppEnv>, raw: RawForm) => string
  /** Where a refusal goes: its catalogue code, the raw fields and the code's details (e.g. `fields`). Only `?error=CODE`: what the reader typed goes in the flash. */
  failed: (code: ErrorCode, raw: RawForm, details?: Record<string, unknown>) => string
  /** The fields shown again after a refusal (src/lib/forms/flash.ts): e-mail, nickname, checkboxes; never a password or a code. */
  keep?: readonly string[]
  /** Long text fields shown again after a refusal (a question's text): kept server-side for the flash's minute (draft.server.ts). */
  keepText?: readonly string[]
  /** The field each code concerns on this form (a thrower's `details.field` comes first). */
  fields?: Partial<Record<ErrorCode, string>>
}

const see = (location: string) => new Response(null, { status: 303, headers: { Location: location } })
const rawOf = async (c: Context<AppEnv>): Promise<RawForm> => ((await c.req.parseBody({ all: true }).catch(() => null)) ?? {}) as RawForm
const valid = <S extends ZodType>(c: Context<AppEnv>) => (c.req as unknown as { valid: (target: 'form') => z.infer<S> }).valid('form')
const pass: MiddlewareHandler<AppEnv> = (_c, next) => next()

/**
 * One plain-form route (docs/API.md "Plain forms"): ASVS 3.5 same Origin only (403 FORBIDDEN_ORIGIN otherwise),
 * a guest to `guest` when readers only, the body through `schema` (Hono's form validator), the key through
 * `idempotent()` when `once`, then `run`: 303 to `done` on success, to `failed(code)` on any refusal with a
 * catalogue code (a 503, e.g. RETRY when a mail could not go, is shown on the form too: the reader can try
 * again), with the flash of the refusal (the `keep` fields, the field concerned; the `keepText` ones server-side)
 * in a one-minute cookie of the failure page (src/lib/forms/flash.ts). Spread into the route: `.post('/web/x', ...formRoute({...}))`.
 */
export function formRoute<S extends ZodType, R>(
  o: FormRoute<S, R>,
): [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>, Handler<AppEnv>] {
  const guard = formPost(
    createMiddleware<AppEnv>(async (c, next) => {
      assertSameOrigin(c)
      if (o.guest && c.var.session.userId === null) return see(o.guest(await rawOf(c), c))
      await next()
      if (c.error === undefined) return
      const e = toAppError(c.error)
      if (e.status >= 500 && e.status !== 503) return
      c.error = undefined
      const raw = await rawOf(c)
      const location = o.failed(e.code, raw, e.details)
      c.res = see(location)
      const flash = flashOf(e.code, raw, o.keep ?? [], e.details, o.fields)
      if (o.keepText) flash.draft = await saveDraft(raw, o.keepText)
      if (
        flash.draft === undefined &&
        flash.field === undefined &&
        flash.attemptsLeft === undefined &&
        Object.keys(flash.values).length === 0
      )
        return
      setCookie(c, FLASH_COOKIE, JSON.stringify(flash), {
        path: new URL(location, c.req.url).pathname,
        httpOnly: true,
        sameSite: 'Lax',
        secure: new URL(c.req.url).protocol === 'https:',
        maxAge: FLASH_SECONDS,
      })
    }),
    Boolean(o.guest),
  )
  const form = zValidator('form', o.schema, (result) => {
    if (!result.success)
      throw new AppError(o.invalid ?? 'INVALID_PARAMETER', {
        fields: [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(','),
      })
    o.before?.(result.data as z.infer<S>)
  }) as unknown as MiddlewareHandler<AppEnv>
  const once = o.once
    ? idempotent(o.once.scope, {
        form: {
          key: (c) => {
            const data = valid<S>(c)
            const key = (data as { key?: unknown }).key
            return typeof key !== 'string' ? undefined : o.once?.key ? o.once.key(data) : `web-${key}`
          },
          body: (c) => JSON.stringify({ path: c.req.path, form: valid<S>(c) }),
          replay: async (c, stored) => see(o.done(valid<S>(c), (JSON.parse(stored.body) as { data: R }).data, c, await rawOf(c))),
        },
      })
    : pass
  const handler: Handler<AppEnv> = async (c) => {
    const data = valid<S>(c)
    return c.redirect(o.done(data, await o.run(data, c), c, await rawOf(c)), 303)
  }
  return [guard, form, once, handler]
}
