/**
 * Request-scoped context shared by the Hono edge app and the Astro pages it renders
 * (one AsyncLocalStorage store per request: request id, D1 helper with its query counter).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { env } from 'cloudflare:workers'
import { createDb, type Db } from './db.ts'
import type { AudienceClass } from '../cache.ts'
import type { Edition } from '../edition/schema.ts'

export type RequestContext = {
  requestId: string
  /** Spec §2: some pages skip loading the user. */
  skipUser: boolean
  db: Db
  /** Calls made to readers' Durable Objects (src/features/reader/stub.server.ts), reported as `X-Reader-Calls`. */
  objectCalls: { count: number }
  /** The signed-in reader, set by the session middleware once it has run (null: guest; absent: not run). */
  userId?: number | null
  /** The audience class pages render for (issue 11), set by the edge's audience step for page requests. */
  audience?: AudienceClass
  /** The edition the request is served by (absent outside a request). */
  edition?: Edition
}

const storage = new AsyncLocalStorage<RequestContext>()

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn)
}

/** The current request's context; outside a request (build, tests) a fresh one. */
export function requestContext(): RequestContext {
  return storage.getStore() ?? { requestId: 'none', skipUser: false, db: createDb(env.DB), objectCalls: { count: 0 } }
}
