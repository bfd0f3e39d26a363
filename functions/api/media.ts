import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { validate } from '../lib/validate.ts'
import { LOADER_QUALITY, LOADER_WIDTHS } from '../../src/features/catalogue/images.ts'
import { env } from 'cloudflare:workers'
import type { AppEnv } from '../lib/env.ts'
import { isPublicMedia } from '../../src/features/viewer/viewer.server.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The loader's query (spec §7): a /media path, one of spec §9's widths, a quality (default 75). */
const ImageQuery = z.object({
  url: z
    .string()
    .max(300)
    .regex(/^\/media\/(?!.*\.\.)[\w/.-]+\.(webp|avif|png|jpg)(\?s=[\w-]+)?$/),
  w: z.coerce.number().pipe(z.union(LOADER_WIDTHS.map((w) => z.literal(w)))),
  q: z.coerce.number().int().min(1).max(100).default(LOADER_QUALITY),
})

/**
 * Public images stored in R2 (covers, banners, free episodes' slices of series for everyone), served with
 * long-lived immutable caching and kept in the edge cache (`caches.default`) under their URL alone — no cookie,
 * no header — so a second request in the colo costs no D1 statement and no R2 read. Whether an image is public
 * comes from its key or its public signature (`isPublicMedia`), never a query; a refused request is answered 404
 * before the cache is looked at. A paid or adult episode's slice is never public: the viewer's signed route
 * serves it, privately (docs/ARCHITECTURE.md "Slices").
 */
/**
 * Answers from the edge cache under `cacheKey`, else from `make` (null: 404), stored there for the next request of the
 * colo; a request whose If-None-Match is the image's ETag gets 304.
 */
async function cached(c: Context<AppEnv>, cacheKey: Request, make: () => Promise<Response | null>): Promise<Response> {
  const cache = (caches as unknown as { default: Cache }).default
  const hit = await cache.match(cacheKey)
  let res: Response
  if (hit) {
    res = new Response(hit.body, hit)
    res.headers.set('X-Edge-Cache', 'HIT')
  } else {
    const made = await make()
    if (!made) return c.body(null, 404)
    res = made
    res.headers.set('Cache-Control', IMMUTABLE)
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
}

/** The public object `key` (with its slice signature `sig`), or null when it is not public or not stored. */
async function publicObject(key: string, sig: string | null): Promise<R2ObjectBody | null> {
  return (await isPublicMedia(key, sig)) ? env.MEDIA.get(key) : null
}

export const media = new Hono<AppEnv>()
  /**
   * Spec §7/§9 image loader (`loaderUrl`): the public image at `url` (a /media path, with its `s` signature if a slice's)
   * `w` pixels wide at quality `q`, made by the Images binding (never enlarged) as WebP, kept in the edge cache under
   * its canonical URL and served immutable as the stored files are.
   */
  .get('/image', validate('query', ImageQuery), async (c) => {
    const { url, w, q } = c.req.valid('query')
    const source = new URL(url, c.req.url)
    const key = decodeURIComponent(source.pathname.slice('/media/'.length))
    const sig = source.searchParams.get('s')
    const params = new URLSearchParams({
      url: `${source.pathname}${sig === null ? '' : `?s=${encodeURIComponent(sig)}`}`,
      w: String(w),
      q: String(q),
    })
    const origin = new URL(c.req.url).origin
    return cached(c, new Request(`${origin}/media/image?${params}`), async () => {
      const object = await publicObject(key, sig)
      if (!object) return null
      const image = await env.IMAGES.input(object.body)
        .transform({ width: w, fit: 'scale-down' })
        .output({ format: 'image/webp', quality: q })
      const res = image.response()
      const headers = new Headers({ 'Content-Type': 'image/webp', ETag: `"${object.etag}-${w}-${q}"` })
      return new Response(res.body, { headers })
    })
  })
  .get('/:key{.+\\.(webp|avif|png|jpg)}', async (c) => {
    const key = c.req.param('key')
    const url = new URL(c.req.url)
    const sig = url.searchParams.get('s')
    if (!(await isPublicMedia(key, sig))) return c.body(null, 404)
    const cacheKey = new Request(`${url.origin}${url.pathname}${sig === null ? '' : `?s=${encodeURIComponent(sig)}`}`)
    return cached(c, cacheKey, async () => {
      const object = await env.MEDIA.get(key)
      if (!object) return null
      const headers = new Headers()
      object.writeHttpMetadata(headers)
      headers.set('ETag', object.httpEtag)
      return new Response(object.body, { headers })
    })
  })
