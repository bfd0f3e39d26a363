import { createMiddleware } from 'hono/factory'
import { getCookie } from 'hono/cookie'
import type { Context } from 'hono'
import { NOT_LOGGED_IN_ADULT_COOKIE } from '../../src/features/age/age.ts'
import type { AudienceClass } from '../../src/lib/cache.ts'
import { requestAudience } from '../../src/features/age/age.server.ts'
import type { AppEnv } from '../lib/env.ts'

/**
 * The request's audience class (issue 11; rules in src/features/age/age.ts `audienceClass`), from the verified
 * session only (the row its version check read: no extra query) and, on jp, the guest's own answer to the age popup (the not-logged-in-adult cookie, which counts for guests only). Computed once
 * per request and kept in the request's variables, which the edge hands to the page (functions/lib/page-context.ts).
 */
export async function audienceOf(c: Context<AppEnv>): Promise<AudienceClass> {
  // c.get, not c.var: Hono builds a new object of every variable on each read of c.var
  let audience = c.get('audience')
  if (audience === undefined)
    c.set(
      'audience',
      (audience = await requestAudience(
        c.get('db'),
        c.get('edition'),
        c.get('session') ?? { userId: null },
        getCookie(c, NOT_LOGGED_IN_ADULT_COOKIE),
      )),
    )
  return audience
}

/** Before the page cache and the pages: every page is rendered (and cached) for the reader's class. */
export const audience = createMiddleware<AppEnv>(async (c, next) => {
  await audienceOf(c)
  return next()
})
