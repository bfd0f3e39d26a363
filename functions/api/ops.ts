/**
 * The operator API (docs/API.md "Operator API", docs/ARCHITECTURE.md `/api/ops/*`): `Authorization: Bearer $OPS_TOKEN`.
 * Off when the OPS_TOKEN binding is unset or empty: every path then answers 404 NOT_EXIST, as if the API did
 * not exist. A missing or wrong token answers 401 NOT_LOGIN_USER (the catalogue's "authenticate first" code).
 * The same actions are available as `npm run ops -- …` (scripts/ops.ts).
 */
import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { env } from 'cloudflare:workers'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { timingSafeEqual } from '../../src/lib/server/password.ts'
import { AdminAdjustRequest } from '../../src/features/wallet/wallet.ts'
import { adminAdjust } from '../../src/features/wallet/wallet.server.ts'
import { AlarmBroadcastRequest } from '../../src/features/alarm/alarm.ts'
import { publishEpisode, sendBroadcast } from '../../src/features/alarm/alarm.server.ts'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'

const EpisodeParam = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .transform(Number),
})

const encoder = new TextEncoder()
const sha256 = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))

/**
 * Bearer check against OPS_TOKEN. Both sides are hashed first, so the comparison is constant-time and does
 * not reveal the token's length.
 */
const requireOpsToken = createMiddleware<AppEnv>(async (c, next) => {
  const expected = env.OPS_TOKEN
  if (!expected) throw new AppError('NOT_EXIST')
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  const [given, wanted] = await Promise.all([sha256(match?.[1] ?? ''), sha256(expected)])
  if (!match || !timingSafeEqual(given, wanted)) {
    c.header('WWW-Authenticate', 'Bearer realm="ops"')
    throw new AppError('NOT_LOGIN_USER')
  }
  await next()
  c.header('Cache-Control', 'no-store')
})

export const ops = new Hono<AppEnv>()
  .use(requireOpsToken)
  /** Operator charge (amount > 0) or deduction (amount < 0), recorded with source ADMIN. */
  .post('/coins', validate('json', AdminAdjustRequest), async (c) => ok(c, await adminAdjust(c.var.db, c.req.valid('json'))))
  /** Publishes an episode now and queues its alarms to the readers who favourited its series (once). */
  .post('/episodes/:id/publish', validate('param', EpisodeParam), async (c) => {
    const published = await publishEpisode(c.var.db, env.ALARMS, c.req.valid('param').id)
    if (!published) throw new AppError('NOT_EXIST')
    return ok(c, published)
  })
  /** A notice-style alarm to every reader or to the readers of one series, fanned out by the queue. */
  .post('/alarms', validate('json', AlarmBroadcastRequest), async (c) =>
    ok(c, await sendBroadcast(c.var.db, env.ALARMS, c.req.valid('json'))),
  )
