import { Hono } from 'hono'
import { env } from 'cloudflare:workers'
import type { AppEnv } from '../lib/env.ts'
import { isPublicMediaKey } from '../../src/features/viewer/viewer.server.ts'

/**
 * Public images stored in R2 (covers, banners, free episodes' slices), served with long-lived immutable
 * caching. A paid episode's slice is not public: it is served only through the viewer's signed route.
 */
export const media = new Hono<AppEnv>().get('/:key{.+\\.(webp|avif|png|jpg)}', async (c) => {
  const key = c.req.param('key')
  if (!(await isPublicMediaKey(c.var.db, key))) return c.body(null, 404)
  const object = await env.MEDIA.get(key)
  if (!object) return c.body(null, 404)
  const headers = new Headers()
  object.writeHttpMetadata(headers)
  headers.set('ETag', object.httpEtag)
  headers.set('Cache-Control', 'public, max-age=31536000, immutable')
  if (c.req.header('if-none-match') === object.httpEtag) return new Response(null, { status: 304, headers })
  return new Response(object.body, { headers })
})
