/**
 * Comment moderation on D1 (issue 39 point 7; moderation.ts): the operator's list of reported comments, hiding
 * (state BLOCK: gone from readers' lists and counts) and restoring a comment, both marking its open reports reviewed,
 * and blocking a reader from commenting until a time (`comment_bans`). Each change is one D1 batch whose first
 * statement is conditional (a second of 40 concurrent calls finds nothing to change) and whose audit row follows it,
 * written only when that statement changed a row.
 */
import type { Db } from '../../lib/server/db.ts'
import type { CommentsRow, EpisodesRow, SeriesRow, UsersRow } from '../../lib/server/db-types.ts'
import { rows } from '../../lib/server/rows.ts'
import { opsPage, type OpsPage } from '../../lib/ops.ts'
import { auditStatement, type AuditRecord } from '../operator/audit.server.ts'
import type { CommentBan, ReportedComment, ReportedQuery } from './moderation.ts'

/** The audit fields the route fills (who, when, which route, why); the target and snapshots are added here. */
type AuditOf = Omit<AuditRecord, 'before' | 'after' | 'target' | 'detail'>

const DAY_MS = 86_400_000

type ReportedRow = Pick<
  CommentsRow,
  'id' | 'series_id' | 'episode_id' | 'parent_id' | 'user_id' | 'body' | 'state' | 'report_count' | 'created_at'
> &
  Pick<SeriesRow, 'title'> &
  Pick<UsersRow, 'nickname'> & { no: EpisodesRow['no'] | null; open_reports: number; last_reported_at: string; seq: number }

/**
 * Comments with reports not reviewed yet (hidden and deleted ones left out): latest report first (`newest`, a page
 * at a time by the latest report's sequence) or most open reports first (`most`, one page).
 */
export async function listReported(db: Db, q: ReportedQuery, now = new Date()): Promise<OpsPage<ReportedComment>> {
  const params: unknown[] = []
  const where = [`r.kind = 'REPORT'`, 'r.reviewed_at IS NULL', `c.state IS NOT 'DELETED'`, `c.state IS NOT 'BLOCK'`]
  if (q.series !== undefined) {
    where.push('c.series_id = ?')
    params.push(q.series)
  }
  const having: string[] = []
  if (q.days !== undefined) {
    having.push('max(r.created_at) > ?')
    params.push(new Date(now.getTime() - q.days * DAY_MS).toISOString())
  }
  const paged = q.sort === 'newest'
  if (paged && q.cursor !== undefined) {
    having.push('max(r.rowid) < ?')
    params.push(q.cursor)
  }
  const list = await db.all<ReportedRow>(
    `SELECT c.id, c.series_id, c.episode_id, c.parent_id, c.user_id, c.body, c.state, c.report_count, c.created_at, s.title,
       u.nickname, e.no, count(*) AS open_reports, max(r.created_at) AS last_reported_at, max(r.rowid) AS seq
     FROM comment_reactions r JOIN comments c ON c.id = r.comment_id JOIN series s ON s.id = c.series_id
       JOIN users u ON u.id = c.user_id LEFT JOIN episodes e ON e.id = c.episode_id
     WHERE ${where.join(' AND ')}
     GROUP BY c.id ${having.length ? `HAVING ${having.join(' AND ')}` : ''}
     ORDER BY ${paged ? 'seq DESC' : 'open_reports DESC, seq DESC'} LIMIT ?`,
    ...params,
    paged ? q.limit + 1 : q.limit,
  )
  const page = opsPage(list, q.limit, (r) => r.seq)
  return {
    next: paged ? page.next : null,
    items: page.items.map((r) => ({
      id: r.id,
      seriesId: r.series_id,
      seriesTitle: r.title,
      episodeId: r.episode_id,
      episodeNo: r.no,
      parentId: r.parent_id,
      author: { id: r.user_id, nickname: r.nickname },
      text: r.body,
      state: r.state === 'REPORT' || r.state === 'BLIND' ? r.state : null,
      openReports: r.open_reports,
      reports: r.report_count,
      lastReportedAt: r.last_reported_at,
      createdAt: r.created_at,
    })),
  }
}

/** A comment as the audit keeps it: its place, author, text, state and report count. */
const COMMENT_OBJECT = `json_object('id', id, 'series_id', series_id, 'episode_id', episode_id, 'parent_id', parent_id,
  'user_id', user_id, 'body', body, 'state', state, 'report_count', report_count, 'updated_at', updated_at)`

/** What a reply's parent counts: its replies readers see (neither deleted nor hidden). */
export const REPLY_COUNT = `UPDATE comments SET reply_count = (SELECT count(*) FROM comments r WHERE r.parent_id = ?1 AND r.state IS NOT 'DELETED' AND r.state IS NOT 'BLOCK') WHERE id = ?1`

/** A comment after an operator's review: where it is, whose, its state (BLOCK: hidden; null: visible) and reports. */
export type ModeratedComment = {
  id: number
  seriesId: number
  episodeId: number | null
  parentId: number | null
  userId: number
  state: CommentsRow['state']
  reports: number
  updatedAt: string
}
export type Moderated = { changed: boolean; comment: ModeratedComment }

/**
 * Hides (`hide`: state BLOCK) or restores (`restore`: state null, visible) a comment and marks its open reports
 * reviewed, in one batch with its audit row: `changed` false when it was so already (nothing written), null when there
 * is no such comment (or it was deleted by its author).
 */
export async function moderateComment(db: Db, id: number, action: 'hide' | 'restore', audit: AuditOf): Promise<Moderated | null> {
  const found = await db.first<Pick<CommentsRow, 'parent_id' | 'user_id'> & { json: string }>(
    `SELECT parent_id, user_id, ${COMMENT_OBJECT} AS json FROM comments WHERE id = ? AND state IS NOT 'DELETED'`,
    id,
  )
  if (!found) return null
  const before = JSON.parse(found.json) as Record<string, unknown>
  const hide = action === 'hide'
  const statements: { sql: string; params: unknown[] }[] = [
    {
      // the one conditional statement: a second call (or the 40th concurrent one) finds the state set and changes nothing
      sql: hide
        ? `UPDATE comments SET state = 'BLOCK', updated_at = ?2 WHERE id = ?1 AND state IS NOT 'BLOCK' AND state IS NOT 'DELETED' RETURNING id`
        : `UPDATE comments SET state = NULL, updated_at = ?2 WHERE id = ?1 AND state IN ('BLOCK', 'BLIND', 'REPORT') RETURNING id`,
      params: [id, audit.at],
    },
    auditStatement(
      {
        ...audit,
        action: hide ? 'comment.hide' : 'comment.restore',
        target: `comment:${id}`,
        before,
        after: null,
        detail: { commentId: id, userId: found.user_id },
      },
      { afterSql: { sql: `SELECT ${COMMENT_OBJECT} FROM comments WHERE id = ?`, params: [id] }, onlyIfChanged: true },
    ),
    {
      // the reports this review answers; only this batch's review marks them (the comment is in the state it set)
      sql: `UPDATE comment_reactions SET reviewed_at = ?2 WHERE comment_id = ?1 AND kind = 'REPORT' AND reviewed_at IS NULL
            AND (SELECT updated_at FROM comments WHERE id = ?1) = ?2`,
      params: [id, audit.at],
    },
  ]
  if (found.parent_id !== null) statements.push({ sql: REPLY_COUNT, params: [found.parent_id] })
  const [updated] = await db.batch(statements)
  const comment = await db.first<ModeratedComment>(
    `SELECT id, series_id AS seriesId, episode_id AS episodeId, parent_id AS parentId, user_id AS userId, state,
       report_count AS reports, updated_at AS updatedAt FROM comments WHERE id = ?`,
    id,
  )
  return { changed: rows(updated).length > 0, comment: comment! }
}

const BAN_COLUMNS = 'user_id AS userId, until, reason, created_by AS createdBy, created_at AS createdAt'
const BAN_OBJECT = `json_object('user_id', user_id, 'until', until, 'reason', reason, 'created_by', created_by, 'created_at', created_at)`
const banJson = (userId: number) => ({ sql: `SELECT ${BAN_OBJECT} FROM comment_bans WHERE user_id = ?`, params: [userId] })

/** The reader's block from commenting in force at `now`, or null. */
export async function commentBan(db: Db, userId: number, now = new Date()): Promise<CommentBan | null> {
  return db.first<CommentBan>(`SELECT ${BAN_COLUMNS} FROM comment_bans WHERE user_id = ? AND until > ?`, userId, now.toISOString())
}

export type BanChange = { changed: boolean; ban: CommentBan | null }

/**
 * Blocks reader `userId` from commenting for `days` days with `reason` (shown to them), in one batch with its audit
 * row. The upsert is the one conditional statement: a reader blocked already keeps their block (`changed` false,
 * nothing written; unblock first to change it). Null when there is no such reader (or they withdrew).
 */
export async function blockCommenter(db: Db, userId: number, days: number, reason: string, audit: AuditOf): Promise<BanChange | null> {
  const user = await db.first<{ ban: string | null }>(
    `SELECT (SELECT ${BAN_OBJECT} FROM comment_bans WHERE user_id = u.id) AS ban FROM users u WHERE u.id = ? AND u.deleted_at IS NULL`,
    userId,
  )
  if (!user) return null
  const until = new Date(new Date(audit.at).getTime() + days * DAY_MS).toISOString()
  const [upserted] = await db.batch([
    {
      sql: `INSERT INTO comment_bans (user_id, until, reason, created_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (user_id) DO UPDATE SET until = excluded.until, reason = excluded.reason, created_by = excluded.created_by,
              created_at = excluded.created_at
            WHERE comment_bans.until <= excluded.created_at
            RETURNING user_id`,
      params: [userId, until, reason, audit.operator, audit.at],
    },
    auditStatement(
      {
        ...audit,
        action: 'comment.block',
        target: `user:${userId}`,
        before: user.ban === null ? null : (JSON.parse(user.ban) as unknown),
        after: null,
        detail: { userId, days, until },
      },
      { afterSql: banJson(userId), onlyIfChanged: true },
    ),
  ])
  const ban = await db.first<CommentBan>(`SELECT ${BAN_COLUMNS} FROM comment_bans WHERE user_id = ?`, userId)
  return { changed: rows(upserted).length > 0, ban }
}

/**
 * Ends reader `userId`'s block now (its row kept, `until` set to now), in one batch with its audit row: `changed`
 * false when they were not blocked (nothing written); null when there is no such reader.
 */
export async function unblockCommenter(db: Db, userId: number, audit: AuditOf): Promise<BanChange | null> {
  const user = await db.first<{ ban: string | null }>(
    `SELECT (SELECT ${BAN_OBJECT} FROM comment_bans WHERE user_id = u.id) AS ban FROM users u WHERE u.id = ?`,
    userId,
  )
  if (!user) return null
  const [updated] = await db.batch([
    { sql: `UPDATE comment_bans SET until = ?2 WHERE user_id = ?1 AND until > ?2 RETURNING user_id`, params: [userId, audit.at] },
    auditStatement(
      {
        ...audit,
        action: 'comment.unblock',
        target: `user:${userId}`,
        before: user.ban === null ? null : (JSON.parse(user.ban) as unknown),
        after: null,
        detail: { userId },
      },
      { afterSql: banJson(userId), onlyIfChanged: true },
    ),
  ])
  const ban = await db.first<CommentBan>(`SELECT ${BAN_COLUMNS} FROM comment_bans WHERE user_id = ?`, userId)
  return { changed: rows(updated).length > 0, ban }
}
