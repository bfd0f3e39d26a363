import type { Context } from 'hono'
import type { AppEnv } from './env.ts'
import type { PageRequest } from '../../src/lib/server/page-request.ts'

/**
 * The execution context Astro's handler is given (functions/worker.ts), which pages read as `Astro.locals.cfContext`:
 * the request's own, with the page's request data as its `props` (src/lib/server/page-request.ts), filled once here
 * from the edge's variables.
 */
export function pageContext(c: Context<AppEnv>): ExecutionContext<PageRequest> {
  const session = c.get('session')
  const props: PageRequest = {
    requestId: c.get('requestId'),
    db: c.get('db'),
    userId: session?.userId ?? null,
    claim: session?.userId ? { sessionVersion: session.sessionVersion, sessionId: session.sessionId } : null,
    audience: c.get('audience') ?? 'guest',
  }
  return {
    waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    passThroughOnException: () => c.executionCtx.passThroughOnException(),
    props,
  } as ExecutionContext<PageRequest>
}
