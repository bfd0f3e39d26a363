/**
 * The audience class of the page being rendered (issue 11), from the page's request data where the edge's audience
 * step put it (functions/middleware/audience.ts). Kept apart from age.server.ts so that scripts running in Node (ops,
 * seed) can import the age rules without the Worker-only page request.
 */
import { pageRequest } from '../../lib/server/page-request.ts'
import { audienceSees } from './age.ts'
import type { AudienceClass } from '../../lib/cache.ts'

/** The audience class the page being rendered is for (`Astro.locals`; guest when pre-rendered). */
export function pageAudience(locals: App.Locals): AudienceClass {
  return pageRequest(locals).audience
}

/** What the page being rendered may list (adult and BL series), from its audience class. */
export function pageSees(locals: App.Locals): { showAdult: boolean; showBl: boolean } {
  return audienceSees(pageAudience(locals))
}
