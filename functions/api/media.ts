import { Hono } from 'hono'
import { env } from 'cloudflare:workers'
import type { AppEnv } from '../lib/env.ts'
import { isPublicMedia } from '../../src/features/viewer/viewer.server.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Public images stored in R2 (covers, banners, free episodes' slices of series for everyone), served with
 * long-lived immutable caching and kept in the edge cache (`caches.default`) under their URL alone — no cookie,
 * no header — so a second request in the colo costs no D1 statement and no R2 read. Whether an image is public
 * comes from its key or its public signature (`isPublicMedia`), never a query; a refused request is answered 404
 * before the cache is looked at. A paid or adult episode's slice is never public: the viewer's signed route
 * serves it, privately (docs/ARCHITECTURE.md "Slices").
 */
export const media = new Hono<AppEnv>().get('/:key{.+\\.(webp|avif|png|jpg)}', async (c) => {
  const key = c.req.param('key')
  const url = new URL(c.req.url)
  const sig = url.searchParams.get('s')
  if (!(await isPublicMedia(key, sig))) return c.body(null, 404)
  const cache = (caches as unknown as { default: Cache }).default
  const cacheKey = new Request(`${url.origin}${url.pathname}${sig === null ? '' : `?s=${encodeURIComponent(sig)}`}`)
  const hit = await cache.match(cacheKey)
  let res: Response
  if (hit) {
    res = new Response(hit.body, hit)
    res.headers.set('X-Edge-Cache', 'HIT')
  } else {
    const object = await env.MEDIA.get(key)
    if (!object) return c.body(null, 404)
    const headers = new Headers()
    object.writeHttpMetadata(headers)
    headers.set('ETag', object.httpEtag)
    headers.set('Cache-Control', IMMUTABLE)
    res = new Response(object.body, { headers })
    const stored = cache.put(cacheKey, res.clone())
    try {
      c.executionCtx.waitUntil(stored)
    } catch {
      await stored // no ExecutionContext (tests): stored before answering
    }
    res.headers.set('X-Edge-Cache', 'MISS')
  }
  if (c.req.header('if-none-match') !== res.headers.get('ETag')) return res
  await res.body?.cancel()
  return new Response(null, { status: 304, headers: res.headers })
})
