import { Hono } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { userMe } from '../../src/features/auth/auth.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { currentUserId, requireUser, session } from '../middleware/session.ts'

/** API.md `/user`: the signed-in reader's own data only (the id comes from the token, never from the request). */
export const user = new Hono<AppEnv>()
  .get('/me', session, requireUser, async (c) => {
    const me = await userMe(c.var.db, currentUserId(c))
    if (!me) throw new AppError('NOT_LOGIN_USER')
    c.header('Cache-Control', 'private, no-store')
    return ok(c, me)
  })
