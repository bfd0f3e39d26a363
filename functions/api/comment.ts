/**
 * `/api/v1/comment` (spec §7 comment, reaction, reply, block-user; §5 rules; §6 login to post):
 * - `GET /?contentsId=&episodeId=&sort=newest|best&cursor=` one page of comments (guests may read);
 * - `GET /{id}/reply?after=` the replies of a comment; `GET /my?cursor=` the reader's own comments;
 * - `POST /` `{contentsId, episodeId?, parentId?, text}` posts a comment or a reply; `DELETE /{id}` deletes one's own;
 * - `POST /{id}/reaction` `{kind: LIKE|DISLIKE|REPORT}`; `POST /block-user` `{userId}`, `DELETE /block-user/{userId}`.
 * `/web/*` are the plain forms of the /comment pages (no JavaScript needed): same Origin only, 303 back to
 * the page with `?error=CODE` (and `reason`/`word` for a refused text) or the posted comment's anchor.
 */
import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { z, type ZodType } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { formatDateTime } from '../../src/lib/i18n/dates.ts'
import { parseId, RowIdText } from '../../src/lib/ids.ts'
import { loginRedirect } from '../../src/features/session/routes.ts'
import { NOT_LOGGED_IN_ADULT_COOKIE } from '../../src/features/age/age.ts'
import { BlockBody, decodeCursor, ListQuery, PostBody, ReactionBody } from '../../src/features/comment/comment.ts'
import {
  blockUser,
  CommentBlockedError,
  commentScope,
  CommentTextError,
  deleteComment,
  listComments,
  listReplies,
  myComments,
  postComment,
  react,
  unblockUser,
  type Viewer,
} from '../../src/features/comment/comment.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok, refusal } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { formRoute, type RawForm } from './forms.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'

const viewerOf = (c: Context<AppEnv>): Viewer => ({
  userId: c.get('session')?.userId ?? null,
  adultCookie: getCookie(c, NOT_LOGGED_IN_ADULT_COOKIE),
})
const idParam = (c: Context<AppEnv>, name: string) => {
  const id = parseId(c.req.param(name))
  if (id === null) throw new AppError('NOT_EXIST')
  return id
}

/** A refused text keeps code INVALID_PARAMETER; its message is the spec §5 one (empty, too long, the word). */
function textError(c: Context<AppEnv>, e: CommentTextError) {
  const t = c.get('t')
  const message =
    e.check.reason === 'BANNED'
      ? t('community.comment.banned', { word: e.check.word })
      : t(`community.comment.${e.check.reason === 'EMPTY' ? 'empty' : 'tooLong'}`)
  return refusal(c, 'INVALID_PARAMETER', message, {
    reason: e.check.reason,
    ...(e.check.reason === 'BANNED' ? { word: e.check.word } : {}),
  })
}

/** A reader blocked from commenting (issue 39 point 7): UNAUTHORIZED_USER with until when and the operator's reason. */
function blockedError(c: Context<AppEnv>, e: CommentBlockedError) {
  const message = c.var.t('community.comment.ban.refused', { date: formatDateTime(e.ban.until, c.var.edition), reason: e.ban.reason })
  return refusal(c, 'UNAUTHORIZED_USER', message, { reason: 'COMMENT_BLOCKED', until: e.ban.until, blockReason: e.ban.reason })
}

const field = (raw: Record<string, unknown>, name: string) => (typeof raw[name] === 'string' ? (raw[name] as string) : '')

/** The /comment page a form came from, rebuilt from its own fields (never a free URL). */
function pageOf(raw: Record<string, unknown>, extra: Record<string, string> = {}, hash = '') {
  if (field(raw, 'from') === 'my') return `/comment/my?${new URLSearchParams(extra)}${hash}`
  const q = new URLSearchParams()
  const contentsId = parseId(field(raw, 'contentsId'))
  const episodeId = parseId(field(raw, 'episodeId'))
  if (contentsId === null) return `/comment/my?${new URLSearchParams(extra)}`
  q.set('contentsId', String(contentsId))
  if (episodeId !== null) q.set('episodeId', String(episodeId))
  if (field(raw, 'sort') === 'best') q.set('sort', 'best')
  for (const [k, v] of Object.entries(extra)) q.set(k, v)
  return `/comment?${q}${hash}`
}

/**
 * A plain form of the /comment pages: guest → login (back to the page), refusals → the page with the code (a
 * refused text with its reason and word, on the form), success → `done` on the page the form came from.
 */
function commentForm<S extends ZodType, R>(
  schema: S,
  run: (data: z.infer<S>, c: Context<AppEnv>) => Promise<R>,
  done: (raw: RawForm, result: R, c: Context<AppEnv>) => string,
) {
  return formRoute({
    schema,
    guest: (raw, c) => loginRedirect(new URL(pageOf(raw), c.req.url)) ?? '/user/login',
    run,
    done: (_data, result, c, raw) => done(raw, result, c),
    failed: (code, raw, details) =>
      typeof details?.reason === 'string'
        ? pageOf(
            raw,
            {
              error: code,
              reason: details.reason,
              ...(typeof details.word === 'string' ? { word: details.word } : {}),
              ...(field(raw, 'parentId') ? { replyTo: field(raw, 'parentId') } : {}),
            },
            '#comment-form',
          )
        : pageOf(raw, { error: code }, '#comment-status'),
  })
}

const NoFields = z.object({})
const ReplyQuery = z.object({ after: z.coerce.number().int().min(0).max(2_147_483_647).optional() })
const MyQuery = z.object({
  cursor: RowIdText.optional(),
})

export const comment = new Hono<AppEnv>()
  .get('/', validate('query', ListQuery), async (c) => {
    const q = c.req.valid('query')
    const cursor = q.cursor === undefined ? null : decodeCursor(q.cursor, q.sort)
    if (q.cursor !== undefined && cursor === null) throw new AppError('INVALID_PARAMETER', { fields: 'cursor' })
    const viewer = viewerOf(c)
    const scope = await commentScope(c.var.db, c.var.edition, viewer, q.contentsId, q.episodeId)
    return ok(c, await listComments(c.var.db, scope, viewer.userId, q.sort, cursor))
  })
  .get('/:id/reply', validate('query', ReplyQuery), async (c) => {
    return ok(c, await listReplies(c.var.db, c.var.edition, viewerOf(c), idParam(c, 'id'), c.req.valid('query').after ?? 0))
  })
  // ── plain forms of /comment and /comment/my ──
  .post(
    '/web/post',
    ...commentForm(
      PostBody,
      (data, c) => postComment(c.var.db, c.var.edition, currentUserId(c), data),
      (raw, posted) => pageOf(raw, { posted: String(posted.id) }, `#c${posted.id}`),
    ),
  )
  .post(
    '/web/delete/:id',
    ...commentForm(
      NoFields,
      (_data, c) => deleteComment(c.var.db, currentUserId(c), idParam(c, 'id')),
      (raw) => pageOf(raw, { deleted: '1' }, '#comment-status'),
    ),
  )
  .post(
    '/web/reaction/:id',
    ...commentForm(
      ReactionBody,
      async (data, c) => {
        await react(c.var.db, c.var.edition, currentUserId(c), idParam(c, 'id'), data.kind)
        return data.kind
      },
      (raw, kind, c) => pageOf(raw, kind === 'REPORT' ? { reported: '1' } : {}, `#c${idParam(c, 'id')}`),
    ),
  )
  .post(
    '/web/block/:userId',
    ...commentForm(
      NoFields,
      (_data, c) => blockUser(c.var.db, currentUserId(c), idParam(c, 'userId')),
      (raw) => pageOf(raw, { blocked: '1' }, '#comment-status'),
    ),
  )
  .post(
    '/web/unblock/:userId',
    ...commentForm(
      NoFields,
      (_data, c) => unblockUser(c.var.db, currentUserId(c), idParam(c, 'userId')),
      (raw) => pageOf(raw, { unblocked: '1' }, '#blocked'),
    ),
  )
  // members only below (the forms above send a guest to log in instead)
  .use(requireUser)
  .get('/my', validate('query', MyQuery), async (c) => {
    const cursor = c.req.valid('query').cursor
    return ok(c, await myComments(c.var.db, currentUserId(c), cursor ?? null))
  })
  .post('/', validate('json', PostBody), async (c) => {
    try {
      return ok(c, await postComment(c.var.db, c.var.edition, currentUserId(c), c.req.valid('json')), 201)
    } catch (e) {
      if (e instanceof CommentTextError) return textError(c, e)
      if (e instanceof CommentBlockedError) return blockedError(c, e)
      throw e
    }
  })
  .delete('/:id', async (c) => ok(c, await deleteComment(c.var.db, currentUserId(c), idParam(c, 'id'))))
  .post('/:id/reaction', validate('json', ReactionBody), async (c) =>
    ok(c, await react(c.var.db, c.var.edition, currentUserId(c), idParam(c, 'id'), c.req.valid('json').kind)),
  )
  .post('/block-user', validate('json', BlockBody), async (c) => {
    const target = c.req.valid('json').userId
    await blockUser(c.var.db, currentUserId(c), target)
    return ok(c, { userId: target, blocked: true })
  })
  .delete('/block-user/:userId', async (c) => {
    const target = idParam(c, 'userId')
    await unblockUser(c.var.db, currentUserId(c), target)
    return ok(c, { userId: target, blocked: false })
  })
