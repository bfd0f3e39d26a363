/**
 * `GET /api/v1/contents?tab=&day=&cursor=&size=` (docs/API.md): one page of a home tab (spec §3);
 * `GET /api/v1/contents/{id}`: the series detail with the reader's ownership of each episode (null for a guest);
 * `GET /api/v1/contents/{id}/me`: the signed-in reader's part only (ownerships, favourite, continue reading, the
 * series' wait-until-free ticket: `freetime: null | {hours, available, availableAt}`); `GET /api/v1/contents/creators/{id}`: a
 * creator's series by role.
 * Malformed or unknown ids are NOT_EXIST (404).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { creatorWorks, listContents, seriesDetail, seriesExists } from '../../src/features/catalogue/catalogue.server.ts'
import { MAX_CURSOR_LENGTH, resolveContents, homeToday } from '../../src/features/catalogue/catalogue.ts'
import { parseId, RowId } from '../../src/lib/ids.ts'
import { seriesMe, seriesOwnerships } from '../../src/features/library/library.server.ts'
import { adultGate, audienceSees, isSignedInClass } from '../../src/features/age/age.ts'
import { audienceOf } from '../middleware/audience.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { followCreator, followingCreator } from '../../src/features/library/follow.server.ts'
import { field, formRoute, fromForm, toLogin } from './forms.ts'

const ContentsQuery = z.object({
  tab: z.string().max(20).optional(),
  day: z.string().max(20).optional(),
  cursor: z.string().max(MAX_CURSOR_LENGTH).optional(),
  size: z.string().max(3).optional(),
})

/** `GET /{id}/me`, members only: the signed-in reader's part of the series. */
const readerPart = new Hono<AppEnv>().use(requireUser).get('/', async (c) => {
  const me = await seriesMe(c.var.db, currentUserId(c), seriesIdOf(c))
  if (!me) throw new AppError('NOT_EXIST')
  return ok(c, me)
})

/** `/creators/{id}/…`, members only (issue 37 point 2): whether the reader follows the creator; follow or stop (repeatable). */
const creatorPart = new Hono<AppEnv>()
  .use(requireUser)
  .get('/me', async (c) => ok(c, await followingCreator(currentUserId(c), creatorIdOf(c))))
  .put('/follow', async (c) => ok(c, await followCreator(c.var.db, currentUserId(c), creatorIdOf(c), true)))
  .delete('/follow', async (c) => ok(c, await followCreator(c.var.db, currentUserId(c), creatorIdOf(c), false)))

/** The follow form: the creator, and `follow` 1 to follow, 0 to stop. */
const FollowForm = z.object({ creatorId: RowId, follow: z.enum(['0', '1']) })
/** The creator page a follow form names (with the answer or the refusal), or home for a form that names none. */
const creatorBack = (raw: Record<string, unknown>, query: string) => {
  const id = parseId(field(raw, 'creatorId'))
  return id === null ? '/' : `/creator/${id}${query}#follow`
}

export const contents = new Hono<AppEnv>()
  // the follow button without JavaScript: back to the creator's page, which says what changed; a guest signs in first
  .post(
    '/web/follow',
    ...formRoute({
      schema: fromForm(FollowForm),
      guest: (raw, c) => toLogin(creatorBack(raw, ''))(raw, c),
      run: (data, c) => followCreator(c.var.db, currentUserId(c), data.creatorId, data.follow === '1'),
      done: (_data, done, _c, raw) => creatorBack(raw, `?following=${done.following ? 1 : 0}`),
      failed: (code, raw) => creatorBack(raw, `?error=${code}`),
    }),
  )
  .get('/', validate('query', ContentsQuery), async (c) => {
    const edition = c.get('edition')
    const audience = audienceSees(await audienceOf(c))
    const resolved = resolveContents(c.req.valid('query'), audience, homeToday(edition.timeZone))
    if (!resolved.ok) throw new AppError(resolved.code, resolved.field ? { fields: resolved.field } : undefined)
    return ok(c, await listContents(c.get('db'), resolved.request, audience))
  })
  // issue 37 point 2: a creator and their series the reader's audience may see, by role
  .get('/creators/:id', async (c) => {
    const id = parseId(c.req.param('id'))
    const creator = id === null ? null : await creatorWorks(c.var.db, id, audienceSees(await audienceOf(c)))
    if (!creator) throw new AppError('NOT_EXIST')
    return ok(c, creator)
  })
  .route('/creators/:id', creatorPart)
  .get('/:id', async (c) => {
    const id = seriesIdOf(c)
    const userId = c.get('session')?.userId ?? null
    const audience = await audienceOf(c)
    const [series, owned] = await Promise.all([
      seriesDetail(c.var.db, id, audienceSees(audience), isSignedInClass(audience)),
      userId === null ? null : seriesOwnerships(c.var.db, userId, id),
    ])
    if (!series) throw new AppError((await seriesExists(c.var.db, id)) ? 'INVALID_CONTENTS' : 'NOT_EXIST') // spec §8 detail errors
    if (series.isAdult && adultGate(c.var.edition, audience) !== 'open') throw new AppError('ADULT_ONLY_CONTENTS')
    const { episodes, ...rest } = series
    return ok(c, {
      ...rest,
      episodes: episodes.map(({ priceRent, priceBuy, ...e }) => ({
        ...e,
        price: { rent: priceRent, buy: priceBuy },
        ownership: owned?.get(e.id) ?? null,
      })),
    })
  })
  .route('/:id/me', readerPart)

function creatorIdOf(c: Context<AppEnv>): number {
  const id = parseId(c.req.param('id'))
  if (id === null) throw new AppError('NOT_EXIST')
  return id
}

function seriesIdOf(c: Context<AppEnv>): number {
  const id = parseId(c.req.param('id'))
  if (id === null) throw new AppError('NOT_EXIST')
  return id
}
