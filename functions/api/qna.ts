/**
 * `/api/v1/qna` (spec §2 /qna and /qna/register, §7 qna, §8 LIMIT_QNA_COUNT; login required):
 * `GET /?cursor=` the reader's questions with their status (WAIT, COMPLETED) and answers;
 * `POST /` `{category, title, text}` files one (receipt mail); `GET /{id}/image/{n}` an attached image (author only). `POST /web/register` is the plain form of
 * /qna/register (multipart, up to 3 images of 3 MB, spec §5): same Origin only, 303 to /qna?sent=ID or back to the
 * form with `?error=CODE` (what was typed in the flash). `POST /report` `{episodeId, problem, text?}` reports a problem
 * with an episode (issue 37 point 4: a question naming the episode, the problem and the reader's device; one per episode
 * a day, 10 a day); `POST /web/report` is the plain form of /qna/report, back to it with `?error=CODE`.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { env } from 'cloudflare:workers'
import { deviceOf, MAX_IMAGE_BYTES, QnaBody, ReportBody } from '../../src/features/qna/qna.ts'
import { myQnas, qnaImageKey, reportEpisode, submitQna, type Upload } from '../../src/features/qna/qna.server.ts'
import { parseId, RowIdText } from '../../src/lib/ids.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok, storedImage } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { field, formRoute, fromForm, toLogin } from './forms.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'

const ctxOf = (c: Context<AppEnv>) => ({
  timeZone: c.var.edition.timeZone,
  t: c.var.t,
  siteUrl: c.var.edition.siteUrl,
  media: (env as unknown as { MEDIA?: R2Bucket }).MEDIA,
})

const reportCtx = (c: Context<AppEnv>) => ({ edition: c.var.edition, t: c.var.t, device: deviceOf(c.req.header('User-Agent')) })
/** The report page of the episode a form names (its id only when it is one). */
const reportPage = (raw: Record<string, unknown>) => `/qna/report?episodeId=${parseId(field(raw, 'episodeId')) ?? ''}`

/** The `images` files of a multipart form (spec §5: checked by submitQna); an oversized file is not read. */
async function uploadsOf(raw: { images?: unknown }): Promise<Upload[] | null> {
  const value = raw.images
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value]
  if (list.some((f) => typeof f === 'string' && f !== '')) return null
  const files = list.filter((f): f is File => f instanceof File)
  if (files.length > 3) return null
  return Promise.all(
    files.map(async (f) => ({ size: f.size, bytes: f.size <= MAX_IMAGE_BYTES ? new Uint8Array(await f.arrayBuffer()) : new Uint8Array() })),
  )
}
/** The /qna/register form: the JSON route's fields and up to 3 `images` (checked by `uploadsOf`). */
const QnaForm = QnaBody.extend({ images: z.unknown().optional() })
const ListQuery = z.object({
  cursor: RowIdText.optional(),
})

export const qna = new Hono<AppEnv>()
  .post(
    '/web/register',
    ...formRoute({
      schema: QnaForm,
      guest: toLogin('/qna/register'),
      run: async (data, c) => {
        const uploads = await uploadsOf(data)
        if (uploads === null) throw new AppError('INVALID_PARAMETER', { fields: 'images' })
        return submitQna(c.var.db, currentUserId(c), data, ctxOf(c), new Date(), uploads)
      },
      done: (_data, sent) => `/qna?sent=${sent.id}#q${sent.id}`,
      // what the reader typed comes back through the flash (the text server-side: too long for a cookie), never the URL
      keep: ['category', 'title'],
      keepText: ['text'],
      failed: (code) => `/qna/register?error=${code}`,
    }),
  )
  .post(
    '/web/report',
    ...formRoute({
      schema: fromForm(ReportBody),
      guest: (raw, c) => toLogin(reportPage(raw))(raw, c),
      run: (data, c) => reportEpisode(c.var.db, currentUserId(c), data, reportCtx(c)),
      done: (_data, sent) => `/qna?sent=${sent.id}#q${sent.id}`,
      keep: ['problem'],
      keepText: ['text'],
      failed: (code, raw) => `${reportPage(raw)}&error=${code}`,
    }),
  )
  // members only below (the forms above send a guest to log in instead)
  .use(requireUser)
  .get('/', validate('query', ListQuery), async (c) => {
    const cursor = c.req.valid('query').cursor
    return ok(c, await myQnas(c.var.db, currentUserId(c), cursor ?? null))
  })
  .post('/', validate('json', QnaBody), async (c) => ok(c, await submitQna(c.var.db, currentUserId(c), c.req.valid('json'), ctxOf(c)), 201))
  .post('/report', validate('json', ReportBody), async (c) =>
    ok(c, await reportEpisode(c.var.db, currentUserId(c), c.req.valid('json'), reportCtx(c)), 201),
  )
  /** An image of the reader's own question (spec §5 attachments); anyone else's is NOT_EXIST. */
  .get('/:id/image/:n', async (c) => {
    const id = parseId(c.req.param('id'))
    const n = Number(c.req.param('n'))
    const key = id === null || !/^[1-3]$/.test(c.req.param('n')) ? null : await qnaImageKey(c.var.db, currentUserId(c), id, n)
    return storedImage(key ? await ctxOf(c).media?.get(key) : null)
  })
