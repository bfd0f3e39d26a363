/**
 * Contact form (QnA) rules without I/O (spec §2 /qna and /qna/register, §3 contact request statuses WAIT and
 * COMPLETED, §5 contact form, §8 LIMIT_QNA_COUNT).
 */
import { z } from 'zod'

/** The subjects a question is filed under (spec silent: the usual ones of a reading service). */
export const QNA_CATEGORIES = ['ACCOUNT', 'PAYMENT', 'COIN', 'CONTENT', 'VIEWER', 'EVENT', 'ETC'] as const
export type QnaCategory = (typeof QNA_CATEGORIES)[number]
export const QNA_STATUSES = ['WAIT', 'COMPLETED'] as const
export type QnaStatus = (typeof QNA_STATUSES)[number]

export const MAX_TITLE_LENGTH = 100
/** Spec §5: "maximum text length (value not shown)"; 2000 characters here. */
export const MAX_BODY_LENGTH = 2000
/** Spec §8 LIMIT_QNA_COUNT: questions per reader per day (the edition's calendar day). */
export const DAILY_QNA_LIMIT = 5
export const QNA_PAGE_SIZE = 20

/** Trims, removes control characters (line breaks kept); the text is escaped on output. */
export function cleanText(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
}

const text = (max: number) => z.string().max(max * 2).transform(cleanText).pipe(z.string().min(1).max(max))

export const QnaBody = z.object({
  category: z.enum(QNA_CATEGORIES),
  title: text(MAX_TITLE_LENGTH),
  text: text(MAX_BODY_LENGTH),
})
export type QnaInput = z.infer<typeof QnaBody>

/** UTC instant of the start of `now`'s calendar day in `timeZone` (the daily limit resets then). */
export function dayStart(timeZone: string, now: Date = new Date()): Date {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(now)
  const p = (type: string) => Number(parts.find((x) => x.type === type)?.value ?? 0)
  const elapsedMs = ((p('hour') * 60 + p('minute')) * 60 + p('second')) * 1000 + now.getUTCMilliseconds()
  return new Date(now.getTime() - elapsedMs)
}
