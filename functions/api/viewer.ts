/**
 * `/api/v1/viewer` (spec §2 viewer, §8 Viewer errors): open an episode (which signs its slice URLs), serve a
 * signed slice without a query, save reading progress, keep the reader's automatic-unlock opt-in per series.
 * Unknown or malformed episode ids are NOT_FOUND_EPISODE; bad query or body fields INVALID_PARAMETER.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { NOT_LOGGED_IN_ADULT_COOKIE } from '../../src/features/catalogue/catalogue.ts'
import { parseId, RowId } from '../../src/lib/ids.ts'
import { AutoUnlockRequest, ProgressRequest, SLICE_URL_MAX_S, sliceWidth } from '../../src/features/viewer/viewer.ts'
import {
  clearAutoUnlock,
  getAutoUnlock,
  openEpisode,
  saveProgress,
  setAutoUnlock,
  sliceObject,
  type ViewerReader,
} from '../../src/features/viewer/viewer.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { membersOnly } from '../lib/openapi.ts'
import { ok } from '../lib/respond.ts'
import { likeEpisode } from '../../src/features/like/like.server.ts'
import { field, formRoute, fromForm, toLogin } from './forms.ts'
import { validate } from '../lib/validate.ts'
import {
  checksSessionItself,
  credentialHolder,
  currentSession,
  currentUserId,
  readsCredentialItself,
  requireUser,
} from '../middleware/session.ts'

const SliceQuery = z.object({
  w: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional(),
  exp: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  k: z.string().max(512).optional(),
  sig: z.string().max(64).optional(),
  r: z.string().max(8).optional(), // retry counter of the viewer (a fresh URL after a failed load)
})

function episodeIdOf(c: Context<AppEnv>): number {
  const id = parseId(c.req.param('episodeId'))
  if (id === null) throw new AppError('NOT_FOUND_EPISODE')
  return id
}

/** The reader, with the access token's session claim that `openEpisode` checks in its own read. */
function readerOf(c: Context<AppEnv>): ViewerReader {
  const state = c.get('session')
  return { userId: state.userId, adultCookie: getCookie(c, NOT_LOGGED_IN_ADULT_COOKIE), session: state.userId === null ? undefined : state }
}

/**
 * `navigator.sendBeacon` cannot set headers: a string body travels as text/plain. That body is read as the JSON it
 * must be (then validated like any other); a cookie-authenticated one from another Origin was already refused
 * (FORBIDDEN_ORIGIN, functions/middleware/same-origin.ts), as for every write.
 */
const beaconJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (/^text\/plain\s*(;|$)/i.test(c.req.header('content-type') ?? '')) {
    const headers = new Headers(c.req.raw.headers)
    headers.set('content-type', 'application/json')
    c.req.raw = new Request(c.req.raw, { headers })
  }
  await next()
}

/** requireUser for the viewer's own calls: credentials that were sent but refused end the viewer session, as on an episode. */
const requireReader = membersOnly(
  createMiddleware<AppEnv>(async (c, next) => {
    const state = c.get('session')
    if (state.userId === null && state.error !== null)
      throw new AppError(state.error === 'NEED_TO_REFRESH' ? 'NEED_TO_REFRESH' : 'NOT_FOUND_ACCESS_TOKEN')
    return requireUser(c, next)
  }),
)

/** The like form: the episode, and `liked` 1 to like it, 0 to stop. */
const LikeForm = z.object({ episodeId: RowId, liked: z.enum(['0', '1']) })
/** The end of the episode a like form names (with the refusal's code), where the reader comes back to. */
const likeBack = (raw: Record<string, unknown>, error?: string) => {
  const id = parseId(field(raw, 'episodeId'))
  return id === null ? '/' : `/viewer/${id}${error ? `?error=${error}` : ''}#like-${id}`
}

function seriesIdOf(c: Context<AppEnv>): number {
  const id = parseId(c.req.param('seriesId'))
  if (id === null) throw new AppError('NOT_EXIST')
  return id
}

/**
 * `/auto-unlock/{seriesId}`, continuous reading (spec §1): the reader's opt-in to automatic unlocks of a series, with
 * its coin cap. Read when a signed-in reader reaches a locked episode (which is not fetched), so a session ended
 * elsewhere is told there (spec §8 NOT_FOUND_ACCESS_TOKEN → logout). Members only, through `requireReader`.
 */
const autoUnlock = new Hono<AppEnv>()
  .use(requireReader)
  .get('/:seriesId', async (c) => ok(c, await getAutoUnlock(c.var.db, currentUserId(c), seriesIdOf(c))))
  .put('/:seriesId', validate('json', AutoUnlockRequest), async (c) =>
    ok(c, await setAutoUnlock(c.var.db, currentUserId(c), seriesIdOf(c), c.req.valid('json'))),
  )
  .delete('/:seriesId', async (c) => ok(c, await clearAutoUnlock(c.var.db, currentUserId(c), seriesIdOf(c))))

export const viewer = new Hono<AppEnv>()
  // the session version is checked in openEpisode's own read (no round trip of its own): an ended session gets no slice URL
  .get('/:episodeId', checksSessionItself, async (c) => {
    const episodeId = episodeIdOf(c)
    const state = c.get('session')
    const episode = await openEpisode(c.var.db, episodeId, readerOf(c), c.var.edition).catch((e: unknown) => {
      // an ended browser session signs the viewer out (spec §8 NOT_FOUND_ACCESS_TOKEN → logout); an app refreshes first
      const cookie = state.userId !== null && state.source === 'cookie'
      throw e instanceof AppError && e.code === 'NEED_TO_REFRESH' && cookie ? new AppError('NOT_FOUND_ACCESS_TOKEN') : e
    })
    if (!episode) throw new AppError('NOT_FOUND_EPISODE')
    if (!episode.access.open) throw new AppError(episode.access.code === 'UNAUTHORIZED_CONTENTS' ? readerCode(c) : episode.access.code)
    return ok(c, episode)
  })
  // served on the URL's signature and the caller's credential alone: no D1 statement (docs/ARCHITECTURE.md "Slices")
  .get('/:episodeId/slice/:n', readsCredentialItself, validate('query', SliceQuery), async (c) => {
    const episodeId = episodeIdOf(c)
    const n = parseId(c.req.param('n'))
    const q = c.req.valid('query')
    const w = sliceWidth(q.w === undefined ? 640 : Number(q.w))
    if (n === null || n > 10_000 || w === null) throw new AppError('INVALID_PARAMETER', { fields: n === null ? 'n' : 'w' })
    // a credential still names its reader SLICE_URL_MAX_S after its access token expired: the URL itself expires by then
    // (credentials that were sent but refused end the viewer session: NOT_FOUND_ACCESS_TOKEN → logout)
    const holder = await credentialHolder(c, SLICE_URL_MAX_S)
    if (holder.userId === null && holder.error !== null)
      throw new AppError(holder.error === 'NEED_TO_REFRESH' ? 'NEED_TO_REFRESH' : 'NOT_FOUND_ACCESS_TOKEN')
    const req = { episodeId, n, w, key: q.k ?? null, exp: q.exp === undefined ? null : Number(q.exp), sig: q.sig ?? null }
    const object = await sliceObject(req, holder.userId)
    if (!object) throw new AppError('NOT_FOUND_EPISODE')
    const headers = new Headers()
    object.writeHttpMetadata(headers)
    if (!headers.has('content-type')) headers.set('Content-Type', 'image/webp')
    headers.set('ETag', object.httpEtag)
    headers.set('Cache-Control', `private, max-age=${Math.max(0, req.exp! - Math.floor(Date.now() / 1000))}`)
    headers.set('Cross-Origin-Resource-Policy', 'same-origin')
    return new Response(object.body, { headers })
  })
  // after the open routes: `GET /auto-unlock` stays an (unknown) episode, as before
  .route('/auto-unlock', autoUnlock)
  // the like button without JavaScript (issue 37 point 3): back to the episode's end, a guest to sign in first
  .post(
    '/web/like',
    ...formRoute({
      schema: fromForm(LikeForm),
      guest: (raw, c) => toLogin(likeBack(raw))(raw, c),
      run: (data, c) => likeEpisode(c.var.db, currentSession(c), data.episodeId, data.liked === '1', c.var.edition),
      done: (_data, _liked, _c, raw) => likeBack(raw),
      failed: (code, raw) => likeBack(raw, code),
    }),
  )
  // members only below (the routes above are open, or guarded by requireReader)
  .use(requireUser)
  // one D1 statement per save, the session check included (saveProgress); the viewer's beacon sends text/plain
  .post('/:episodeId/progress', checksSessionItself, beaconJson, validate('json', ProgressRequest), async (c) => {
    const episodeId = episodeIdOf(c)
    const session = currentSession(c)
    return ok(c, await saveProgress(c.var.db, session.userId, episodeId, c.req.valid('json').position, c.var.edition, session))
  })
  // issue 37 point 3: like an episode, or stop liking it (repeatable: the same state again changes nothing)
  .put('/:episodeId/like', checksSessionItself, async (c) =>
    ok(c, await likeEpisode(c.var.db, currentSession(c), episodeIdOf(c), true, c.var.edition)),
  )
  .delete('/:episodeId/like', checksSessionItself, async (c) =>
    ok(c, await likeEpisode(c.var.db, currentSession(c), episodeIdOf(c), false, c.var.edition)),
  )

/** A locked episode: a reader whose credentials were refused is told to sign in again, others that it is locked. */
function readerCode(c: Context<AppEnv>): 'UNAUTHORIZED_CONTENTS' | 'NOT_FOUND_ACCESS_TOKEN' {
  const state = c.get('session')
  return state.userId === null && state.error !== null ? 'NOT_FOUND_ACCESS_TOKEN' : 'UNAUTHORIZED_CONTENTS'
}
