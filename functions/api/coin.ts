/** docs/API.md `/coin`: the signed-in reader's own balances and history (the id comes from the session only). */
import { Hono } from 'hono'
import { HistoryQuery } from '../../src/features/wallet/wallet.schema.ts'
import { coinHistory, coinOf } from '../../src/features/wallet/wallet.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { checksSessionItself, currentSession, currentUserId, requireUser } from '../middleware/session.ts'

export const coin = new Hono<AppEnv>()
  .use(requireUser)
  /** Balances per type and the next expiries (the session version is checked in the same query). */
  .get('/', checksSessionItself, async (c) => {
    const session = currentSession(c)
    return ok(c, await coinOf(c.var.db, session.userId, new Date(), session))
  })
  /** One page of the charge, use or mileage history (spec §9 windows), newest first. */
  .get('/history', validate('query', HistoryQuery), async (c) => ok(c, await coinHistory(c.var.db, currentUserId(c), c.req.valid('query'))))
