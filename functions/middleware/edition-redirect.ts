import { createMiddleware } from 'hono/factory'
import type { Edition } from '../../src/lib/edition/schema.ts'
import type { AppEnv } from '../lib/env.ts'

/** Spec §1: an edition with `redirectAllUrl` (German) sends every path except /_/health there. */
export function editionRedirect(edition: Pick<Edition, 'redirectAllUrl'>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!edition.redirectAllUrl || c.req.path === '/_/health') return next()
    return c.redirect(edition.redirectAllUrl, 302)
  })
}
