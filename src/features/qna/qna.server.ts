/**
 * Contact requests in D1 (spec §2 /qna, /qna/register; §8 LIMIT_QNA_COUNT). A question and an answer each
 * send a mail through the account message provider (the dev outbox offline).
 */
import { opensAt } from '../catalogue/early.server.ts'
import { PRIVATE_MEDIA_PREFIX } from '../../lib/server/media.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { QnasRow } from '../../lib/server/db-types.ts'
import { opsPage, type OpsPage } from '../../lib/ops.ts'
import { alarmNow } from '../alarm/alarm.server.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { flag } from '../../lib/server/rows.ts'
import { episodeLabel } from '../../lib/i18n/episode-label.ts'
import type { EpisodesRow, SeriesRow } from '../../lib/server/db-types.ts'
import { mayOpen, type AgeEdition } from '../age/age.ts'
import { readerAdult } from '../age/age.server.ts'
import {
  checkImages,
  DAILY_QNA_LIMIT,
  DAILY_REPORT_LIMIT,
  dayStart,
  MAX_TITLE_LENGTH,
  QNA_PAGE_SIZE,
  type EpisodeProblem,
  type ReportInput,
  type QnaCategory,
  type QnaInput,
  type QnaSearchQuery,
  type QnaStatus,
} from './qna.ts'
import { IMAGE_TYPES, type ImageExt } from '../../lib/image-kind.ts'

export type QnaView = {
  id: number
  category: QnaCategory
  title: string
  text: string
  status: QnaStatus
  answer: string | null
  answeredAt: string | null
  createdAt: string
  /** Number of attached images, served to the author by GET /api/v1/qna/{id}/image/{n} (n from 1). */
  images: number
  /** The reader's replies by mail to the answer (qna-mail.server.ts), oldest first. */
  replies: { text: string; createdAt: string }[]
  /** A report of a problem with an episode (issue 37 point 4), else null; the episode's fields are null once it is deleted. */
  report: EpisodeReport | null
}

/** What a report is about: the episode (with its series) and the problem the reader chose. */
type EpisodeReport = {
  episodeId: number | null
  no: number | null
  episodeTitle: string | null
  seriesId: number | null
  seriesTitle: string | null
  problem: EpisodeProblem
}

/** A question's row; its category (free text in the table) is one of QnaCategory: QnaInput checks it before it is saved. */
type Row = Pick<
  QnasRow,
  'id' | 'title' | 'body' | 'status' | 'answer' | 'answered_at' | 'created_at' | 'images' | 'episode_id' | 'problem'
> & {
  category: QnaCategory
  replies?: string
  episode_no?: number | null
  episode_title?: string | null
  series_id?: number | null
  series_title?: string | null
}
/** A question's columns (table `q`) with its report's episode and series (`REPORT_JOIN`). */
const COLUMNS = `q.id, q.category, q.title, q.body, q.status, q.answer, q.answered_at, q.created_at, q.images, q.episode_id, q.problem,
  e.no AS episode_no, e.title AS episode_title, e.series_id, s.title AS series_title,
  (SELECT json_group_array(json_object('text', body, 'createdAt', created_at)) FROM (SELECT body, created_at FROM qna_replies WHERE qna_id = q.id ORDER BY id)) AS replies`
const REPORT_JOIN = 'LEFT JOIN episodes e ON e.id = q.episode_id LEFT JOIN series s ON s.id = e.series_id'
const toView = (r: Row): QnaView => ({
  id: r.id,
  category: r.category,
  title: r.title,
  text: r.body,
  status: r.status,
  answer: r.answer,
  answeredAt: r.answered_at,
  createdAt: r.created_at,
  images: (JSON.parse(r.images || '[]') as unknown[]).length,
  replies: JSON.parse(r.replies || '[]') as QnaView['replies'],
  report: r.problem
    ? {
        episodeId: r.episode_id,
        no: r.episode_no ?? null,
        episodeTitle: r.episode_title ?? null,
        seriesId: r.series_id ?? null,
        seriesTitle: r.series_title ?? null,
        problem: r.problem,
      }
    : null,
})

/** An uploaded file as the handler reads it. */
export type Upload = { size: number; bytes: Uint8Array }

/**
 * Files a question. At most 5 a day per reader, reports of episodes apart (LIMIT_QNA_COUNT): the count and the insert are one
 * statement, so two tabs cannot pass the limit together. The reader gets a receipt mail (if the account
 * has an address).
 */
export async function submitQna(
  db: Db,
  userId: number,
  input: QnaInput,
  ctx: { timeZone: string; t: Translate; siteUrl: string; media?: R2Bucket },
  now = new Date(),
  uploads: Upload[] = [],
): Promise<QnaView> {
  // Spec §5 images: checked first; stored before the row, removed again if the daily limit refuses it.
  const checked = checkImages(uploads)
  if (!checked.ok || (checked.kinds.length > 0 && !ctx.media)) throw new AppError('INVALID_PARAMETER', { fields: 'images' })
  const real = uploads.filter((u) => u.size > 0)
  const keys = checked.kinds.map((ext) => `${PRIVATE_MEDIA_PREFIX}qna/${userId}/${crypto.randomUUID()}.${ext}`)
  await Promise.all(
    keys.map((key, i) =>
      ctx.media!.put(key, real[i]!.bytes, { httpMetadata: { contentType: IMAGE_TYPES[key.split('.').pop() as ImageExt] } }),
    ),
  )
  const row = await db.first<Row & Pick<QnasRow, 'email'>>(
    `INSERT INTO qnas (user_id, category, title, body, email, images, created_at)
     SELECT ?1, ?2, ?3, ?4, u.email, ?8, ?5 FROM users u
     WHERE u.id = ?1 AND (SELECT count(*) FROM qnas WHERE user_id = ?1 AND problem IS NULL AND created_at >= ?6) < ?7
     RETURNING id, category, title, body, status, answer, answered_at, created_at, images, email, episode_id, problem`,
    userId,
    input.category,
    input.title,
    input.text,
    now.toISOString(),
    dayStart(ctx.timeZone, now).toISOString(),
    DAILY_QNA_LIMIT,
    JSON.stringify(keys),
  )
  if (!row) {
    if (keys.length) await ctx.media!.delete(keys)
    throw new AppError('LIMIT_QNA_COUNT')
  }
  if (row.email) {
    await messageProvider(db).send(
      {
        channel: 'MAIL',
        recipient: row.email,
        template: 'qna-received',
        subject: ctx.t('community.qna.mail.received.subject'),
        body: ctx.t('community.qna.mail.received.body', { title: row.title, url: new URL('/qna', ctx.siteUrl).toString() }),
        meta: { qnaId: row.id },
      },
      now,
    )
  }
  return toView(row)
}

/** The episode a report is about, as the report page and the route see it (issue 37 point 4). */
export type ReportTarget = {
  episodeId: number
  no: number
  title: string
  seriesId: number
  seriesTitle: string
  /** The reader's report of this episode filed today (the edition's day), if any: a second one is refused. */
  reportedToday: number | null
}

/**
 * The episode reader `userId` may report: published, of a published series, and an adult series only for an adult
 * reader (else the catalogue code the reader would meet opening it).
 */
export async function reportTarget(
  db: Db,
  userId: number,
  episodeId: number,
  edition: AgeEdition & { timeZone: string },
  now = new Date(),
): Promise<ReportTarget | 'NOT_FOUND_EPISODE' | 'ADULT_ONLY_CONTENTS'> {
  const row = await db.first<
    Pick<EpisodesRow, 'no' | 'title' | 'series_id'> & {
      series_title: SeriesRow['title']
      is_adult: SeriesRow['is_adult']
      reported: number | null
    }
  >(
    `SELECT e.no, e.title, e.series_id, s.title AS series_title, s.is_adult,
            (SELECT id FROM qnas WHERE user_id = ?3 AND episode_id = e.id AND report_day = ?4) AS reported
       FROM episodes e JOIN series s ON s.id = e.series_id
      WHERE e.id = ?1 AND s.is_published = 1 AND ${opensAt('e', '?2')}`, // an early episode can be reported too
    episodeId,
    now.toISOString(),
    userId,
    dayStart(edition.timeZone, now).toISOString(),
  )
  if (!row) return 'NOT_FOUND_EPISODE'
  if (!mayOpen(flag(row.is_adult), flag(row.is_adult) && (await readerAdult(db, userId, edition, now)))) return 'ADULT_ONLY_CONTENTS'
  return { episodeId, no: row.no, title: row.title, seriesId: row.series_id, seriesTitle: row.series_title, reportedToday: row.reported }
}

/**
 * Files a report of a problem with an episode (issue 37 point 4): a support question (category CONTENT) titled with the
 * series and the episode, its text the reader's or the problem's name, with the episode, the problem and the reader's
 * `device`. Answered like any question (`answerQna`). One report per episode per day and at most 10 reports a day
 * (LIMIT_QNA_COUNT): the unique index and the count are one conditional insert, so 40 at once file one.
 */
export async function reportEpisode(
  db: Db,
  userId: number,
  input: ReportInput,
  ctx: { edition: AgeEdition & { timeZone: string }; t: Translate; device: string | null },
  now = new Date(),
): Promise<QnaView> {
  const target = await reportTarget(db, userId, input.episodeId, ctx.edition, now)
  if (typeof target === 'string') throw new AppError(target)
  const { t } = ctx
  const number = t('episode.number', { no: target.no })
  const episode = episodeLabel(target.title, number, t('viewer.chain.episode', { no: target.no, title: target.title }))
  const title = [...t('community.report.subject', { series: target.seriesTitle, episode })].slice(0, MAX_TITLE_LENGTH).join('')
  const row = await db.first<Row>(
    `INSERT INTO qnas (user_id, category, title, body, email, episode_id, problem, device, report_day, created_at)
     SELECT ?1, 'CONTENT', ?2, ?3, u.email, ?4, ?5, ?6, ?7, ?8 FROM users u
      WHERE u.id = ?1 AND (SELECT count(*) FROM qnas WHERE user_id = ?1 AND problem IS NOT NULL AND report_day = ?7) < ?9
     ON CONFLICT DO NOTHING
     RETURNING id, category, title, body, status, answer, answered_at, created_at, images, episode_id, problem`,
    userId,
    title,
    input.text ?? t(`community.report.problem.${input.problem}`),
    target.episodeId,
    input.problem,
    ctx.device,
    dayStart(ctx.edition.timeZone, now).toISOString(),
    now.toISOString(),
    DAILY_REPORT_LIMIT,
  )
  if (!row) throw new AppError('LIMIT_QNA_COUNT')
  return toView({
    ...row,
    episode_no: target.no,
    episode_title: target.title,
    series_id: target.seriesId,
    series_title: target.seriesTitle,
  })
}

/** /qna: the reader's questions, newest first, with their answer status (cursor: last id shown). */
export async function myQnas(db: Db, userId: number, before: number | null): Promise<{ items: QnaView[]; nextCursor: string | null }> {
  const rows = await db.all<Row>(
    `SELECT ${COLUMNS} FROM qnas q ${REPORT_JOIN} WHERE q.user_id = ? AND q.id < ? ORDER BY q.id DESC LIMIT ${QNA_PAGE_SIZE + 1}`,
    userId,
    before ?? 2_147_483_647,
  )
  const page = rows.slice(0, QNA_PAGE_SIZE)
  return { items: page.map(toView), nextCursor: rows.length > QNA_PAGE_SIZE ? String(page.at(-1)!.id) : null }
}

/**
 * Support answers a question (operator tooling and the demo seed; no admin role in the product, spec §6):
 * status COMPLETED, and the answer goes to the reader by mail (also shown on /qna). NOT_EXIST if unknown or answered.
 */
export async function answerQna(
  db: Db,
  id: number,
  answer: string,
  ctx: { t: Translate; siteUrl: string },
  now = new Date(),
): Promise<void> {
  const row = await db.first<Pick<QnasRow, 'email' | 'title'>>(
    `UPDATE qnas SET status = 'COMPLETED', answer = ?2, answered_at = ?3 WHERE id = ?1 AND status = 'WAIT' RETURNING email, title`,
    id,
    answer,
    now.toISOString(),
  )
  if (!row) throw new AppError('NOT_EXIST')
  await alarmNow(db, { qna: id }, now)
  if (row.email) {
    await messageProvider(db).send(
      {
        channel: 'MAIL',
        recipient: row.email,
        template: 'qna-answered',
        subject: ctx.t('community.qna.mail.answered.subject'),
        body: ctx.t('community.qna.mail.answered.body', { title: row.title, answer, url: new URL('/qna', ctx.siteUrl).toString() }),
        meta: { qnaId: id },
      },
      now,
    )
  }
}

/**
 * The R2 key of image `n` (from 1) of question `id`, or null (unknown, no such image). `userId`: the reader's own
 * questions only (someone else's is null); null for support (the operator API).
 */
export async function qnaImageKey(db: Db, userId: number | null, id: number, n: number): Promise<string | null> {
  const row = await db.first<Pick<QnasRow, 'images'>>(`SELECT images FROM qnas WHERE id = ?1 AND (?2 IS NULL OR user_id = ?2)`, id, userId)
  const keys = row ? (JSON.parse(row.images) as string[]) : []
  return keys[n - 1] ?? null
}

/** Most questions `waitingQnas` lists at once (oldest first: the next ones show once these are answered). */
const SUPPORT_QUEUE_SIZE = 200

/**
 * A question as support sees it: the reader's view plus who asked (`email`: the address the answer mail goes to) and,
 * for a report, the reader's device.
 */
export type SupportQna = QnaView & { userId: number; email: string | null; device: string | null }

const SUPPORT_COLUMNS = `${COLUMNS}, q.user_id AS userId, coalesce(q.email, u.email) AS email, q.device`
const SUPPORT_FROM = `qnas q LEFT JOIN users u ON u.id = q.user_id ${REPORT_JOIN}`
type SupportRow = Row & { userId: number; email: string | null; device: string | null }
const toSupport = (r: SupportRow): SupportQna => ({ ...toView(r), userId: r.userId, email: r.email, device: r.device })

/** Support's queue (docs/API.md `GET /api/ops/qna`): questions waiting for an answer, oldest first. */
export async function waitingQnas(db: Db, limit = SUPPORT_QUEUE_SIZE): Promise<SupportQna[]> {
  const rows = await db.all<SupportRow>(
    `SELECT ${SUPPORT_COLUMNS} FROM ${SUPPORT_FROM}
      WHERE q.status = 'WAIT' ORDER BY q.created_at, q.id LIMIT ?`,
    limit,
  )
  return rows.map(toSupport)
}

/** One question, whatever its status, for support (docs/API.md `GET /api/ops/qna/{id}`), or null. */
export async function supportQna(db: Db, id: number): Promise<SupportQna | null> {
  const row = await db.first<SupportRow>(`SELECT ${SUPPORT_COLUMNS} FROM ${SUPPORT_FROM} WHERE q.id = ?`, id)
  return row ? toSupport(row) : null
}

/**
 * Support's search (issue 39 point 6, docs/API.md `GET /api/ops/qna/search`): questions answered or not, newest first
 * (by id), a page at a time, with every filter of `QnaSearchQuery` that is given.
 */
export async function searchQnas(db: Db, q: QnaSearchQuery): Promise<OpsPage<SupportQna>> {
  const where: string[] = []
  const params: unknown[] = []
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause)
    params.push(...values)
  }
  if (q.q !== undefined) add(`instr(lower(q.title || char(10) || q.body || char(10) || coalesce(q.answer, '')), lower(?)) > 0`, q.q)
  if (q.email !== undefined) add('lower(coalesce(q.email, u.email)) = lower(?)', q.email)
  if (q.category !== undefined) add('q.category = ?', q.category)
  if (q.status !== undefined) add('q.status = ?', q.status)
  if (q.from !== undefined) add('q.created_at >= ?', q.from)
  if (q.to !== undefined) add('q.created_at <= ?', q.to)
  if (q.cursor !== undefined) add('q.id < ?', q.cursor)
  const rows = await db.all<SupportRow>(
    `SELECT ${SUPPORT_COLUMNS} FROM ${SUPPORT_FROM}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY q.id DESC LIMIT ?`,
    ...params,
    q.limit + 1,
  )
  return opsPage(rows.map(toSupport), q.limit, (r) => r.id)
}

/**
 * Support edits the answer of an answered question (issue 39 point 6, `POST /api/ops/qna/{id}/answer/edit`): the reader
 * reads the new text on /qna (the answer mail already sent is not sent again). One conditional statement: `changed`
 * false when the answer is that text already; null when the question is unknown or not answered yet.
 */
export async function editQnaAnswer(db: Db, id: number, answer: string): Promise<{ changed: boolean } | null> {
  const updated = await db.first<{ id: number }>(
    `UPDATE qnas SET answer = ?2 WHERE id = ?1 AND status = 'COMPLETED' AND answer IS NOT ?2 RETURNING id`,
    id,
    answer,
  )
  if (updated) return { changed: true }
  const answered = await db.first<{ id: number }>(`SELECT id FROM qnas WHERE id = ? AND status = 'COMPLETED'`, id)
  return answered ? { changed: false } : null
}

/** A canned support reply (migration 0034) in one language. */
export type CannedReply = { name: string; lang: string; text: string; updatedBy: string; updatedAt: string }

const CANNED_COLUMNS = 'name, lang, body AS text, updated_by AS updatedBy, updated_at AS updatedAt'

/** The canned replies of language `lang`, by name. */
export async function cannedReplies(db: Db, lang: string): Promise<CannedReply[]> {
  return db.all<CannedReply>(`SELECT ${CANNED_COLUMNS} FROM support_replies WHERE lang = ? ORDER BY name LIMIT 500`, lang)
}

/** One canned reply of language `lang`, or null. */
export async function cannedReply(db: Db, name: string, lang: string): Promise<CannedReply | null> {
  return db.first<CannedReply>(`SELECT ${CANNED_COLUMNS} FROM support_replies WHERE name = ? AND lang = ?`, name, lang)
}

/** Sets (creates or replaces) canned reply `name` of language `lang`. */
export async function setCannedReply(
  db: Db,
  name: string,
  lang: string,
  text: string,
  operator: string,
  now = new Date(),
): Promise<CannedReply> {
  return (await db.first<CannedReply>(
    `INSERT INTO support_replies (name, lang, body, updated_by, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (name, lang) DO UPDATE SET body = excluded.body, updated_by = excluded.updated_by, updated_at = excluded.updated_at
     RETURNING ${CANNED_COLUMNS}`,
    name,
    lang,
    text,
    operator,
    now.toISOString(),
  ))!
}
