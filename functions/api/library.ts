/**
 * `/api/v1/library` (spec §2 detail favourite toggle, /library/recent): `POST /favorite/{seriesId}` adds a
 * published series to the signed-in reader's favourites, `DELETE` removes it; both idempotent, answering
 * `{seriesId, favorite}`. `GET /recent?cursor=` lists the series read lately with their progress.
 * Unknown or malformed ids are NOT_EXIST; cookie callers must be same-origin (global middleware).
 */
import { Hono, type Context } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { z } from 'zod'
import { decodeCursor, parseId } from '../../src/features/catalogue/catalogue.ts'
import { recentReads, setFavorite } from '../../src/features/library/library.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { audienceSees } from '../../src/features/age/age.ts'
import { audienceOf } from '../middleware/audience.ts'

const RecentQuery = z.object({ cursor: z.string().max(200).optional() })

async function toggle(c: Context<AppEnv>, on: boolean) {
  const seriesId = parseId(c.req.param('seriesId'))
  if (seriesId === null || !(await setFavorite(c.var.db, currentUserId(c), seriesId, on))) throw new AppError('NOT_EXIST')
  return ok(c, { seriesId, favorite: on })
}

export const library = new Hono<AppEnv>()
  .post('/favorite/:seriesId', requireUser, (c) => toggle(c, true))
  .delete('/favorite/:seriesId', requireUser, (c) => toggle(c, false))
  // Spec §2 /library/recent: series read lately with the position reached, the same on every device.
  .get('/recent', requireUser, validate('query', RecentQuery), async (c) => {
    const raw = c.req.valid('query').cursor
    const cursor = raw === undefined ? null : decodeCursor(raw, 'newest')
    if (raw !== undefined && cursor === null) throw new AppError('INVALID_PARAMETER', { fields: 'cursor' })
    return ok(c, await recentReads(c.var.db, currentUserId(c), audienceSees(await audienceOf(c)), cursor))
  })
