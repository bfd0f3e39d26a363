/** Astro 7 advanced-routing entry: the Hono edge app (functions/) is the outer router of the worker. */
import { cf } from '@astrojs/cloudflare/hono'
import { astro } from 'astro/hono'
import type { MiddlewareHandler } from 'hono'
import { edition as rawEdition, messages } from 'virtual:edition'
import { parseEdition } from './lib/edition/schema.ts'
import { createApp } from '../functions/app.ts'

/** Validated again at start: a worker never serves with a bad edition. */
const edition = parseEdition(rawEdition.id, rawEdition)
const cloudflare = cf() as unknown as MiddlewareHandler

/** Static assets through the ASSETS binding; skipped while pre-rendering (no ExecutionContext then). */
const assets: MiddlewareHandler = async (c, next) => {
  try {
    void c.executionCtx
  } catch {
    return next()
  }
  return cloudflare(c, next)
}

export default createApp({ edition, messages, pages: [assets, astro() as unknown as MiddlewareHandler] })
