import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../lib/env.ts'
import { META_CSP } from '../../src/lib/server/csp.ts'

/**
 * Security headers on every response (docs/QUALITY.md, ASVS 3.4). Astro adds the hash-based
 * `script-src`/`style-src` policy (header on rendered pages, meta on pre-rendered ones); this adds a
 * second policy as a header for what a meta tag cannot carry (`frame-ancestors`), so both apply. A pre-rendered
 * page's meta policy is sent as a header too (issue 34 point 6: the 404 of every unknown path among them), so
 * its `script-src` holds for a client or a scanner that reads only headers.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  const type = c.res.headers.get('content-type') ?? ''
  if (
    c.req.method === 'GET' &&
    c.res.body &&
    type.startsWith('text/html') &&
    !/script-src/.test(c.res.headers.get('content-security-policy') ?? '')
  ) {
    const html = await c.res.text()
    const meta = META_CSP.exec(html)?.[1]
    c.res = new Response(html, c.res)
    if (meta)
      c.res.headers.append('Content-Security-Policy', meta.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&'))
  }
  const h = c.res.headers
  h.append('Content-Security-Policy', "frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'")
  h.set('X-Content-Type-Options', 'nosniff')
  h.set('X-Frame-Options', 'DENY')
  h.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  h.set('Cross-Origin-Opener-Policy', 'same-origin')
  h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)')
  if (new URL(c.req.url).protocol === 'https:') h.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
})
