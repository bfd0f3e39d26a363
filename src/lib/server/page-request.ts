/**
 * What the edge app tells a page it renders (functions/lib/page-context.ts): the request's id, its D1 helper (whose
 * query count the edge reports), the signed-in reader and the audience class. Astro's Cloudflare adapter hands the
 * execution context it is given to the page as `Astro.locals.cfContext`; the edge app puts these in its `props`.
 */
import { env } from 'cloudflare:workers'
import { createDb, type Db } from './db.ts'
import type { AudienceClass } from '../cache.ts'

export type PageRequest = {
  requestId: string
  db: Db
  /** The signed-in reader (null: a guest), as the session middleware found them. */
  userId: number | null
  /** The reader's session, for a page part that checks it itself in its one call to the reader's object (HeaderMe.astro). */
  claim: { sessionVersion: number; sessionId: string } | null
  /** The audience class the page renders for (issue 11; functions/middleware/audience.ts). */
  audience: AudienceClass
}

/** The request data of the page being rendered; at build time (pre-rendering), a guest's with a fresh D1 helper. */
export function pageRequest(locals: App.Locals): PageRequest {
  const props = locals.cfContext?.props as Partial<PageRequest> | undefined
  if (props?.db) return props as PageRequest
  return { requestId: 'none', db: createDb(env.DB), userId: null, claim: null, audience: 'guest' }
}
