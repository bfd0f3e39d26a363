/**
 * Web Push subscriptions (issue 13 point 2, docs/API.md "Web Push"): `/setting/push` stores the browser's
 * subscription when the reader turns push on and removes it when they turn it off. In a local run only, `POST /test`
 * sends one push to the signed-in reader through `deliverPush` (their settings apply), for trying it by hand.
 */
import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import { z } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { isLocalRun } from '../../src/lib/server/local-run.ts'
import { deliverPush, removeSubscription, saveSubscription } from '../../src/features/push/push.server.ts'
import { PUSH_KINDS, PushEndpointBody, PushSubscriptionBody, TOO_MANY_SUBSCRIPTIONS } from '../../src/features/push/push.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok, refusal } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'

const TestPushBody = z.object({
  kind: z.enum(PUSH_KINDS),
  title: z.string().min(1).max(120),
  body: z.string().max(500),
  url: z
    .string()
    .regex(/^\/(?!\/)/)
    .max(500),
})

export const push = new Hono<AppEnv>()
  .use(requireUser)
  .post('/subscription', validate('json', PushSubscriptionBody), async (c) => {
    if (!(await saveSubscription(c.var.db, currentUserId(c), c.req.valid('json'), new Date())))
      return refusal(c, 'INVALID_PARAMETER', c.get('t')('account.push.deviceTooMany'), { reason: TOO_MANY_SUBSCRIPTIONS })
    return ok(c, { subscribed: true })
  })
  .delete('/subscription', validate('json', PushEndpointBody), async (c) => {
    const removed = await removeSubscription(c.var.db, currentUserId(c), c.req.valid('json').endpoint)
    return ok(c, { removed })
  })
  .post('/test', validate('json', TestPushBody), async (c) => {
    if (!isLocalRun()) throw new AppError('NOT_EXIST')
    return ok(c, await deliverPush(env, c.var.db, currentUserId(c), c.req.valid('json')))
  })
