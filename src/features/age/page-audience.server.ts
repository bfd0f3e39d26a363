/**
 * The audience class of the page being rendered (issue 11), read from the request context where the edge's
 * audience step put it (functions/middleware/audience.ts). Kept apart from age.server.ts so that scripts running
 * in Node (ops, seed) can import the age rules without the Worker-only request context.
 */
import { requestContext } from '../../lib/server/context.ts'
import { audienceSees } from './age.ts'
import type { AudienceClass } from '../../lib/cache.ts'

/** The audience class the page being rendered is for (set by the edge before the page cache; guest outside a request). */
export function pageAudience(): AudienceClass {
  return requestContext().audience ?? 'guest'
}

/** What the page being rendered may list (adult and BL series), from its audience class. */
export function pageSees(): { showAdult: boolean; showBl: boolean } {
  return audienceSees(pageAudience())
}
