import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../lib/env.ts'

/**
 * Security headers on every response (docs/QUALITY.md, ASVS 3.4). Astro adds the hash-based
 * `script-src`/`style-src` policy (header on rendered pages, meta on pre-rendered ones); this adds a
 * second policy as a header for what a meta tag cannot carry (`frame-ancestors`), so both apply.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  const h = c.res.headers
  h.append('Content-Security-Policy', "frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'")
  h.set('X-Content-Type-Options', 'nosniff')
  h.set('X-Frame-Options', 'DENY')
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  h.set('Cross-Origin-Opener-Policy', 'same-origin')
  h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)')
  if (new URL(c.req.url).protocol === 'https:') h.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
})
