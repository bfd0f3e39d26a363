/**
 * The operator API (docs/API.md "Operator API", docs/ARCHITECTURE.md `/api/ops/*`): `Authorization: Bearer $OPS_TOKEN`
 * (the operator root) or a live named operator token (issue 39 point 5: `operators`, managed by root alone).
 * Off when the OPS_TOKEN binding is unset or empty: every path then answers 404 NOT_EXIST, as if the API did
 * not exist. A missing or wrong token answers 401 NOT_LOGIN_USER (the catalogue's "authenticate first" code).
 * Every change is recorded in the audit trail (`ops_audit`, `GET /audit`) with its operator, reason, before and after.
 * The same actions are available as `npm run ops -- …` (scripts/ops.ts).
 */
import { isStrongOpsToken, OpsListQuery, OpsReasonRequest } from '../../src/lib/ops.ts'
import { Hono, type Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { env } from 'cloudflare:workers'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { isLocalRun } from '../../src/lib/server/local-run.ts'
import { timingSafeEqual } from '../../src/lib/server/password.ts'
import { countAttempt, takeBackAttempt } from '../../src/features/auth/auth.server.ts'
import { clientIp } from '../middleware/session.ts'
import { AdminAdjustRequest, WalletReportQuery } from '../../src/features/wallet/wallet.schema.ts'
import { adminAdjust, userIdByEmail, walletReport } from '../../src/features/wallet/wallet.server.ts'
import { DebtForgiveRequest } from '../../src/features/payment/payment.ts'
import { forgiveDebts, openDebts, opsPayment, opsRefund } from '../../src/features/payment/payment.server.ts'
import { AlarmBroadcastRequest } from '../../src/features/alarm/alarm.ts'
import { broadcastReach, publishEpisode, sendBroadcast } from '../../src/features/alarm/alarm.server.ts'
import { RowIdText } from '../../src/lib/ids.ts'
import { CannedName, CannedReplyRequest, CannedSetRequest, QnaAnswerRequest, QnaSearchQuery } from '../../src/features/qna/qna.ts'
import {
  answerQna,
  cannedReplies,
  cannedReply,
  editQnaAnswer,
  qnaImageKey,
  searchQnas,
  setCannedReply,
  supportQna,
  waitingQnas,
} from '../../src/features/qna/qna.server.ts'
import { NoticeEditRequest, NoticePinRequest, NoticePublishRequest } from '../../src/features/notice/notice.ts'
import { editNotice, listOpsNotices, pinNotice, publishNotice, unpublishNotice } from '../../src/features/notice/notice.server.ts'
import { CouponCreateRequest } from '../../src/features/coupon/coupon.ts'
import { couponReaders, couponReport, createCoupon, expireCoupon } from '../../src/features/coupon/coupon.server.ts'
import {
  EarlyOpenRequest,
  EpisodeScheduleRequest,
  SeriesListQuery,
  SeriesScheduleRequest,
} from '../../src/features/catalogue/catalogue-ops.ts'
import { openEarly } from '../../src/features/catalogue/early.server.ts'
import {
  listOpsEpisodes,
  listOpsSeries,
  scheduleEpisode,
  setSeriesPublished,
  setSeriesSchedule,
  unpublishEpisode,
} from '../../src/features/catalogue/catalogue-ops.server.ts'
import { ReaderLookup } from '../../src/features/account/reader-ops.ts'
import { normalisePhone } from '../../src/features/account/account.ts'
import { endReaderSessions, readerReport } from '../../src/features/account/reader-ops.server.ts'
import { EventCreateRequest } from '../../src/features/event/event.ts'
import { createEvent, endEvent, listOpsEvents } from '../../src/features/event/event.server.ts'
import { BannerCreateRequest } from '../../src/features/catalogue/banner-ops.ts'
import {
  EpisodeAddRequest,
  MAX_IMPORT_OBJECT_BYTES,
  SeriesImportRequest,
  SliceReplaceRequest,
} from '../../src/features/catalogue/series-import.ts'
import {
  abortUpload,
  finishUpload,
  putUploadObject,
  refuseWhileUploading,
  startEpisodeAdd,
  startSliceReplace,
} from '../../src/features/catalogue/episode-upload.server.ts'
import {
  abortImport,
  finishImport,
  putImportObject,
  startImport,
  type ImportRefusal,
} from '../../src/features/catalogue/series-import.server.ts'
import { createBanner, endBanner, listOpsBanners } from '../../src/features/catalogue/banner-ops.server.ts'
import { AuditQuery, OperatorAddRequest, OperatorParam, ROOT_OPERATOR } from '../../src/features/operator/operator.ts'
import { addOperator, listOperators, operatorOfToken, revokeOperator } from '../../src/features/operator/operator.server.ts'
import { listAudit, recordAudit, snapshot, type SnapshotKind } from '../../src/features/operator/audit.server.ts'
import { CommentBlockRequest, ReportedQuery } from '../../src/features/comment/moderation.ts'
import { blockCommenter, listReported, moderateComment, unblockCommenter } from '../../src/features/comment/moderation.server.ts'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok, refusal, storedImage } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { AlertsQuery } from '../../src/features/operator/alerts.ts'
import { listAlerts } from '../../src/features/operator/alerts.server.ts'
import { DailyReportQuery } from '../../src/lib/metrics/metrics.ts'
import { localReport } from '../../src/lib/metrics/metrics.server.ts'

const rowId = RowIdText
const IdParam = z.object({ id: rowId })
const ImageParam = z.object({ id: rowId, n: z.enum(['1', '2', '3']).transform(Number) })
const SliceParam = z.object({
  id: rowId,
  n: z
    .string()
    .regex(/^[1-9]\d{0,2}$/)
    .transform(Number),
})
const ReportQuery = z.object({ id: rowId.optional() })
const ReachQuery = z.object({ seriesId: rowId.optional() })
const PaymentParam = z.object({ id: z.string().regex(/^pay_[0-9a-z_]{1,64}$/) })

const refused = (res: object): res is ImportRefusal => 'refused' in res

declare module 'hono' {
  interface ContextVariableMap {
    /** Who is calling the operator API: `root` (OPS_TOKEN) or a named operator's token (`operators`). */
    operator: string
  }
}

/** What a target is called in the audit trail: a wallet is its reader's (`user:12`). */
const targetName = (kind: SnapshotKind, id: number | string) => `${kind === 'wallet' ? 'user' : kind}:${id}`

/** The audit row's fields every change shares: who, when, which route, which request. */
function auditOf(c: Context<AppEnv>, action: string, reason: string | null, at = new Date().toISOString()) {
  return {
    operator: c.var.operator,
    action,
    route: `${c.req.method} ${new URL(c.req.url).pathname}`,
    reason,
    requestId: c.var.requestId,
    at,
  }
}

/** The JSON log line of a change (`wrangler tail`, Workers Logs), as before the audit trail: what changed and why. */
function logChange(c: Context<AppEnv>, action: string, detail: Record<string, unknown>, reason: string | null): void {
  console.log(
    JSON.stringify({
      ops: action,
      ...detail,
      reason,
      operator: c.var.operator,
      requestId: c.var.requestId,
      edition: c.var.edition.id,
      at: new Date().toISOString(),
    }),
  )
}

/**
 * Records a change made by the route (issue 39 point 5): the log line, then its audit row right after it, with the
 * target's snapshot `before` (read by the route before the change) and after (read now). A row D1 would not take is
 * logged whole as an error and the answer says `X-Ops-Audit: lost` (the CLI warns).
 */
async function audit(
  c: Context<AppEnv>,
  action: string,
  detail: Record<string, unknown>,
  reason: string | null,
  target: [SnapshotKind, number | string] | null,
  before: unknown = null,
): Promise<void> {
  logChange(c, action, detail, reason)
  await recordChange(c, action, detail, reason, target, before)
}

/**
 * The audit row of a change, right after it, without the log line (`audit` writes both): a reader's money batch
 * (coins, debts, a refund) records its row through this once the batch committed, since a shared row cannot ride in
 * a reader's batch (docs/ARCHITECTURE.md "Reader objects"). A refused batch records nothing; a worker stopped
 * between the batch and this row leaves the change without its row, as for any change recorded after it.
 */
async function recordChange(
  c: Context<AppEnv>,
  action: string,
  detail: Record<string, unknown> | null,
  reason: string | null,
  target: [SnapshotKind, number | string] | null,
  before: unknown = null,
): Promise<void> {
  const after = target ? await snapshot(c.var.db, target[0], target[1]).catch(() => null) : null
  const id = await recordAudit(c.var.db, {
    ...auditOf(c, action, reason),
    target: target ? targetName(...target) : null,
    before,
    after,
    detail,
  })
  if (id === null) c.header('X-Ops-Audit', 'lost')
}

/** A target's snapshot before a change (null when there is none yet). */
const before = (c: Context<AppEnv>, kind: SnapshotKind, id: number | string) => snapshot(c.var.db, kind, id)

/** Where support opens image `n` of question `id` (this API's own route, same bearer token). */
const imageUrl = (id: number, n: number) => `/api/ops/qna/${id}/image/${n}`

const encoder = new TextEncoder()
const sha256 = async (text: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))

/** Wrong operator tokens an address may send in an hour before every request of it is refused. */
const OPS_MAX_WRONG = 20

/**
 * Bearer check against OPS_TOKEN (root), then the named operators' tokens (by their SHA-256). OPS_TOKEN's comparison
 * hashes both sides first, so it is constant-time and does not reveal the token's length.
 */
const requireOpsToken = createMiddleware<AppEnv>(async (c, next) => {
  const expected = env.OPS_TOKEN
  if (!expected) throw new AppError('NOT_EXIST')
  if (!isLocalRun() && !isStrongOpsToken(expected)) {
    console.error('OPS_TOKEN is too weak (at least 32 characters, 12 different): the operator API stays off')
    throw new AppError('NOT_EXIST')
  }
  // issue 34 point 6: every request counts as a guess of its address, in one statement, before the token is looked
  // at; a right token takes its guess back, so only wrong ones (and requests in flight) add up: OPS_MAX_WRONG an
  // hour, then 429 for every request of that address. Without an address (only direct calls in tests: a deployment
  // and the local runtime always set one) there is nothing to count.
  const ip = clientIp((n) => c.req.header(n))
  const bucket = ip ? `ops:${ip}` : null
  if (bucket && (await countAttempt(c.var.db, bucket, 3600, new Date())) > OPS_MAX_WRONG) throw new AppError('TOO_MANY_REQUESTS')
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')
  const [given, wanted] = await Promise.all([sha256(match?.[1] ?? ''), sha256(expected)])
  // OPS_TOKEN is root's; any other token may be a named operator's (issue 39 point 5), looked up by its hash
  const operator = !match ? null : timingSafeEqual(given, wanted) ? ROOT_OPERATOR : await operatorOfToken(c.var.db, match[1]!)
  if (!operator) {
    c.header('WWW-Authenticate', 'Bearer realm="ops"')
    throw new AppError('NOT_LOGIN_USER')
  }
  c.set('operator', operator)
  if (bucket) await takeBackAttempt(c.var.db, bucket)
  await next()
  c.header('Cache-Control', 'no-store')
  // the CLI prints every time in the edition's time zone, saying which (issue 39 point 9)
  c.header('X-Edition-Time-Zone', c.var.edition.timeZone)
})

/** Operators' own tokens are managed by root alone: a named token, leaked, cannot make or keep others. */
const requireRoot = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.operator !== ROOT_OPERATOR)
    return refusal(c, 'UNAUTHORIZED_USER', `operator ${c.var.operator} may not manage operators: only root (OPS_TOKEN) does`)
  await next()
})

export const ops = new Hono<AppEnv>()
  .use(requireOpsToken)
  /** Operator charge (amount > 0) or deduction (amount < 0), recorded with source ADMIN. */
  .post('/coins', validate('json', AdminAdjustRequest), async (c) => {
    const input = c.req.valid('json')
    const now = new Date()
    const userId = await userIdByEmail(c.var.db, input.email)
    const action = input.amount > 0 ? 'coins.grant' : 'coins.deduct'
    const detail = { userId, type: input.type, amount: input.amount }
    const was = await before(c, 'wallet', userId)
    // the coins move in the reader's own batch; its audit row follows it, with the wallet the batch left
    const res = await adminAdjust(c.var.db, input, now, () => recordChange(c, action, detail, input.reason, ['wallet', userId], was))
    logChange(c, action, detail, input.reason)
    return ok(c, res)
  })
  /** One account's balances, lots in spend order, last ledger rows and the wallet invariant's sums; NOT_FOUND_USER if unknown. */
  .get('/coins', validate('query', WalletReportQuery), async (c) => {
    const { email, limit } = c.req.valid('query')
    const report = await walletReport(c.var.db, email, limit)
    return ok(c, { ...report, debts: await openDebts(c.var.db, report.userId) })
  })
  /** Settles an account's open debts without coins (issue 34 point 3): `{forgiven}` coins; NOT_FOUND_USER if unknown. */
  .post('/coins/debt/forgive', validate('json', DebtForgiveRequest), async (c) => {
    const { email, reason } = c.req.valid('json')
    const userId = await userIdByEmail(c.var.db, email)
    const was = await before(c, 'wallet', userId)
    const forgiven = await forgiveDebts(c.var.db, userId)
    // the debts went in the reader's own batch; its audit row follows it, with the wallet the batch left
    await recordChange(c, 'coins.debt.forgive', null, reason, ['wallet', userId], was)
    logChange(c, 'coins.debt.forgive', { userId, forgiven }, reason)
    return ok(c, { forgiven })
  })
  /** Publishes an episode now and queues its alarms to the readers who favourited its series (once). */
  .post('/episodes/:id/publish', validate('param', IdParam), async (c) => {
    const { id } = c.req.valid('param')
    // the reason is optional here (the route took no body before the audit trail); a body without one records none
    const reason = OpsReasonRequest.safeParse(await c.req.json().catch(() => null)).data?.reason ?? null
    const uploading = await refuseWhileUploading(c.var.db, id)
    if (uploading) return refusal(c, uploading.refused, uploading.message, { fields: uploading.fields })
    const was = await before(c, 'episode', id)
    const published = await publishEpisode(c.var.db, env.ALARMS, id)
    if (!published) throw new AppError('NOT_EXIST')
    await audit(c, 'episode.publish', { episodeId: id, announced: published.announced }, reason, ['episode', id], was)
    return ok(c, published)
  })
  /**
   * Dates an episode later; the cron announces it then. Refused: a time not in the future (publish it instead), an
   * episode announced already (its readers were told it is out).
   */
  .post('/episodes/:id/schedule', validate('param', IdParam), validate('json', EpisodeScheduleRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { publishedAt, reason } = c.req.valid('json')
    const now = new Date()
    if (publishedAt <= now.toISOString()) {
      const message = `publishedAt ${publishedAt} is not in the future: POST /api/ops/episodes/${id}/publish publishes now`
      return refusal(c, 'INVALID_PARAMETER', message, { fields: 'publishedAt' })
    }
    const uploading = await refuseWhileUploading(c.var.db, id)
    if (uploading) return refusal(c, uploading.refused, uploading.message, { fields: uploading.fields })
    const was = await before(c, 'episode', id)
    const res = await scheduleEpisode(c.var.db, id, publishedAt, now)
    if (!res) throw new AppError('NOT_EXIST')
    if (!res.scheduled) {
      const message = `episode ${id} was announced at ${res.episode.announcedAt}: its readers were told it is out; unpublish it first`
      return refusal(c, 'INVALID_PARAMETER', message, { fields: 'id' })
    }
    await audit(c, 'episode.schedule', { episodeId: id, publishedAt }, reason, ['episode', id], was)
    return ok(c, res.episode)
  })
  /** Takes an episode down (ownerships kept); NOT_EXIST if unknown or down already. */
  .post('/episodes/:id/unpublish', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'episode', id)
    const episode = await unpublishEpisode(c.var.db, id, new Date())
    if (!episode) throw new AppError('NOT_EXIST')
    await audit(c, 'episode.unpublish', { episodeId: episode.id }, c.req.valid('json').reason, ['episode', id], was)
    return ok(c, episode)
  })
  /** Series, newest first, whose title contains `q` (issue 39 point 2: the ids every edit needs), a page at a time. */
  .get('/series', validate('query', SeriesListQuery), async (c) =>
    ok(c, { ...(await listOpsSeries(c.var.db, c.req.valid('query'), new Date())), timeZone: c.var.edition.timeZone }),
  )
  /** A series' episodes, latest number first, with their state and price; NOT_EXIST for an unknown series. */
  .get('/series/:id/episodes', validate('param', IdParam), validate('query', OpsListQuery), async (c) => {
    const page = await listOpsEpisodes(c.var.db, c.req.valid('param').id, c.req.valid('query'), new Date())
    if (!page) throw new AppError('NOT_EXIST')
    return ok(c, { ...page, timeZone: c.var.edition.timeZone })
  })
  /**
   * Opens the series' next scheduled episodes to early readers (issue 37 point 1): up to `episodes` (default the
   * edition's) open early at the edition's early prices; each newly opened one's alarm is queued to the series'
   * favourites. Answers those it opened and all open early now; NOT_EXIST for an unknown series.
   */
  .post('/series/:id/early', validate('param', IdParam), validate('json', EarlyOpenRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { episodes, reason } = c.req.valid('json')
    const early = c.var.edition.earlyAccess
    const res = await openEarly(c.var.db, env.ALARMS, id, episodes ?? early.episodes, early)
    if (!res) throw new AppError('NOT_EXIST')
    const opened = res.opened.map((e) => e.id)
    if (opened.length > 0) await audit(c, 'series.early', { seriesId: id, opened, ...early }, reason, ['series', id])
    return ok(c, res)
  })
  /** Publishes (`publish`) or withdraws (`unpublish`) a series; `changed` false when it was so already. */
  .post('/series/:id/:action{publish|unpublish}', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const published = c.req.param('action') === 'publish'
    const { id } = c.req.valid('param')
    const was = await before(c, 'series', id)
    const res = await setSeriesPublished(c.var.db, id, published, new Date())
    if (!res) throw new AppError('NOT_EXIST')
    const action = published ? 'series.publish' : 'series.unpublish'
    if (res.changed) await audit(c, action, { seriesId: res.series.id }, c.req.valid('json').reason, ['series', id], was)
    return ok(c, { ...res.series, changed: res.changed })
  })
  /**
   * Series import, step 1 (`npm run ops -- import`): the validated manifest and probed sizes → the series, unpublished,
   * and the R2 keys to upload.
   */
  .post('/series/import', validate('json', SeriesImportRequest), async (c) => {
    const input = c.req.valid('json')
    const res = await startImport(c.var.db, input)
    if (refused(res)) return refusal(c, res.refused, res.message, { fields: res.fields })
    await audit(c, 'series.import.start', { seriesId: res.seriesId, objects: res.keys.length }, input.reason, ['series', res.seriesId])
    return ok(c, res, 201)
  })
  /** Step 2: one WebP rendition of an open import, under a key it expects (`image/webp`, at most 8 MiB). */
  .put('/media/:key{.+}', async (c) => {
    const key = c.req.param('key')
    if ((c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'image/webp') {
      return refusal(c, 'INVALID_PARAMETER', 'Content-Type must be image/webp', { fields: 'content-type' })
    }
    // the body limit (functions/app.ts) stops a larger body while it is read: 413 PAYLOAD_TOO_LARGE
    const bytes = new Uint8Array(await c.req.arrayBuffer())
    if (bytes.length > MAX_IMPORT_OBJECT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE')
    // an episode upload into a running series, else a series import (which refuses a key of neither)
    const res = (await putUploadObject(c.var.db, env.MEDIA, key, bytes)) ?? (await putImportObject(c.var.db, env.MEDIA, key, bytes))
    if (refused(res)) return refusal(c, res.refused, res.message, { fields: res.fields })
    return ok(c, res)
  })
  /** Step 3: checks every object is uploaded, writes the rows and publishes the series, once. */
  .post('/series/:id/import/finish', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'series', id)
    const res = await finishImport(c.var.db, env.MEDIA, id, new Date())
    if (refused(res)) return refusal(c, res.refused, res.message, { fields: res.fields })
    const detail = { seriesId: res.seriesId, episodes: res.episodes }
    await audit(c, 'series.import.finish', detail, c.req.valid('json').reason, ['series', id], was)
    return ok(c, res)
  })
  /** Clean-up of an import not published: the series row, its search row, its objects. */
  .post('/series/:id/import/abort', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'series', id)
    const res = await abortImport(c.var.db, env.MEDIA, id)
    if (refused(res)) return refusal(c, res.refused, res.message)
    await audit(c, 'series.import.abort', { seriesId: res.seriesId, objects: res.objects }, c.req.valid('json').reason, ['series', id], was)
    return ok(c, res)
  })
  /**
   * A new episode of a running series, step 1 (`npm run ops -- episode add`): its number (given, else the last + 1) is
   * reserved, the episode unpublished until its objects are uploaded (`PUT /media/{key}`, then `…/upload/finish`).
   */
  .post('/series/:id/episodes', validate('param', IdParam), validate('json', EpisodeAddRequest), async (c) => {
    const input = c.req.valid('json')
    const res = await startEpisodeAdd(c.var.db, c.req.valid('param').id, input)
    if (refused(res)) return refusal(c, res.refused, res.message, { fields: res.fields })
    const detail = { seriesId: res.seriesId, episodeId: res.episodeId, no: res.no }
    await audit(c, 'episode.add.start', detail, input.reason, ['episode', res.episodeId])
    return ok(c, res, 201)
  })
  /** A broken slice of an episode, step 1 (`npm run ops -- episode replace-slice`): the new prefix and its keys. */
  .post('/episodes/:id/slices/:n', validate('param', SliceParam), validate('json', SliceReplaceRequest), async (c) => {
    const { id, n } = c.req.valid('param')
    const input = c.req.valid('json')
    const res = await startSliceReplace(c.var.db, id, n, input.size, new Date())
    if (refused(res)) return refusal(c, res.refused, res.message, { fields: res.fields })
    await audit(c, 'episode.slice.replace.start', { episodeId: id, n, key: res.key, previous: res.previous }, input.reason, ['episode', id])
    return ok(c, res, 201)
  })
  /**
   * Last step of an upload into a running series: every object uploaded, the episode's rows written and dated (out
   * now: its alarms are queued, as `episode publish`; later: the cron announces it), or the slice pointed at its new
   * image (the old one deleted).
   */
  .post('/episodes/:id/upload/finish', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const now = new Date()
    const { id } = c.req.valid('param')
    const was = await before(c, 'episode', id)
    const res = await finishUpload(c.var.db, env.MEDIA, id, now)
    if (refused(res)) return refusal(c, res.refused, res.message, { fields: res.fields })
    // the episode is out whatever the queue answers: one it refuses is announced by the cron's next run (its sweep
    // looks back a day), so the finish still succeeds
    const announced =
      res.kind === 'EPISODE' && res.publishedAt <= now.toISOString()
        ? await publishEpisode(c.var.db, env.ALARMS, res.episodeId, now).then(
            (p) => p?.announced ?? false,
            (e: unknown) => (console.error(`episode ${res.episodeId}: alarms not queued (${String(e)}); the cron announces it`), false),
          )
        : false
    const action = res.kind === 'EPISODE' ? 'episode.add.finish' : 'episode.slice.replace.finish'
    await audit(c, action, { ...res, announced }, c.req.valid('json').reason, ['episode', id], was)
    return ok(c, { ...res, announced })
  })
  /** Clean-up of an upload not finished: a new episode's row and objects, or a replacement's objects. */
  .post('/episodes/:id/upload/abort', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'episode', id)
    const res = await abortUpload(c.var.db, env.MEDIA, id)
    if (refused(res)) return refusal(c, res.refused, res.message)
    await audit(c, 'episode.upload.abort', { ...res }, c.req.valid('json').reason, ['episode', id], was)
    return ok(c, res)
  })
  /** Replaces a series' weekly schedule (weekdays, TEN alone, or none). */
  .post('/series/:id/schedule', validate('param', IdParam), validate('json', SeriesScheduleRequest), async (c) => {
    const { days, reason } = c.req.valid('json')
    const { id } = c.req.valid('param')
    const was = await before(c, 'series', id)
    const series = await setSeriesSchedule(c.var.db, id, days)
    if (!series) throw new AppError('NOT_EXIST')
    await audit(c, 'series.schedule', { seriesId: series.id, days }, reason, ['series', id], was)
    return ok(c, series)
  })
  /** How many readers `POST /alarms` would reach now (every reader, or those of series `seriesId`). */
  .get('/alarms/reach', validate('query', ReachQuery), async (c) => {
    const readers = await broadcastReach(c.var.db, c.req.valid('query').seriesId ?? null)
    if (readers === null) throw new AppError('NOT_EXIST')
    return ok(c, { readers })
  })
  /** A notice-style alarm to every reader or to the readers of one series, fanned out by the queue. */
  .post('/alarms', validate('json', AlarmBroadcastRequest), async (c) => {
    const input = c.req.valid('json')
    const res = await sendBroadcast(c.var.db, env.ALARMS, input)
    const detail = { broadcastId: res.broadcastId, seriesId: input.seriesId ?? null }
    await audit(c, 'alarm.send', detail, input.reason, ['broadcast', res.broadcastId])
    return ok(c, res)
  })
  /** Support's queue: questions waiting for an answer, oldest first. */
  .get('/qna', async (c) => ok(c, { items: await waitingQnas(c.var.db) }))
  /**
   * Support's search (issue 39 point 6): questions answered or not, newest first, a page at a time, by text (title,
   * question or answer), reader's e-mail, category, status and filing date.
   */
  .get('/qna/search', validate('query', QnaSearchQuery), async (c) =>
    ok(c, { ...(await searchQnas(c.var.db, c.req.valid('query'))), timeZone: c.var.edition.timeZone }),
  )
  /** Canned support replies (issue 39 point 6) in the edition's language, by name. */
  .get('/qna/canned', async (c) => ok(c, { lang: c.var.edition.locale, items: await cannedReplies(c.var.db, c.var.edition.locale) }))
  /** Sets (creates or replaces) a canned reply in the edition's language; audited with its text before and after. */
  .post('/qna/canned/:name', validate('param', z.object({ name: CannedName })), validate('json', CannedSetRequest), async (c) => {
    const { name } = c.req.valid('param')
    const { text, reason } = c.req.valid('json')
    const key = `${name}.${c.var.edition.locale}`
    const was = await before(c, 'canned', key)
    const reply = await setCannedReply(c.var.db, name, c.var.edition.locale, text, c.var.operator)
    await audit(c, 'qna.canned.set', { name, lang: reply.lang }, reason, ['canned', key], was)
    return ok(c, reply)
  })
  /** One question with its author's address and the addresses of its images. */
  .get('/qna/:id', validate('param', IdParam), async (c) => {
    const { id } = c.req.valid('param')
    const qna = await supportQna(c.var.db, id)
    if (!qna) throw new AppError('NOT_EXIST')
    return ok(c, { ...qna, imageUrls: Array.from({ length: qna.images }, (_, i) => imageUrl(id, i + 1)) })
  })
  /** Image `n` of a question, from R2 MEDIA (as `GET /api/v1/qna/{id}/image/{n}` serves it to its author). */
  .get('/qna/:id/image/:n', validate('param', ImageParam), async (c) => {
    const { id, n } = c.req.valid('param')
    const key = await qnaImageKey(c.var.db, null, id, n)
    return storedImage(key ? await env.MEDIA.get(key) : null, { 'cache-control': 'no-store' })
  })
  /** Answers a waiting question (`answerQna`: COMPLETED, the reader's alarm and answer mail); NOT_EXIST if unknown or answered. */
  .post('/qna/:id/answer', validate('param', IdParam), validate('json', QnaAnswerRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { answer, reason } = c.req.valid('json')
    const was = await before(c, 'qna', id)
    await answerQna(c.var.db, id, answer, { t: c.var.t, siteUrl: c.var.edition.siteUrl })
    await audit(c, 'qna.answer', { qnaId: id }, reason, ['qna', id], was)
    return ok(c, await supportQna(c.var.db, id))
  })
  /**
   * Edits the answer of an answered question (issue 39 point 6): the reader reads the new text on /qna; no second mail.
   * `changed` false when it was that text already (no audit row); NOT_EXIST if unknown or still waiting (answer it).
   */
  .post('/qna/:id/answer/edit', validate('param', IdParam), validate('json', QnaAnswerRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { answer, reason } = c.req.valid('json')
    const was = await before(c, 'qna', id)
    const res = await editQnaAnswer(c.var.db, id, answer)
    if (!res) throw new AppError('NOT_EXIST')
    if (res.changed) await audit(c, 'qna.answer.edit', { qnaId: id }, reason, ['qna', id], was)
    return ok(c, { ...(await supportQna(c.var.db, id)), changed: res.changed })
  })
  /**
   * Answers a waiting question with a canned reply of the edition's language (as `…/answer` does: COMPLETED, the mail,
   * the alarm); NOT_EXIST for an unknown reply (nothing changed) or a question unknown or answered.
   */
  .post('/qna/:id/reply', validate('param', IdParam), validate('json', CannedReplyRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { canned, reason } = c.req.valid('json')
    const reply = await cannedReply(c.var.db, canned, c.var.edition.locale)
    if (!reply)
      return refusal(c, 'NOT_EXIST', `no canned reply ${canned} in ${c.var.edition.locale}: support canned list`, { fields: 'canned' })
    const was = await before(c, 'qna', id)
    await answerQna(c.var.db, id, reply.text, { t: c.var.t, siteUrl: c.var.edition.siteUrl })
    await audit(c, 'qna.answer', { qnaId: id, canned }, reason, ['qna', id], was)
    return ok(c, await supportQna(c.var.db, id))
  })
  /** Every notice, newest first, whatever its state (without its body), a page at a time. */
  .get('/notices', validate('query', OpsListQuery), async (c) =>
    ok(c, { ...(await listOpsNotices(c.var.db, c.req.valid('query'), new Date())), timeZone: c.var.edition.timeZone }),
  )
  /** Publishes a notice, global or on one series (NOT_EXIST: no such series). */
  .post('/notices', validate('json', NoticePublishRequest), async (c) => {
    const input = c.req.valid('json')
    const notice = await publishNotice(c.var.db, env.CACHE, input, new Date())
    await audit(c, 'notice.publish', { noticeId: notice.id }, input.reason, ['notice', notice.id])
    return ok(c, notice, 201)
  })
  .post('/notices/:id', validate('param', IdParam), validate('json', NoticeEditRequest), async (c) => {
    const input = c.req.valid('json')
    const { id } = c.req.valid('param')
    const was = await before(c, 'notice', id)
    const notice = await editNotice(c.var.db, env.CACHE, id, input, new Date())
    const detail = { noticeId: notice.id, fields: Object.keys(input).filter((k) => k !== 'reason') }
    await audit(c, 'notice.edit', detail, input.reason, ['notice', id], was)
    return ok(c, notice)
  })
  .post('/notices/:id/pin', validate('param', IdParam), validate('json', NoticePinRequest), async (c) => {
    const { pinned, reason } = c.req.valid('json')
    const { id } = c.req.valid('param')
    const was = await before(c, 'notice', id)
    const notice = await pinNotice(c.var.db, id, pinned, new Date())
    await audit(c, pinned ? 'notice.pin' : 'notice.unpin', { noticeId: notice.id }, reason, ['notice', id], was)
    return ok(c, notice)
  })
  .post('/notices/:id/unpublish', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'notice', id)
    const notice = await unpublishNotice(c.var.db, env.CACHE, id, new Date())
    await audit(c, 'notice.unpublish', { noticeId: notice.id }, c.req.valid('json').reason, ['notice', id], was)
    return ok(c, notice)
  })
  /** Creates a coupon; a code already taken is refused (INVALID_PARAMETER `code`), nothing written. */
  .post('/coupons', validate('json', CouponCreateRequest), async (c) => {
    const input = c.req.valid('json')
    const coupon = await createCoupon(c.var.db, input, new Date())
    if (!coupon) return refusal(c, 'INVALID_PARAMETER', `coupon code ${input.code} exists already`, { fields: 'code' })
    await audit(c, 'coupon.create', { couponId: coupon.id }, input.reason, ['coupon', coupon.id])
    return ok(c, coupon, 201)
  })
  .post('/coupons/:id/expire', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'coupon', id)
    const coupon = await expireCoupon(c.var.db, id, new Date())
    await audit(c, 'coupon.expire', { couponId: coupon.id }, c.req.valid('json').reason, ['coupon', id], was)
    return ok(c, coupon)
  })
  /** Coupons with their use counts, newest first, or one (`?id=`). */
  .get('/coupons', validate('query', ReportQuery), async (c) => {
    const { id } = c.req.valid('query')
    const items = await couponReport(c.var.db, new Date(), id)
    // one coupon: who used it too
    return ok(c, id === undefined ? { items } : { items, readers: await couponReaders(c.var.db, id) })
  })
  /** One reader: account, balances, last payments with refunds, purchases and sign-ins (`?email=`, `?id=`, `?nickname=`, `?payment=` or `?phone=`). */
  .get('/readers', validate('query', ReaderLookup), async (c) => {
    const lookup = c.req.valid('query')
    // a phone number as the reader typed it, read in the edition's country (stored in E.164); one not a number finds no one
    const phone = lookup.phone === undefined ? undefined : (normalisePhone(lookup.phone, c.var.edition.phoneCountry) ?? '-')
    return ok(c, await readerReport(c.var.db, { ...lookup, ...(phone === undefined ? {} : { phone }) }, c.var.edition.timeZone))
  })
  /** Ends every session of the reader on every device (`signOutEverywhere`); NOT_FOUND_USER if unknown or withdrawn. */
  .post('/readers/:id/sessions/end', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'user', id)
    const ended = await endReaderSessions(c.var.db, id, new Date())
    await audit(c, 'reader.sessions.end', { userId: ended.id, devices: ended.ended }, c.req.valid('json').reason, ['user', id], was)
    return ok(c, ended)
  })
  /**
   * Reported comments whose reports no operator reviewed yet (issue 39 point 7): latest report first (`sort=newest`, a
   * page at a time) or most reported first (`sort=most`), of the last `days` days and of one `series`.
   */
  .get('/comments/reported', validate('query', ReportedQuery), async (c) =>
    ok(c, { ...(await listReported(c.var.db, c.req.valid('query'), new Date())), timeZone: c.var.edition.timeZone }),
  )
  /**
   * Hides a comment (`hide`: gone from readers' lists and counts) or restores it (`restore`: visible), its open reports
   * marked reviewed, in one batch with its audit row; `changed` false when it was so already; NOT_EXIST if unknown or
   * deleted by its author.
   */
  .post('/comments/:id/:action{hide|restore}', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const hide = c.req.param('action') === 'hide'
    const { id } = c.req.valid('param')
    const { reason } = c.req.valid('json')
    const action = hide ? 'comment.hide' : 'comment.restore'
    const res = await moderateComment(c.var.db, id, hide ? 'hide' : 'restore', auditOf(c, action, reason))
    if (!res) throw new AppError('NOT_EXIST')
    if (res.changed) logChange(c, action, { commentId: id, userId: res.comment.userId }, reason)
    return ok(c, { ...res.comment, changed: res.changed })
  })
  /**
   * Blocks a reader from commenting for `days` days; the reason is shown to them above the comment form. One
   * conditional upsert with its audit row: a reader blocked already keeps their block (`changed` false).
   */
  .post('/readers/:id/comment-block', validate('param', IdParam), validate('json', CommentBlockRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { days, reason } = c.req.valid('json')
    const res = await blockCommenter(c.var.db, id, days, reason, auditOf(c, 'comment.block', reason))
    if (!res) throw new AppError('NOT_FOUND_USER')
    if (res.changed) logChange(c, 'comment.block', { userId: id, days, until: res.ban?.until }, reason)
    return ok(c, { userId: id, ban: res.ban, changed: res.changed })
  })
  /** Ends a reader's block from commenting now; `changed` false when they were not blocked. */
  .post('/readers/:id/comment-unblock', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { reason } = c.req.valid('json')
    const res = await unblockCommenter(c.var.db, id, auditOf(c, 'comment.unblock', reason))
    if (!res) throw new AppError('NOT_FOUND_USER')
    if (res.changed) logChange(c, 'comment.unblock', { userId: id }, reason)
    return ok(c, { userId: id, ban: res.ban, changed: res.changed })
  })
  /** Every event, newest first, whatever its state, a page at a time. */
  .get('/events', validate('query', OpsListQuery), async (c) =>
    ok(c, { ...(await listOpsEvents(c.var.db, c.req.valid('query'), new Date())), timeZone: c.var.edition.timeZone }),
  )
  /** Creates an event on /event (not a roulette: its prize table comes from the seed). */
  .post('/events', validate('json', EventCreateRequest), async (c) => {
    const input = c.req.valid('json')
    const event = await createEvent(c.var.db, input, new Date())
    await audit(c, 'event.create', { eventId: event.id }, input.reason, ['event', event.id])
    return ok(c, event, 201)
  })
  /** Ends an event now; NOT_EVENT_PERIOD for one already ended. */
  .post('/events/:id/end', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'event', id)
    const event = await endEvent(c.var.db, id, new Date())
    await audit(c, 'event.end', { eventId: event.id }, c.req.valid('json').reason, ['event', id], was)
    return ok(c, event)
  })
  /** Every banner, newest first, whatever its placement and state, a page at a time. */
  .get('/banners', validate('query', OpsListQuery), async (c) =>
    ok(c, { ...(await listOpsBanners(c.var.db, c.req.valid('query'), new Date())), timeZone: c.var.edition.timeZone }),
  )
  /** Creates a banner (the home carousel shows HOME ones; edge-cached pages follow within a minute). */
  .post('/banners', validate('json', BannerCreateRequest), async (c) => {
    const input = c.req.valid('json')
    const banner = await createBanner(c.var.db, input, new Date())
    await audit(c, 'banner.create', { bannerId: banner.id }, input.reason, ['banner', banner.id])
    return ok(c, banner, 201)
  })
  /** Ends a banner now; NOT_EVENT_PERIOD for one already ended. */
  .post('/banners/:id/end', validate('param', IdParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const was = await before(c, 'banner', id)
    const banner = await endBanner(c.var.db, id, new Date())
    await audit(c, 'banner.end', { bannerId: banner.id }, c.req.valid('json').reason, ['banner', id], was)
    return ok(c, banner)
  })
  /** The audit trail (issue 39 point 5): every change through this API, newest first, a page at a time, filtered. */
  .get('/audit', validate('query', AuditQuery), async (c) =>
    ok(c, { ...(await listAudit(c.var.db, c.req.valid('query'), new Date())), timeZone: c.var.edition.timeZone }),
  )
  /**
   * Alerts (issue 39 point 4): the hours of the last `days` days with trouble — a webhook refused or failed, a queue
   * message dead-lettered, a cron sweep failed, server errors — with their counts and whether the operator was mailed.
   */
  .get('/alerts', validate('query', AlertsQuery), async (c) =>
    ok(c, {
      items: await listAlerts(c.var.db, c.req.valid('query'), new Date()),
      alertsTo: c.var.edition.mail?.alertsTo ?? null,
      timeZone: c.var.edition.timeZone,
    }),
  )
  /**
   * The daily report of a local run (issue 39 point 3): its figures per UTC day. A deployed edition's are in Analytics
   * Engine, which the CLI asks itself (src/lib/metrics/metrics.ts `reportSql`): there this answers NOT_EXIST.
   */
  .get('/report', validate('query', DailyReportQuery), async (c) => {
    if (!isLocalRun()) return refusal(c, 'NOT_EXIST', 'a deployed edition reports through Analytics Engine: npm run ops -- report')
    return ok(c, { items: await localReport(c.var.db, c.req.valid('query').days, new Date()) })
  })
  /** Operators' named tokens (never a hash): live ones first (root only). */
  .get('/operators', requireRoot, async (c) => ok(c, { items: await listOperators(c.var.db) }))
  /** A named token for a new operator, shown once in this answer (root only); a name with a live token is refused. */
  .post('/operators', requireRoot, validate('json', OperatorAddRequest), async (c) => {
    const { name, reason } = c.req.valid('json')
    const res = await addOperator(c.var.db, name, auditOf(c, 'operator.add', reason))
    if (!res) return refusal(c, 'INVALID_PARAMETER', `operator ${name} has a live token already: revoke it first`, { fields: 'name' })
    logChange(c, 'operator.add', { name }, reason)
    return ok(c, res, 201)
  })
  /** Revokes an operator's live token: refused from the next request on (root only); NOT_EXIST if it has none. */
  .post('/operators/:name/revoke', requireRoot, validate('param', OperatorParam), validate('json', OpsReasonRequest), async (c) => {
    const { name } = c.req.valid('param')
    const { reason } = c.req.valid('json')
    const operator = await revokeOperator(c.var.db, name, auditOf(c, 'operator.revoke', reason))
    if (!operator) throw new AppError('NOT_EXIST')
    logChange(c, 'operator.revoke', { name }, reason)
    return ok(c, operator)
  })
  /** One payment with its lots, the provider's events, its reversals and whether the refund rule takes it. */
  .get('/payments/:id', validate('param', PaymentParam), async (c) => {
    const report = await opsPayment(c.var.db, c.req.valid('param').id, new Date())
    if (!report) throw new AppError('NOT_EXIST')
    return ok(c, report)
  })
  /**
   * Refunds a payment through the reader's own guarded path (issue 39 point 8), its audit row in the coins' batch;
   * refused in one line (INVALID_PARAMETER, reason NOT_REFUNDABLE) when its coins were used, it was refunded, … .
   */
  .post('/payments/:id/refund', validate('param', PaymentParam), validate('json', OpsReasonRequest), async (c) => {
    const { id } = c.req.valid('param')
    const { reason } = c.req.valid('json')
    const now = new Date()
    const was = await before(c, 'payment', id)
    let res: Awaited<ReturnType<typeof opsRefund>>
    try {
      // the coins leave in the reader's own batch; its audit row follows it (before the provider is asked)
      res = await opsRefund(c.var.db, id, () => recordChange(c, 'payment.refund', null, reason, ['payment', id], was), now)
    } catch (e) {
      // the provider refused: the coins came back (the first audit row says they left, this one that they are back)
      if (e instanceof AppError && e.code === 'CLIENT_FETCH_ERROR')
        await audit(c, 'payment.refund.undone', { paymentId: id }, reason, ['payment', id])
      throw e
    }
    if ('refused' in res) {
      return refusal(c, 'INVALID_PARAMETER', `payment ${id} cannot be refunded: ${res.refused}`, {
        fields: 'paymentId',
        reason: 'NOT_REFUNDABLE',
      })
    }
    logChange(c, 'payment.refund', { paymentId: id, userId: res.userId, refunded: res.result.refunded }, reason)
    return ok(c, res.result)
  })
