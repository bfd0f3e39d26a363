/**
 * `/api/v1/library` (spec §2 detail favourite toggle): `POST /favorite/{seriesId}` adds a published series to
 * the signed-in reader's favourites, `DELETE` removes it; both idempotent, answering `{seriesId, favorite}`.
 * Unknown or malformed ids are NOT_EXIST; cookie callers must be same-origin (global middleware).
 */
import { Hono, type Context } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { parseId } from '../../src/features/catalogue/catalogue.ts'
import { setFavorite } from '../../src/features/library/library.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'

async function toggle(c: Context<AppEnv>, on: boolean) {
  const seriesId = parseId(c.req.param('seriesId'))
  if (seriesId === null || !(await setFavorite(c.var.db, currentUserId(c), seriesId, on))) throw new AppError('NOT_EXIST')
  c.header('Cache-Control', 'private, no-store')
  return ok(c, { seriesId, favorite: on })
}

export const library = new Hono<AppEnv>()
  .post('/favorite/:seriesId', requireUser, (c) => toggle(c, true))
  .delete('/favorite/:seriesId', requireUser, (c) => toggle(c, false))
