import { createMiddleware } from 'hono/factory'
import { getCookie } from 'hono/cookie'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { hasSettingsCookie } from '../../src/features/viewer/reading.ts'
import type { AppEnv } from '../lib/env.ts'

/**
 * Anonymous page HTML kept in the edge cache (Cache API) for as long as the page's own `s-maxage` says
 * (catalogue pages: 60 s), so a guest's catalogue page costs no render and no D1 query on a hit. Requests
 * with a session, an Authorization header or `Cache-Control: no-cache`, non-GET requests, the API, and
 * responses that set cookies or are not public are never served from or put in the cache. Keys carry the build id, so a deploy starts from an empty cache; a
 * content change shows within the page's `s-maxage`.
 */
export function edgeCache(buildId: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const url = new URL(c.req.url)
    const personal = getCookie(c, SESSION_COOKIE) !== undefined || c.req.header('authorization') !== undefined || hasSettingsCookie(c.req.header('cookie'))
    const noCache = /\bno-cache\b/.test(c.req.header('cache-control') ?? '') // a forced reload renders afresh
    if (c.req.method !== 'GET' || url.pathname.startsWith('/api/') || personal || noCache) {
      return next()
    }
    const cache = (caches as unknown as { default: Cache }).default
    url.searchParams.set('__build', buildId)
    const key = new Request(url.href, { method: 'GET' })
    const hit = await cache.match(key)
    if (hit) {
      const res = new Response(hit.body, hit)
      res.headers.set('X-Edge-Cache', 'HIT')
      return res
    }
    await next()
    const res = c.res
    const cacheControl = res.headers.get('cache-control') ?? ''
    if (res.status === 200 && /\bpublic\b/.test(cacheControl) && /\bs-maxage=\d+/.test(cacheControl) && !res.headers.has('set-cookie')) {
      const stored = res.clone()
      try {
        c.executionCtx.waitUntil(cache.put(key, stored))
      } catch {
        await cache.put(key, stored) // no ExecutionContext (tests): store before answering
      }
      c.res.headers.set('X-Edge-Cache', 'MISS')
    }
  })
}
