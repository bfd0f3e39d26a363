import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../lib/env.ts'
import { PERSONAL } from '../../src/lib/cache.ts'

/**
 * docs/API.md: an API answer is personal (`private, no-store`: never kept by a browser or a shared cache) unless
 * its route says otherwise, as the public lists do (`/search/tags`, the web's `/payment/products`). Written once
 * here for every route of the API, errors included.
 */
export const personalByDefault = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', PERSONAL)
})
