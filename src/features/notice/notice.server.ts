/** Notice reads from D1: the paginated list and one notice. */
import type { Db } from '../../lib/server/db.ts'
import type { SeriesRow } from '../../lib/server/db-types.ts'
import { flag, type Cols } from '../../lib/server/rows.ts'
import { NOTICE_PAGE_SIZE, type Notice, type NoticeSummary } from './notice.ts'

/**
 * One page of general notices (not attached to a series), pinned first then newest (1 query;
 * `size + 1` rows tell whether a next page exists). Notices dated in the future are not shown yet.
 */
export async function listNotices(
  db: Db,
  page: number,
  now: Date,
  size = NOTICE_PAGE_SIZE,
): Promise<{ items: NoticeSummary[]; hasNext: boolean }> {
  const rows = await db.all<Cols<'notices', 'id' | 'category' | 'title' | 'is_pinned' | 'published_at'>>(
    `SELECT id, category, title, is_pinned AS isPinned, published_at AS publishedAt FROM notices
     WHERE series_id IS NULL AND published_at <= ? ORDER BY is_pinned DESC, published_at DESC, id DESC LIMIT ? OFFSET ?`,
    now.toISOString(),
    size + 1,
    (page - 1) * size,
  )
  return { items: rows.slice(0, size).map((r): NoticeSummary => ({ ...r, isPinned: flag(r.isPinned) })), hasNext: rows.length > size }
}

/**
 * One published notice (1 query), or null. A notice attached to an adult series is withheld unless the
 * audience may see adult series (its title would name the series).
 */
export async function noticeDetail(db: Db, id: number, now: Date, showAdult: boolean): Promise<Notice | null> {
  const row = await db.first<
    Cols<'notices', 'id' | 'category' | 'title' | 'body' | 'is_pinned' | 'published_at' | 'series_id'> & {
      seriesTitle: SeriesRow['title'] | null
      isAdult: SeriesRow['is_adult'] | null
    }
  >(
    `SELECT n.id, n.category, n.title, n.body, n.is_pinned AS isPinned, n.published_at AS publishedAt, n.series_id AS seriesId,
       s.title AS seriesTitle, s.is_adult AS isAdult
     FROM notices n LEFT JOIN series s ON s.id = n.series_id AND s.is_published = 1
     WHERE n.id = ? AND n.published_at <= ?`,
    id,
    now.toISOString(),
  )
  if (!row) return null
  if (row.seriesId !== null && (row.isAdult === null || (flag(row.isAdult) && !showAdult))) return null
  const { isAdult: _, ...notice } = row
  return { ...notice, isPinned: flag(row.isPinned) }
}

/** Spec §9: the notice count is cached 5 minutes (KV; 300 s is above KV's 60 s minimum TTL). */
const NOTICE_COUNT_TTL_S = 300
const NOTICE_COUNT_KEY = 'notice:count'

/**
 * Number of published general notices, from KV when a count younger than 5 minutes is there, else from
 * D1 (1 query) and stored for the next 5 minutes. A KV failure falls back to D1.
 */
export async function noticeCount(db: Db, kv: KVNamespace | undefined, now: Date): Promise<number> {
  const cached = await kv?.get(NOTICE_COUNT_KEY).catch(() => null)
  if (cached != null && /^\d+$/.test(cached)) return Number(cached)
  const row = await db.first<{ n: number }>(
    `SELECT COUNT(*) AS n FROM notices WHERE series_id IS NULL AND published_at <= ?`,
    now.toISOString(),
  )
  const n = row?.n ?? 0
  await kv?.put(NOTICE_COUNT_KEY, String(n), { expirationTtl: NOTICE_COUNT_TTL_S }).catch(() => undefined)
  return n
}
