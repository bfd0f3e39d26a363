import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { LOG_MAX_BYTES, LogBody, logLine } from '../../src/features/logger/logger.ts'
import { checkLimits } from '../../src/features/auth/limits.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { clientIp } from '../middleware/session.ts'

/**
 * Spec §7 Logger POST (`POST /api/v1/logger`): a body over `LOG_MAX_BYTES` is PAYLOAD_TOO_LARGE, a malformed one
 * INVALID_PARAMETER, one over the address's or the edition's allowance TOO_MANY_REQUESTS (Workers Rate Limiting:
 * counted and checked in one call); an accepted one is one JSON line in the Worker's log. Nothing goes to D1.
 */
export const logger = new Hono<AppEnv>().post(
  '/',
  bodyLimit({
    maxSize: LOG_MAX_BYTES,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE')
    },
  }),
  validate('json', LogBody),
  async (c) => {
    const address = clientIp((n) => c.req.header(n))
    await checkLimits('log', { ip: address, issuer: c.var.edition.siteUrl })
    console.log(
      logLine(c.req.valid('json'), { requestId: c.var.requestId, edition: c.var.edition.id, address, at: new Date().toISOString() }),
    )
    return ok(c, {})
  },
)
