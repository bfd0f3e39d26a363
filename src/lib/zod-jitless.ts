/**
 * `zod` as every bundle of the site gets it (astro.config.mjs aliases the package to this module): zod itself with
 * its compiled fast path off (`jitless`). That fast path probes `new Function('')` when the first object schema is
 * defined, which the site's Content-Security-Policy refuses: every page whose scripts define a schema (the account
 * forms, rent-or-buy, the roulette) logged a `script-src eval` violation (issue 43 point 4). workerd refuses eval
 * as well, so the worker's parsing is unchanged.
 */
import { z } from 'zod/v4'

z.config({ jitless: true })

export * from 'zod/v4'
