/**
 * Notice rules (spec §2 /notice, /notice/detail/{id}): list pages and what a reader may open; the operator's
 * requests (docs/API.md `/api/ops/notices`, `npm run ops -- notice …`).
 */
import { z } from 'zod'
import { RowId } from '../../lib/ids.ts'
import { OpsReason, OpsStart } from '../../lib/ops.ts'
import { cleanText } from '../../lib/text/clean.ts'

export const NOTICE_CATEGORIES = ['NOTICE', 'EVENT', 'UPDATE', 'MAINTENANCE'] as const
type NoticeCategory = (typeof NOTICE_CATEGORIES)[number]
export type NoticeSummary = { id: number; category: NoticeCategory; title: string; isPinned: boolean; publishedAt: string }
export type Notice = NoticeSummary & { body: string; seriesId: number | null; seriesTitle: string | null }

/** Notices per list page. */
export const NOTICE_PAGE_SIZE = 5
/** Highest page number accepted (10,000 notices); beyond it is a bad parameter, not a slow query. */
const MAX_NOTICE_PAGE = 2000

/** `?page=` of the notice list: absent → 1; malformed or out of bounds → null (400 page). */
export function parsePage(raw: string | null): number | null {
  if (raw === null) return 1
  if (!/^[1-9]\d{0,3}$/.test(raw)) return null
  const n = Number(raw)
  return n <= MAX_NOTICE_PAGE ? n : null
}

/** A notice body as paragraphs (blank lines separate them; single line breaks are kept inside). */
export function paragraphs(body: string): string[][] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) =>
      p
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .filter((p) => p.length > 0)
}

/** Longest notice title and body an operator may publish (the list shows the title on one line). */
export const MAX_NOTICE_TITLE = 200
export const MAX_NOTICE_BODY = 20_000

/**
 * The publication date of an unpublished notice. The table has no status column: every reader query shows only
 * notices dated up to now, so a notice dated at the end of time is shown nowhere, and `notice edit --at` (or a new
 * publication date) brings it back.
 */
export const NOTICE_UNPUBLISHED_AT = '9999-12-31T23:59:59.999Z'

/** Where a notice stands for readers at `now`: shown, dated later (scheduled), or taken down. */
export function noticeState(publishedAt: string, now: Date): 'PUBLISHED' | 'SCHEDULED' | 'UNPUBLISHED' {
  if (publishedAt >= NOTICE_UNPUBLISHED_AT) return 'UNPUBLISHED'
  return Date.parse(publishedAt) <= now.getTime() ? 'PUBLISHED' : 'SCHEDULED'
}

/** Cleaned like a support question (`cleanText`: trimmed, control characters out, line breaks kept), 1 to `max` characters. */
const text = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform(cleanText)
    .pipe(z.string().min(1).max(max))

/** An instant an operator dates a notice at: a date is its start (UTC); never the unpublished date. */
const NoticeDate = OpsStart.refine((iso) => iso < NOTICE_UNPUBLISHED_AT && iso >= '2000-01-01', 'between 2000 and 9999')

/**
 * A new notice (docs/API.md `POST /api/ops/notices`): global, or attached to series `seriesId` (shown on its page);
 * `publishedAt` absent: now; later: it appears then.
 */
export const NoticePublishRequest = z.object({
  title: text(MAX_NOTICE_TITLE),
  body: text(MAX_NOTICE_BODY),
  category: z.enum(NOTICE_CATEGORIES).default('NOTICE'),
  seriesId: RowId.optional(),
  pinned: z.boolean().default(false),
  publishedAt: NoticeDate.optional(),
  reason: OpsReason,
})
export type NoticePublishRequest = z.infer<typeof NoticePublishRequest>

/** A change to a notice (docs/API.md `POST /api/ops/notices/{id}`): at least one of title, body, publication date. */
export const NoticeEditRequest = z
  .object({
    title: text(MAX_NOTICE_TITLE).optional(),
    body: text(MAX_NOTICE_BODY).optional(),
    publishedAt: NoticeDate.optional(),
    reason: OpsReason,
  })
  .refine((r) => r.title !== undefined || r.body !== undefined || r.publishedAt !== undefined, {
    path: ['title'],
    message: 'nothing to change',
  })
export type NoticeEditRequest = z.infer<typeof NoticeEditRequest>

/** Pins (`pinned` true: listed first) or unpins a notice (docs/API.md `POST /api/ops/notices/{id}/pin`). */
export const NoticePinRequest = z.object({ pinned: z.boolean(), reason: OpsReason })
