import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../lib/env.ts'

/**
 * Paths with encoded tricks (malformed %-escapes, NUL, encoded slashes or dot segments, backslashes)
 * never reach a handler: they are answered as not found.
 */
function isSuspiciousPath(rawPath: string): boolean {
  if (/%(?![0-9A-Fa-f]{2})/.test(rawPath)) return true
  if (/%(00|2f|5c)/i.test(rawPath)) return true
  let decoded: string
  try {
    decoded = decodeURIComponent(rawPath)
  } catch {
    return true
  }
  return decoded.includes('\0') || decoded.includes('\\') || /(^|\/)\.\.?(\/|$)/.test(decoded)
}

export function pathGuard(notFound: (c: Parameters<Parameters<typeof createMiddleware<AppEnv>>[0]>[0]) => Response | Promise<Response>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = c.req.raw.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0] ?? '/'
    if (isSuspiciousPath(raw)) return notFound(c)
    return next()
  })
}
