/** Notice reads from D1 (the paginated list, one notice, the cached count) and the operator's changes. */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { OpsListQuery, OpsPage } from '../../lib/ops.ts'
import { newestFirst } from '../../lib/server/ops-list.ts'
import type { Db } from '../../lib/server/db.ts'
import type { SeriesRow } from '../../lib/server/db-types.ts'
import { flag, type Cols } from '../../lib/server/rows.ts'
import {
  NOTICE_PAGE_SIZE,
  NOTICE_UNPUBLISHED_AT,
  noticeState,
  type Notice,
  type NoticeEditRequest,
  type NoticePublishRequest,
  type NoticeSummary,
} from './notice.ts'

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

/** A notice as the operator sees it (docs/API.md `/api/ops/notices`), whatever its state. */
export type OpsNotice = Omit<Notice, 'seriesTitle'> & { state: ReturnType<typeof noticeState> }

const OPS_COLUMNS = `id, category, series_id AS seriesId, title, body, is_pinned AS isPinned, published_at AS publishedAt`
type OpsRow = Cols<'notices', 'id' | 'category' | 'series_id' | 'title' | 'body' | 'is_pinned' | 'published_at'>
const toOps = (r: OpsRow, now: Date): OpsNotice => ({ ...r, isPinned: flag(r.isPinned), state: noticeState(r.publishedAt, now) })

/**
 * After a change that may move the count of published notices: the cached count is dropped, so the next
 * /notice renders the new count (a KV failure leaves the 5-minute cache of spec §9 to expire on its own).
 */
async function forgetNoticeCount(kv: KVNamespace | undefined): Promise<void> {
  await kv?.delete(NOTICE_COUNT_KEY).catch(() => undefined)
}

/** Publishes a notice (global, or on series `seriesId`: NOT_EXIST if there is no such series). */
export async function publishNotice(db: Db, kv: KVNamespace | undefined, input: NoticePublishRequest, now: Date): Promise<OpsNotice> {
  const row = await db.first<OpsRow>(
    `INSERT INTO notices (category, series_id, title, body, is_pinned, published_at, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ?2 IS NULL OR EXISTS (SELECT 1 FROM series WHERE id = ?2)
     RETURNING ${OPS_COLUMNS}`,
    input.category,
    input.seriesId ?? null,
    input.title,
    input.body,
    input.pinned ? 1 : 0,
    input.publishedAt ?? now.toISOString(),
    now.toISOString(),
  )
  if (!row) throw new AppError('NOT_EXIST')
  await forgetNoticeCount(kv)
  return toOps(row, now)
}

/** Changes a notice's title, body or publication date (absent fields are kept); NOT_EXIST for an unknown id. */
export async function editNotice(db: Db, kv: KVNamespace | undefined, id: number, input: NoticeEditRequest, now: Date): Promise<OpsNotice> {
  const row = await db.first<OpsRow>(
    `UPDATE notices SET title = coalesce(?2, title), body = coalesce(?3, body), published_at = coalesce(?4, published_at)
      WHERE id = ?1 RETURNING ${OPS_COLUMNS}`,
    id,
    input.title ?? null,
    input.body ?? null,
    input.publishedAt ?? null,
  )
  if (!row) throw new AppError('NOT_EXIST')
  if (input.publishedAt !== undefined) await forgetNoticeCount(kv)
  return toOps(row, now)
}

/** Pins or unpins a notice (pinned ones are listed first); NOT_EXIST for an unknown id. */
export async function pinNotice(db: Db, id: number, pinned: boolean, now: Date): Promise<OpsNotice> {
  const row = await db.first<OpsRow>(`UPDATE notices SET is_pinned = ?2 WHERE id = ?1 RETURNING ${OPS_COLUMNS}`, id, pinned ? 1 : 0)
  if (!row) throw new AppError('NOT_EXIST')
  return toOps(row, now)
}

/**
 * Takes a notice down (`NOTICE_UNPUBLISHED_AT`): off the list, its page, its series page and the count.
 * NOT_EXIST for an unknown id or a notice already down (nothing changes).
 */
export async function unpublishNotice(db: Db, kv: KVNamespace | undefined, id: number, now: Date): Promise<OpsNotice> {
  const row = await db.first<OpsRow>(
    `UPDATE notices SET published_at = ?2 WHERE id = ?1 AND published_at < ?2 RETURNING ${OPS_COLUMNS}`,
    id,
    NOTICE_UNPUBLISHED_AT,
  )
  if (!row) throw new AppError('NOT_EXIST')
  await forgetNoticeCount(kv)
  return toOps(row, now)
}

/** A notice in the operator's list: as `OpsNotice`, without its body. */
export type OpsNoticeItem = Omit<OpsNotice, 'body'>

/**
 * One page of every notice, global or on a series, whatever its state, newest first (docs/API.md
 * `GET /api/ops/notices`; 1 query on the primary key).
 */
export async function listOpsNotices(db: Db, query: OpsListQuery, now: Date): Promise<OpsPage<OpsNoticeItem>> {
  return newestFirst(
    db,
    'notices',
    'id, category, series_id AS seriesId, title, is_pinned AS isPinned, published_at AS publishedAt',
    query,
    (r: Omit<OpsRow, 'body'>): OpsNoticeItem => ({ ...r, isPinned: flag(r.isPinned), state: noticeState(r.publishedAt, now) }),
  )
}
