/**
 * Contact requests in D1 (spec §2 /qna, /qna/register; §8 LIMIT_QNA_COUNT). A question and an answer each
 * send a mail through the account message provider (the dev outbox offline).
 */
import { PRIVATE_MEDIA_PREFIX } from '../../lib/server/media.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { QnasRow } from '../../lib/server/db-types.ts'
import { opsPage, type OpsPage } from '../../lib/ops.ts'
import { alarmNow } from '../alarm/alarm.server.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import {
  checkImages,
  DAILY_QNA_LIMIT,
  dayStart,
  QNA_PAGE_SIZE,
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
}

/** A question's row; its category (free text in the table) is one of QnaCategory: QnaInput checks it before it is saved. */
type Row = Pick<QnasRow, 'id' | 'title' | 'body' | 'status' | 'answer' | 'answered_at' | 'created_at' | 'images'> & {
  category: QnaCategory
  replies?: string
}
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
})

/** An uploaded file as the handler reads it. */
export type Upload = { size: number; bytes: Uint8Array }

/**
 * Files a question. At most 5 a day per reader (LIMIT_QNA_COUNT): the count and the insert are one
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
     WHERE u.id = ?1 AND (SELECT count(*) FROM qnas WHERE user_id = ?1 AND created_at >= ?6) < ?7
     RETURNING id, category, title, body, status, answer, answered_at, created_at, images, email`,
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

/** /qna: the reader's questions, newest first, with their answer status (cursor: last id shown). */
export async function myQnas(db: Db, userId: number, before: number | null): Promise<{ items: QnaView[]; nextCursor: string | null }> {
  const rows = await db.all<Row>(
    `SELECT id, category, title, body, status, answer, answered_at, created_at, images,
            (SELECT json_group_array(json_object('text', body, 'createdAt', created_at)) FROM (SELECT body, created_at FROM qna_replies WHERE qna_id = qnas.id ORDER BY id)) AS replies
       FROM qnas WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ${QNA_PAGE_SIZE + 1}`,
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

/** A question as support sees it: the reader's view plus who asked (`email`: the address the answer mail goes to). */
export type SupportQna = QnaView & { userId: number; email: string | null }

const SUPPORT_COLUMNS = `q.id, q.user_id AS userId, q.category, q.title, q.body, q.status, q.answer, q.answered_at, q.created_at, q.images,
  coalesce(q.email, u.email) AS email,
  (SELECT json_group_array(json_object('text', body, 'createdAt', created_at)) FROM (SELECT body, created_at FROM qna_replies WHERE qna_id = q.id ORDER BY id)) AS replies`
type SupportRow = Row & { userId: number; email: string | null }
const toSupport = (r: SupportRow): SupportQna => ({ ...toView(r), userId: r.userId, email: r.email })

/** Support's queue (docs/API.md `GET /api/ops/qna`): questions waiting for an answer, oldest first. */
export async function waitingQnas(db: Db, limit = SUPPORT_QUEUE_SIZE): Promise<SupportQna[]> {
  const rows = await db.all<SupportRow>(
    `SELECT ${SUPPORT_COLUMNS} FROM qnas q LEFT JOIN users u ON u.id = q.user_id
      WHERE q.status = 'WAIT' ORDER BY q.created_at, q.id LIMIT ?`,
    limit,
  )
  return rows.map(toSupport)
}

/** One question, whatever its status, for support (docs/API.md `GET /api/ops/qna/{id}`), or null. */
export async function supportQna(db: Db, id: number): Promise<SupportQna | null> {
  const row = await db.first<SupportRow>(`SELECT ${SUPPORT_COLUMNS} FROM qnas q LEFT JOIN users u ON u.id = q.user_id WHERE q.id = ?`, id)
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
    `SELECT ${SUPPORT_COLUMNS} FROM qnas q LEFT JOIN users u ON u.id = q.user_id
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
