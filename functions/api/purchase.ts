/**
 * API.md `POST /purchase`: rent or buy episodes with coins, once per Idempotency-Key. The body is validated
 * before the key is looked at: a malformed request never touches the key store.
 */
import { Hono } from 'hono'
import { PurchaseRequest } from '../../src/features/purchase/purchase.ts'
import { purchaseEpisodes } from '../../src/features/purchase/purchase.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { idempotent } from '../middleware/idempotency.ts'
import { currentUserId, requireUser, session } from '../middleware/session.ts'

export const purchase = new Hono<AppEnv>()
  .post('/', session, requireUser, validate('json', PurchaseRequest), idempotent('POST /purchase'), async (c) => {
    const result = await purchaseEpisodes(c.var.db, {
      userId: currentUserId(c),
      request: c.req.valid('json'),
      claim: c.var.idempotency,
      rentalHours: c.var.edition.rentalHours,
    })
    c.header('Cache-Control', 'private, no-store')
    return ok(c, result)
  })
