import { Hono } from 'hono'
import { env } from 'cloudflare:workers'
import type { AppEnv } from '../lib/env.ts'

/** Images stored in R2 (covers, episode slices), served with long-lived immutable caching. */
export const media = new Hono<AppEnv>().get('/:key{.+\\.(webp|avif|png|jpg)}', async (c) => {
  const object = await env.MEDIA.get(c.req.param('key'))
  if (!object) return c.body(null, 404)
  const headers = new Headers()
  object.writeHttpMetadata(headers)
  headers.set('ETag', object.httpEtag)
  headers.set('Cache-Control', 'public, max-age=31536000, immutable')
  if (c.req.header('if-none-match') === object.httpEtag) return new Response(null, { status: 304, headers })
  return new Response(object.body, { headers })
})
