/**
 * Contact form (QnA) rules without I/O (spec §2 /qna and /qna/register, §3 contact request statuses WAIT and
 * COMPLETED, §5 contact form, §8 LIMIT_QNA_COUNT).
 */
import { z } from 'zod'
import { wallClock } from '../../lib/time.ts'
import { cleanText } from '../../lib/text/clean.ts'
import { OpsDate, OpsListQuery, OpsReason, OpsStart } from '../../lib/ops.ts'
import { imageKind, type ImageExt } from '../../lib/image-kind.ts'
import { RowId } from '../../lib/ids.ts'

/** The subjects a question is filed under (spec silent: the usual ones of a reading service). */
export const QNA_CATEGORIES = ['ACCOUNT', 'PAYMENT', 'COIN', 'CONTENT', 'VIEWER', 'EVENT', 'ETC'] as const
export type QnaCategory = (typeof QNA_CATEGORIES)[number]
export type QnaStatus = 'WAIT' | 'COMPLETED'

export const MAX_TITLE_LENGTH = 100
/** Spec §5: "maximum text length (value not shown)"; 2000 characters here. */
export const MAX_BODY_LENGTH = 2000
/** Spec §8 LIMIT_QNA_COUNT: questions per reader per day (the edition's calendar day). */
export const DAILY_QNA_LIMIT = 5
export const QNA_PAGE_SIZE = 20

const text = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform(cleanText)
    .pipe(z.string().min(1).max(max))

export const QnaBody = z.object({
  category: z.enum(QNA_CATEGORIES),
  title: text(MAX_TITLE_LENGTH),
  text: text(MAX_BODY_LENGTH),
})
export type QnaInput = z.infer<typeof QnaBody>

/**
 * Issue 37 point 4: what a reader can report about an episode from the viewer — a missing or broken image, images in
 * the wrong order, a text or translation error, offensive content, or something else (described in the text).
 */
export const EPISODE_PROBLEMS = ['IMAGE', 'ORDER', 'TEXT', 'OFFENSIVE', 'OTHER'] as const
export type EpisodeProblem = (typeof EPISODE_PROBLEMS)[number]
/** Reports a reader may file a day, over all episodes (each episode once a day: `qnas_report_once`, migration 0047). */
export const DAILY_REPORT_LIMIT = 10
/** The longest device description kept with a report (a User-Agent is rarely past 200 characters). */
const MAX_DEVICE_LENGTH = 300

/** An empty or blank optional text is no text (a plain form sends its empty textarea as ''). */
const optionalText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.length <= max * 2 && cleanText(v) === '' ? undefined : v), text(max).optional())

/** `POST /api/v1/qna/report` and the /qna/report form: the episode, the problem, and a text (required for OTHER). */
export const ReportBody = z
  .object({ episodeId: RowId, problem: z.enum(EPISODE_PROBLEMS), text: optionalText(MAX_BODY_LENGTH) })
  .refine((r) => r.problem !== 'OTHER' || r.text !== undefined, { path: ['text'], message: 'describe the problem' })
export type ReportInput = z.infer<typeof ReportBody>

/** The reader's device as a report keeps it: their browser's User-Agent, cleaned and cut to 300 characters. */
export const deviceOf = (userAgent: string | undefined): string | null =>
  userAgent
    ? cleanText(userAgent.slice(0, MAX_DEVICE_LENGTH * 2))
        .replace(/\s+/g, ' ')
        .slice(0, MAX_DEVICE_LENGTH) || null
    : null

/** UTC instant of the start of `now`'s calendar day in `timeZone` (the daily limit resets then). */
export function dayStart(timeZone: string, now: Date = new Date()): Date {
  const { hour, minute, second } = wallClock(now, timeZone)
  const elapsedMs = ((hour * 60 + minute) * 60 + second) * 1000 + now.getUTCMilliseconds()
  return new Date(now.getTime() - elapsedMs)
}

/** Spec §5: up to 3 images, 3 MB each. */
const MAX_IMAGES = 3
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024
/** Largest contact-form request: three full images plus the text fields. */
export const MAX_QNA_BODY_BYTES = MAX_IMAGES * MAX_IMAGE_BYTES + 64 * 1024

/** Spec §5 attachment check: at most 3, each a real image of at most 3 MB (empty file inputs are ignored). */
export function checkImages(files: { size: number; bytes: Uint8Array }[]): { ok: true; kinds: ImageExt[] } | { ok: false } {
  const real = files.filter((f) => f.size > 0)
  if (real.length > MAX_IMAGES) return { ok: false }
  const kinds: ImageExt[] = []
  for (const f of real) {
    const kind = f.size <= MAX_IMAGE_BYTES ? imageKind(f.bytes) : null
    if (!kind) return { ok: false }
    kinds.push(kind)
  }
  return { ok: true, kinds }
}

/**
 * Support's answer to a question (docs/API.md `POST /api/ops/qna/{id}/answer`, `npm run ops -- support answer`): the
 * text the reader reads on /qna and in the answer mail, cleaned like a question's, and the operator's reason (no column
 * for it: the route logs it).
 */
export const QnaAnswerRequest = z.object({ answer: text(MAX_BODY_LENGTH), reason: OpsReason })
export type QnaAnswerRequest = z.infer<typeof QnaAnswerRequest>

/** The longest text `support search` looks for. */
export const MAX_SEARCH_TEXT = 100

/**
 * `GET /api/ops/qna/search` (issue 39 point 6, `npm run ops -- support search`): questions answered or not, newest first,
 * a page at a time, whose title, text or answer contain `q` (any case for A to Z), of one reader (`email`: the address
 * the answer goes to, or the account's), one category, one status, filed from `from` (a date: its start, UTC) through
 * `to` (a date: its end, UTC).
 */
export const QnaSearchQuery = OpsListQuery.extend({
  q: z.string().trim().min(1).max(MAX_SEARCH_TEXT).optional(),
  email: z.email().max(254).optional(),
  category: z.enum(QNA_CATEGORIES).optional(),
  status: z.enum(['WAIT', 'COMPLETED']).optional(),
  from: OpsStart.optional(),
  to: OpsDate.transform((d) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T23:59:59.999Z` : d).toISOString()).optional(),
}).refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, { path: ['to'], message: 'to before from' })
export type QnaSearchQuery = z.infer<typeof QnaSearchQuery>

/** A canned reply's name (`support reply <id> --canned <name>`): 2 to 40 of a-z, 0-9 and -, a letter first. */
export const CannedName = z.string().regex(/^[a-z][a-z0-9-]{1,39}$/)

/** `POST /api/ops/qna/canned/{name}`: the reply's text in the edition's language (set or replaced), and why. */
export const CannedSetRequest = z.object({ text: text(MAX_BODY_LENGTH), reason: OpsReason })

/** `POST /api/ops/qna/{id}/reply`: answers a waiting question with the canned reply `canned`. */
export const CannedReplyRequest = z.object({ canned: CannedName, reason: OpsReason })
