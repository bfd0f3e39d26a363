/**
 * The Hono edge app: the outer router of the worker (docs/ARCHITECTURE.md). Edge middleware runs before
 * any page; `/api/v1` is the backend; everything else is rendered by Astro through `render`.
 */
import { MAX_IMPORT_OBJECT_BYTES, MAX_IMPORT_REQUEST_BYTES } from '../src/features/catalogue/series-import.ts'
import { Hono, type Handler, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { env } from 'cloudflare:workers'
import type { Edition } from '../src/lib/edition/schema.ts'
import { createTranslator } from '../src/lib/i18n/i18n.ts'
import { createDb } from '../src/lib/server/db.ts'
import { contextStorage } from 'hono/context-storage'
import { AppError } from '../src/lib/errors/catalogue.ts'
import { raiseAlert } from '../src/features/operator/alerts.server.ts'
import type { AppEnv } from './lib/env.ts'
import { errorResponse, toAppError } from './lib/respond.ts'
import { requestId } from './middleware/request-id.ts'
import { securityHeaders } from './middleware/security-headers.ts'
import { editionRedirect } from './middleware/edition-redirect.ts'
import { pathGuard } from './middleware/path-guard.ts'
import { sameOrigin } from './middleware/same-origin.ts'
import { protectedRoute } from './middleware/protected-route.ts'
import { checksSessionItself, session } from './middleware/session.ts'
import { personalByDefault } from './middleware/personal.ts'
import { edgeCache } from './middleware/edge-cache.ts'
import { audience } from './middleware/audience.ts'
import { v1 } from './api/v1.ts'
import { media } from './api/media.ts'
import { ops } from './api/ops.ts'
import { sessionService } from './api/session.ts'
import { MAX_QNA_BODY_BYTES } from '../src/features/qna/qna.ts'
import { isLocalOnlyPath, isLocalRun } from '../src/lib/server/local-run.ts'
import { answering } from '../src/lib/server/turns.ts'
import { signedMark } from './middleware/signed-mark.ts'
import { dbStart, keepBookmark } from './middleware/d1-bookmark.ts'

/** API bodies are small JSON documents; anything larger is refused before parsing. */
const MAX_BODY_BYTES = 64 * 1024

export type AppOptions = {
  edition: Edition
  messages: Record<string, string>
  /** Middleware that serves static assets and renders Astro pages. */
  pages: (MiddlewareHandler | Handler)[]
  /** Versions the edge cache of catalogue pages. */
  buildId?: string
}

const isApi = (path: string) => path === '/api' || path.startsWith('/api/')

/**
 * Server islands, a page's personal parts (Astro names each after its component), and those that draw the header's:
 * the session is checked in their call to the reader's object (src/features/auth/header-me.server.ts).
 */
const isIsland = (path: string) => path.startsWith('/_server-islands/')
const HEADER_DRAWN = ['/_server-islands/HeaderMe', '/_server-islands/SeriesMe']

/**
 * `middleware` on every path but those `skip` names. hono/combine's `except` matched each request in a router of its
 * own and built an Error for every request it let through (3 % of a rendered page's worker time).
 */
const unless =
  (skip: (path: string) => boolean, middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    skip(c.req.path) ? next() : middleware(c, next)

export function createApp({ edition, messages, pages, buildId = 'dev' }: AppOptions) {
  const t = createTranslator(edition, messages)
  const app = new Hono<AppEnv>()

  const notFound = (c: Parameters<Handler<AppEnv>>[0]) =>
    isApi(c.req.path) ? errorResponse(c, 'NOT_EXIST') : fetchErrorPage(c.req.url, '/404', 404)

  app.onError(async (err, c) => {
    const appError = toAppError(err)
    if (appError.code === 'UNKNOWN') console.error(`[${c.get('requestId')}]`, err)
    if (appError.status >= 500)
      await raiseAlert(
        c.var.db ?? createDb(env.DB),
        'errors',
        `${c.req.method} ${c.req.path}: ${err instanceof AppError ? err.code : `${appError.code} ${String(err)}`}`,
      )
    if (!isApi(c.req.path) && appError.status >= 500) return fetchErrorPage(c.req.url, '/error', 500)
    return errorResponse(c, appError.code, appError.details)
  })

  app.use((_c, next) => answering(next)) // hash slices in this isolate wait for page requests (issue 34 point 5)
  // the request's variables reach code that has no `c` (reader-object calls, message delivery) through Hono's storage
  app.use(contextStorage(), requestId, securityHeaders)
  app.use(async (c, next) => {
    c.set('edition', edition)
    c.set('t', t)
    const db = createDb(env.DB, dbStart(c))
    c.set('db', db)
    const objectCalls = { count: 0 }
    c.set('objectCalls', objectCalls)
    await next()
    keepBookmark(c, db)
    if (objectCalls.count > 0) c.res.headers.set('X-Reader-Calls', String(objectCalls.count))
    if (db.queryCount > 0) {
      c.res.headers.set('X-D1-Queries', String(db.queryCount))
      c.res.headers.set('X-D1-Usage', `${db.usage.statements} statements; ${db.usage.rowsRead} read; ${db.usage.rowsWritten} written`)
    }
  })
  app.get('/_/health', (c) => c.json({ status: 'ok' }))
  app.use(editionRedirect(edition), pathGuard(notFound))
  // the sandboxes and the outbox exist in local runs only: a deployed worker answers 404 whatever its secrets
  app.use(async (c, next) => {
    if (isLocalOnlyPath(c.req.path) && !isLocalRun()) return notFound(c)
    await next()
  })

  app.use(
    '/api/*',
    (c, next) =>
      bodyLimit({
        maxSize:
          c.req.path === '/api/v1/qna/web/register'
            ? MAX_QNA_BODY_BYTES
            : c.req.path.startsWith('/api/ops/media/')
              ? MAX_IMPORT_OBJECT_BYTES // a series import's renditions (behind the operator token)
              : c.req.path === '/api/ops/series/import'
                ? MAX_IMPORT_REQUEST_BYTES
                : MAX_BODY_BYTES,
        onError: () => {
          throw new AppError('PAYLOAD_TOO_LARGE')
        },
      })(c, next),
    sameOrigin,
    personalByDefault,
  )
  app.use(signedMark, session)
  app.route('/api/v1', v1)
  app.route('/api/auth', sessionService)
  app.route('/api/ops', ops)
  app.all('/api/*', (c) => errorResponse(c, 'NOT_EXIST'))
  app.all('/api', (c) => errorResponse(c, 'NOT_EXIST'))
  app.route('/media', media)

  // The carrier posts its signed identity result (spec §2) cross-site by design; the page checks its HMAC
  // signature, so Astro's same-origin form check is given the site's own origin for this one route.
  app.post('/callback/auth-mobilians', async (c, next) => {
    const headers = new Headers(c.req.raw.headers)
    headers.set('origin', new URL(c.req.url).origin)
    c.req.raw = new Request(c.req.raw, { headers })
    await next()
  })
  // A page's personal parts (server islands: the header's, home's continue row) are the reader's own, never in the edge
  // cache; those drawing the header's check the session in their call to the reader's object and have no audience class
  // to render for.
  for (const path of HEADER_DRAWN) app.use(path, checksSessionItself)
  app.use(
    protectedRoute,
    unless((path) => HEADER_DRAWN.includes(path), audience),
    unless(isIsland, edgeCache(buildId)),
  )
  for (const handler of pages) app.use(handler as MiddlewareHandler)
  app.notFound(notFound)
  return app
}

/** The pre-rendered 404/error page with the right status (falls back to plain text at build time). */
async function fetchErrorPage(requestUrl: string, path: '/404' | '/error', status: 404 | 500) {
  try {
    const res = await env.ASSETS.fetch(new URL(path + '/', requestUrl))
    if (res.ok)
      return new Response(res.body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } })
  } catch {
    // no assets binding (tests, build): plain answer below
  }
  return new Response(status === 404 ? 'Not found' : 'Error', { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
