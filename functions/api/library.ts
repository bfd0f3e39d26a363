/**
 * `/api/v1/library` (spec §2 detail favourite toggle, /library/recent): `POST /favorite/{seriesId}` adds a
 * published series to the signed-in reader's favourites, `DELETE` removes it; both idempotent, answering
 * `{seriesId, favorite}`. `GET /recent?cursor=` lists the series read lately with their progress.
 * Unknown or malformed ids are NOT_EXIST; cookie callers must be same-origin (global middleware).
 *
 * Discreet library (issue 12 point 5): `POST /hidden` `{seriesId, hidden}` keeps a published series out of the
 * reader's own lists, or brings it back (repeatable) → `{seriesId, hidden}`; `POST /web/hide` and `/web/show`
 * (fields `seriesId`, `from`) are the library pages' plain forms, 303 back to the page they came from.
 */
import { Hono, type Context } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { z } from 'zod'
import { decodeCursor } from '../../src/features/catalogue/catalogue.ts'
import { parseId } from '../../src/lib/ids.ts'
import { markSeries, recentReads } from '../../src/features/library/library.server.ts'
import { FromPage, HiddenRequest, libraryPageAfter } from '../../src/features/library/hidden.ts'
import { formRoute, fromForm, toLogin } from './forms.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { audienceSees } from '../../src/features/age/age.ts'
import { audienceOf } from '../middleware/audience.ts'

const RecentQuery = z.object({ cursor: z.string().max(200).optional() })

async function hide(c: Context<AppEnv>, { seriesId, hidden }: { seriesId: number; hidden: boolean }) {
  if (!(await markSeries(c.var.db, currentUserId(c), seriesId, 'hidden', hidden))) throw new AppError('NOT_EXIST')
  return { seriesId, hidden }
}

/** The library pages' hide and show forms (no JavaScript needed): back to the page, or its `?error=`. */
const hideForm = (hidden: boolean) =>
  formRoute({
    schema: fromForm(HiddenRequest.omit({ hidden: true }).extend(FromPage.shape)),
    guest: toLogin('/library/my'),
    run: (data, c) => hide(c, { seriesId: data.seriesId, hidden }),
    done: (data) => libraryPageAfter(data.from, hidden ? { hidden: data.seriesId } : { shown: true }),
    failed: (code, raw) => libraryPageAfter(raw.from, { error: code }),
  })

async function toggle(c: Context<AppEnv>, on: boolean) {
  const seriesId = parseId(c.req.param('seriesId'))
  if (seriesId === null || !(await markSeries(c.var.db, currentUserId(c), seriesId, 'favorite', on))) throw new AppError('NOT_EXIST')
  return ok(c, { seriesId, favorite: on })
}

export const library = new Hono<AppEnv>()
  .post('/web/hide', ...hideForm(true))
  .post('/web/show', ...hideForm(false))
  // members only below (the forms above send a guest to log in instead)
  .use(requireUser)
  .post('/favorite/:seriesId', (c) => toggle(c, true))
  .delete('/favorite/:seriesId', (c) => toggle(c, false))
  .post('/hidden', validate('json', HiddenRequest), async (c) => ok(c, await hide(c, c.req.valid('json'))))
  // Spec §2 /library/recent: series read lately with the position reached, the same on every device.
  .get('/recent', validate('query', RecentQuery), async (c) => {
    const raw = c.req.valid('query').cursor
    const cursor = raw === undefined ? null : decodeCursor(raw, 'newest')
    if (raw !== undefined && cursor === null) throw new AppError('INVALID_PARAMETER', { fields: 'cursor' })
    return ok(c, await recentReads(c.var.db, currentUserId(c), audienceSees(await audienceOf(c)), cursor))
  })
