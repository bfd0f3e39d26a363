import { createMiddleware } from 'hono/factory'
import { hasSettingsCookie } from '../../src/features/viewer/reading.ts'
import type { AppEnv } from '../lib/env.ts'
import { audienceOf } from './audience.ts'

/** What the browser is told about a page kept for a class other than guests': its own copy only. */
const PER_READER = 'private, max-age=0'

/**
 * Catalogue page HTML kept in the edge cache (Cache API) per audience class (issue 11), for as long as the
 * page's own `s-maxage` says (catalogue pages: 60 s), so a catalogue page costs no render and no catalogue
 * query on a hit, for guests and signed-in readers alike. The key carries the class and the build id, never
 * the person: the class comes from the verified session (src/features/age/age.ts), so a page rendered for
 * one class is never served to another, and a deploy starts from an empty cache. Personal bits (balance,
 * owned badges, continue reading) come after first paint. Requests with an Authorization header, the
 * viewer-settings cookie or `Cache-Control: no-cache`, non-GET requests, the API, and responses that set
 * cookies or are not public are never served from or put in the cache. Pages of any class but `guest` go to
 * the browser as private. A content change shows within the page's `s-maxage`.
 */
export function edgeCache(buildId: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const personal = c.req.header('authorization') !== undefined || hasSettingsCookie(c.req.header('cookie'))
    const noCache = /\bno-cache\b/.test(c.req.header('cache-control') ?? '') // a forced reload renders afresh
    if (c.req.method !== 'GET' || c.req.path.startsWith('/api/') || personal || noCache) {
      return next()
    }
    const url = new URL(c.req.url)
    const cls = await audienceOf(c)
    const cache = (caches as unknown as { default: Cache }).default
    url.searchParams.set('__build', buildId)
    url.searchParams.set('__aud', cls)
    const key = new Request(url.href, { method: 'GET' })
    const hit = await cache.match(key)
    if (hit) {
      const res = new Response(hit.body, hit)
      res.headers.set('X-Edge-Cache', 'HIT')
      if (cls !== 'guest') res.headers.set('Cache-Control', PER_READER)
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
      if (cls !== 'guest') c.res.headers.set('Cache-Control', PER_READER)
    }
  })
}
