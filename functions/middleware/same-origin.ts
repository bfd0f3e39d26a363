import { createMiddleware } from 'hono/factory'
import { getCookie } from 'hono/cookie'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import type { AppEnv } from '../lib/env.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** docs/API.md / ASVS 3.5: a cookie-authenticated write must come from the site's own Origin (403 otherwise). */
export const sameOrigin = createMiddleware<AppEnv>(async (c, next) => {
  if (SAFE.has(c.req.method) || !getCookie(c, SESSION_COOKIE)) return next()
  const origin = c.req.header('origin')
  if (origin !== new URL(c.req.url).origin) throw new AppError('FORBIDDEN_ORIGIN')
  return next()
})
