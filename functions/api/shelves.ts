/**
 * Spec §2 library shelves (mounted under `/api/v1/library`, signed-in readers only):
 *
 * - `GET /my?cursor=` → `{items:[{seriesId, title, coverKey, coverWidth, coverHeight, lastAt, nextExpiry,
 *   episodes:[{episodeId, no, title, kind, expiresAt}]}], next}` — owned and rented (unexpired) episodes by series.
 * - `GET /favorite?cursor=` → `{items:[{seriesId, title, coverKey, coverWidth, coverHeight, favoritedAt}], next}`.
 * - `GET /hidden?cursor=` → `{items:[{seriesId, title, coverKey, coverWidth, coverHeight, hiddenAt}], next}` — the
 *   series the reader hid (issue 12 point 5), which the other lists leave out.
 *
 * A malformed cursor is 400 INVALID_PARAMETER.
 */
import { Hono } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { decodeCursor, type Cursor } from '../../src/features/catalogue/catalogue.ts'
import { ShelfQuery } from '../../src/features/library/shelves.ts'
import { favoriteShelf, hiddenShelf, ownedShelf } from '../../src/features/library/shelves.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { audienceSees } from '../../src/features/age/age.ts'
import { audienceOf } from '../middleware/audience.ts'

function cursorOf(raw: string | undefined): Cursor | null {
  if (raw === undefined) return null
  const cursor = decodeCursor(raw, 'newest')
  if (!cursor) throw new AppError('INVALID_PARAMETER', { fields: 'cursor' })
  return cursor
}

export const shelves = new Hono<AppEnv>()
  .use(requireUser)
  .get('/my', validate('query', ShelfQuery), async (c) => {
    const page = await ownedShelf(c.var.db, currentUserId(c), audienceSees(await audienceOf(c)), cursorOf(c.req.valid('query').cursor))
    return ok(c, page)
  })
  .get('/favorite', validate('query', ShelfQuery), async (c) => {
    const page = await favoriteShelf(c.var.db, currentUserId(c), audienceSees(await audienceOf(c)), cursorOf(c.req.valid('query').cursor))
    return ok(c, page)
  })
  .get('/hidden', validate('query', ShelfQuery), async (c) => {
    const page = await hiddenShelf(c.var.db, currentUserId(c), audienceSees(await audienceOf(c)), cursorOf(c.req.valid('query').cursor))
    return ok(c, page)
  })
