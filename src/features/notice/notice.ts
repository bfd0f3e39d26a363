/** Notice rules (spec §2 /notice, /notice/detail/{id}): list pages and what a reader may open. */

type NoticeCategory = 'NOTICE' | 'EVENT' | 'UPDATE' | 'MAINTENANCE'
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
