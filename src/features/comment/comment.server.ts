/**
 * Comments in D1 (spec §3 comment states, §5 validation, §6 login required; spec §7 comment, reaction, reply,
 * block-user). Adult series: their comments are read and written only by readers who may see the series
 * (src/features/age rules); a guest or a minor gets ADULT_ONLY_CONTENTS.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { alarmNow } from '../alarm/alarm.server.ts'
import { commentBan, REPLY_COUNT } from './moderation.server.ts'
import type { CommentBan } from './moderation.ts'
import { isoAfter } from '../../lib/time.ts'
import type { CommentsRow, EpisodesRow, SeriesRow, UserBlocksRow, UsersRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, type Flag } from '../../lib/server/rows.ts'
import { isAdult, type AgeEdition } from '../age/age.ts'
import { readerAdult } from '../age/age.server.ts'
import {
  authorName,
  BLIND_AFTER_REPORTS,
  checkText,
  encodeCursor,
  PAGE_SIZE,
  POST_LIMIT,
  POST_WINDOW_MS,
  REPLY_PAGE_SIZE,
  shownText,
  type CommentState,
  type Cursor,
  type PostInput,
  type Reaction,
  type Sort,
  type TextCheck,
} from './comment.ts'
import { bannedWords } from '../../lib/text/banned.server.ts'

/** Who is reading: the signed-in reader (null: guest) and the jp not-logged-in-adult cookie. */
export type Viewer = { userId: number | null; adultCookie?: string | undefined }

export type Scope = {
  seriesId: number
  episodeId: number | null
  seriesTitle: string
  episodeNo: number | null
  episodeTitle: string | null
  isAdult: boolean
}

export type CommentView = {
  id: number
  contentsId: number
  episodeId: number | null
  parentId: number | null
  author: { id: number; name: string }
  text: string | null
  /** Set when the text is hidden: BLIND, BLOCK or DELETED (spec §3). */
  notice: CommentState | null
  reported: boolean
  likeCount: number
  dislikeCount: number
  replyCount: number
  createdAt: string
  mine: boolean
  myReactions: Reaction[]
}

export type CommentPage = { items: CommentView[]; nextCursor: string | null }

/** A row of COLUMNS; `mine`: the viewer's reactions, comma-separated. */
type Row = Pick<
  CommentsRow,
  | 'id'
  | 'series_id'
  | 'episode_id'
  | 'parent_id'
  | 'user_id'
  | 'body'
  | 'state'
  | 'like_count'
  | 'dislike_count'
  | 'reply_count'
  | 'created_at'
> &
  Pick<UsersRow, 'nickname' | 'email'> & { mine: string | null }

const COLUMNS = `c.id, c.series_id, c.episode_id, c.parent_id, c.user_id, c.body, c.state, c.like_count, c.dislike_count,
  c.reply_count, c.created_at, u.nickname, u.email,
  (SELECT group_concat(r.kind) FROM comment_reactions r WHERE r.comment_id = c.id AND r.user_id = ?1) AS mine`
const NOT_BLOCKED = `NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.user_id = ?1 AND b.blocked_user_id = c.user_id)`

function toView(r: Row, viewerId: number | null): CommentView {
  const shown = shownText(r.state, r.body)
  return {
    id: r.id,
    contentsId: r.series_id,
    episodeId: r.episode_id,
    parentId: r.parent_id,
    author: { id: r.user_id, name: authorName(r.nickname, r.email, r.user_id) },
    text: shown.text,
    notice: shown.notice,
    reported: r.state === 'REPORT',
    likeCount: r.like_count,
    dislikeCount: r.dislike_count,
    replyCount: r.reply_count,
    createdAt: r.created_at,
    mine: viewerId !== null && r.user_id === viewerId,
    myReactions: (r.mine ?? '').split(',').filter(Boolean) as Reaction[],
  }
}

async function mayReadAdult(db: Db, edition: AgeEdition, viewer: Viewer): Promise<boolean> {
  return viewer.userId === null ? isAdult(edition, null, viewer.adultCookie) : readerAdult(db, viewer.userId, edition)
}

/**
 * The series (and episode) comments are about: NOT_EXIST for an unknown or unpublished series,
 * NOT_FOUND_EPISODE for an episode not of that series or not yet out, ADULT_ONLY_CONTENTS for an adult
 * series the viewer may not see.
 */
export async function commentScope(
  db: Db,
  edition: AgeEdition,
  viewer: Viewer,
  seriesId: number,
  episodeId: number | null | undefined,
  now = new Date(),
): Promise<Scope> {
  const row = await db.first<
    Pick<SeriesRow, 'title' | 'is_adult'> & { no: EpisodesRow['no'] | null; ep_title: EpisodesRow['title'] | null; ep_found: Flag }
  >(
    `SELECT s.title, s.is_adult, e.no, e.title AS ep_title, CASE WHEN e.id IS NULL THEN 0 ELSE 1 END AS ep_found
     FROM series s LEFT JOIN episodes e ON e.id = ?2 AND e.series_id = s.id AND e.published_at <= ?3
     WHERE s.id = ?1 AND s.is_published = 1`,
    seriesId,
    episodeId ?? 0,
    now.toISOString(),
  )
  if (!row) throw new AppError('NOT_EXIST')
  if (episodeId != null && !flag(row.ep_found)) throw new AppError('NOT_FOUND_EPISODE')
  if (flag(row.is_adult) && !(await mayReadAdult(db, edition, viewer))) throw new AppError('ADULT_ONLY_CONTENTS')
  return {
    seriesId,
    episodeId: episodeId ?? null,
    seriesTitle: row.title,
    episodeNo: row.no,
    episodeTitle: row.ep_title,
    isAdult: flag(row.is_adult),
  }
}

/**
 * One page of top-level comments of a scope, newest or best (likes, then newest) first. Deleted comments
 * appear (as a notice) only while they have replies; authors the viewer blocked are left out.
 */
export async function listComments(
  db: Db,
  scope: Scope,
  viewerId: number | null,
  sort: Sort,
  cursor: Cursor | null,
): Promise<CommentPage & { total: number }> {
  const after =
    cursor === null ? '' : cursor.sort === 'newest' ? 'AND c.id < ?4' : 'AND (c.like_count < ?5 OR (c.like_count = ?5 AND c.id < ?4))'
  const order = sort === 'best' ? 'c.like_count DESC, c.id DESC' : 'c.id DESC'
  const visible = `c.series_id = ?2 AND c.episode_id IS ?3 AND c.parent_id IS NULL AND c.state IS NOT 'BLOCK' AND (c.state IS NOT 'DELETED' OR c.reply_count > 0) AND ${NOT_BLOCKED}`
  const params: unknown[] = [viewerId ?? 0, scope.seriesId, scope.episodeId]
  if (cursor !== null) params.push(cursor.id)
  if (cursor?.sort === 'best') params.push(cursor.likes)
  const [rows, total] = await Promise.all([
    db.all<Row>(
      `SELECT ${COLUMNS} FROM comments c JOIN users u ON u.id = c.user_id WHERE ${visible} ${after} ORDER BY ${order} LIMIT ${PAGE_SIZE + 1}`,
      ...params,
    ),
    db.first<{ n: number }>(
      `SELECT count(*) AS n FROM comments c WHERE ${visible.replace(" AND (c.state IS NOT 'DELETED' OR c.reply_count > 0)", " AND c.state IS NOT 'DELETED'")}`,
      viewerId ?? 0,
      scope.seriesId,
      scope.episodeId,
    ),
  ])
  const page = rows.slice(0, PAGE_SIZE)
  const last = page.at(-1)
  const nextCursor =
    rows.length > PAGE_SIZE && last
      ? encodeCursor(sort === 'best' ? { sort, likes: last.like_count, id: last.id } : { sort, id: last.id })
      : null
  return { items: page.map((r) => toView(r, viewerId)), nextCursor, total: total?.n ?? 0 }
}

/** The replies of one comment, oldest first (`after`: the last reply id already shown). */
export async function listReplies(db: Db, edition: AgeEdition, viewer: Viewer, parentId: number, after = 0): Promise<CommentPage> {
  const parent = await db.first<Pick<CommentsRow, 'series_id' | 'episode_id' | 'parent_id'>>(
    `SELECT series_id, episode_id, parent_id FROM comments WHERE id = ?`,
    parentId,
  )
  if (!parent || parent.parent_id !== null) throw new AppError('NOT_EXIST')
  await commentScope(db, edition, viewer, parent.series_id, parent.episode_id)
  const rows = await db.all<Row>(
    `SELECT ${COLUMNS} FROM comments c JOIN users u ON u.id = c.user_id
     WHERE c.parent_id = ?2 AND c.id > ?3 AND c.state IS NOT 'DELETED' AND c.state IS NOT 'BLOCK' AND ${NOT_BLOCKED} ORDER BY c.id LIMIT ${REPLY_PAGE_SIZE + 1}`,
    viewer.userId ?? 0,
    parentId,
    after,
  )
  const page = rows.slice(0, REPLY_PAGE_SIZE)
  return { items: page.map((r) => toView(r, viewer.userId)), nextCursor: rows.length > REPLY_PAGE_SIZE ? String(page.at(-1)!.id) : null }
}

/** Replies of several comments at once (the server-rendered page shows them under each comment). */
export async function repliesOf(db: Db, viewerId: number | null, parentIds: number[]): Promise<Map<number, CommentView[]>> {
  const out = new Map<number, CommentView[]>()
  if (parentIds.length === 0) return out
  const rows = await db.all<Row>(
    `SELECT ${COLUMNS} FROM comments c JOIN users u ON u.id = c.user_id
     WHERE c.parent_id IN (SELECT value FROM json_each(?2)) AND c.state IS NOT 'DELETED' AND c.state IS NOT 'BLOCK' AND ${NOT_BLOCKED} ORDER BY c.id`,
    viewerId ?? 0,
    JSON.stringify(parentIds),
  )
  for (const r of rows) {
    const list = out.get(r.parent_id!) ?? []
    if (list.length < REPLY_PAGE_SIZE) list.push(toView(r, viewerId))
    out.set(r.parent_id!, list)
  }
  return out
}

/** Spec §5 text check against the prohibited words of the database. */
async function checkCommentText(db: Db, text: string): Promise<TextCheck> {
  return checkText(text, await bannedWords(db))
}

/** A refused text: INVALID_PARAMETER with the reason (and the word) the pages show (spec §5 messages). */
export class CommentTextError extends AppError {
  readonly check: Exclude<TextCheck, { ok: true }>
  constructor(check: Exclude<TextCheck, { ok: true }>) {
    super('INVALID_PARAMETER', { fields: 'text', reason: check.reason, ...(check.reason === 'BANNED' ? { word: check.word } : {}) })
    this.check = check
  }
}

/**
 * A reader an operator blocked from commenting (issue 39 point 7, `comment_bans`): UNAUTHORIZED_USER with reason
 * COMMENT_BLOCKED, until when and the operator's reason (the page shows them above the form).
 */
async function refuseBlocked(db: Db, userId: number, now: Date): Promise<void> {
  const ban = await commentBan(db, userId, now)
  if (ban) throw new CommentBlockedError(ban)
}

/** A reader blocked from commenting: UNAUTHORIZED_USER, reason COMMENT_BLOCKED, with the block (until, reason). */
export class CommentBlockedError extends AppError {
  readonly ban: CommentBan
  constructor(ban: CommentBan) {
    super('UNAUTHORIZED_USER', { reason: 'COMMENT_BLOCKED', until: ban.until })
    this.ban = ban
  }
}

/**
 * Posts a comment or a reply (a reply to a reply goes under the same top-level comment). Refusals write
 * nothing: INVALID_PARAMETER (text, spec §5), NOT_EXIST / NOT_FOUND_EPISODE / ADULT_ONLY_CONTENTS (scope),
 * NOT_EXIST (reply to a missing, deleted or hidden comment of another scope), FREQUENT_REQUEST (more than
 * 10 posts in 5 minutes), UNAUTHORIZED_USER (reason COMMENT_BLOCKED: blocked from commenting by an operator). The rate check and the insert are one statement, the reply count follows in the
 * same batch.
 */
export async function postComment(db: Db, edition: AgeEdition, userId: number, input: PostInput, now = new Date()): Promise<CommentView> {
  await refuseBlocked(db, userId, now)
  const check = await checkCommentText(db, input.text)
  if (!check.ok) throw new CommentTextError(check)
  const scope = await commentScope(db, edition, { userId }, input.contentsId, input.episodeId, now)
  let parentId: number | null = null
  if (input.parentId !== undefined) {
    const parent = await db.first<Pick<CommentsRow, 'id' | 'parent_id' | 'series_id' | 'episode_id' | 'state'>>(
      `SELECT id, parent_id, series_id, episode_id, state FROM comments WHERE id = ?`,
      input.parentId,
    )
    if (
      !parent ||
      parent.series_id !== scope.seriesId ||
      parent.episode_id !== scope.episodeId ||
      (parent.state !== null && parent.state !== 'REPORT')
    ) {
      throw new AppError('NOT_EXIST')
    }
    parentId = parent.parent_id ?? parent.id
  }
  const stamp = now.toISOString()
  const statements: { sql: string; params: unknown[] }[] = [
    {
      sql: `INSERT INTO comments (series_id, episode_id, user_id, parent_id, body, created_at, updated_at)
          SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6 WHERE (SELECT count(*) FROM comments WHERE user_id = ?3 AND created_at > ?7) < ?8
            AND NOT EXISTS (SELECT 1 FROM comment_bans WHERE user_id = ?3 AND until > ?6) RETURNING id`,
      params: [scope.seriesId, scope.episodeId, userId, parentId, check.text, stamp, isoAfter(now, -POST_WINDOW_MS), POST_LIMIT],
    },
  ]
  if (parentId !== null) statements.push({ sql: REPLY_COUNT, params: [parentId] })
  const [inserted] = await db.batch(statements)
  const id = firstRow<Pick<CommentsRow, 'id'>>(inserted)?.id
  if (id === undefined) {
    await refuseBlocked(db, userId, now) // blocked by an operator between the check and the insert
    throw new AppError('FREQUENT_REQUEST')
  }
  if (parentId !== null) await alarmNow(db, { reply: id }, now)
  const row = await db.first<Row>(`SELECT ${COLUMNS} FROM comments c JOIN users u ON u.id = c.user_id WHERE c.id = ?2`, userId, id)
  return toView(row!, userId)
}

/** The reader deletes their own comment (state DELETED; its replies stay). NOT_EXIST for anyone else's. */
export async function deleteComment(
  db: Db,
  userId: number,
  id: number,
  now = new Date(),
): Promise<{ id: number; contentsId: number; episodeId: number | null }> {
  const row = await db.first<Pick<CommentsRow, 'parent_id' | 'series_id' | 'episode_id'>>(
    `SELECT parent_id, series_id, episode_id FROM comments WHERE id = ? AND user_id = ? AND state IS NOT 'DELETED'`,
    id,
    userId,
  )
  if (!row) throw new AppError('NOT_EXIST')
  const statements = [
    { sql: `UPDATE comments SET state = 'DELETED', updated_at = ? WHERE id = ?`, params: [now.toISOString(), id] as unknown[] },
  ]
  if (row.parent_id !== null) statements.push({ sql: REPLY_COUNT, params: [row.parent_id] })
  await db.batch(statements)
  return { id, contentsId: row.series_id, episodeId: row.episode_id }
}

/**
 * Reactions (spec §7 comment/reaction): LIKE and DISLIKE toggle and exclude each other; REPORT is once per
 * reader, never on one's own comment (INVALID_PARAMETER), marks the comment REPORT and hides it (BLIND)
 * from the third report. Deleted or hidden comments: NOT_EXIST; adult series need the age rules.
 */
export async function react(db: Db, edition: AgeEdition, userId: number, id: number, kind: Reaction, now = new Date()) {
  const row = await db.first<Pick<CommentsRow, 'user_id' | 'series_id' | 'episode_id' | 'state'> & { mine: string | null }>(
    `SELECT c.user_id, c.series_id, c.episode_id, c.state,
      (SELECT group_concat(r.kind) FROM comment_reactions r WHERE r.comment_id = c.id AND r.user_id = ?2) AS mine
     FROM comments c WHERE c.id = ?1`,
    id,
    userId,
  )
  if (!row || (row.state !== null && row.state !== 'REPORT')) throw new AppError('NOT_EXIST')
  await commentScope(db, edition, { userId }, row.series_id, row.episode_id, now)
  const mine = new Set((row.mine ?? '').split(',').filter(Boolean))
  const stamp = now.toISOString()
  const statements: { sql: string; params: unknown[] }[] = []
  if (kind === 'REPORT') {
    if (row.user_id === userId) throw new AppError('INVALID_PARAMETER', { fields: 'kind' })
    statements.push(
      {
        sql: `INSERT OR IGNORE INTO comment_reactions (comment_id, user_id, kind, created_at) VALUES (?, ?, 'REPORT', ?)`,
        params: [id, userId, stamp],
      },
      {
        sql: `UPDATE comments SET report_count = (SELECT count(*) FROM comment_reactions WHERE comment_id = ?1 AND kind = 'REPORT'),
              state = CASE WHEN state IS NOT NULL AND state <> 'REPORT' THEN state
                           WHEN (SELECT count(*) FROM comment_reactions WHERE comment_id = ?1 AND kind = 'REPORT' AND reviewed_at IS NULL) >= ?2
                           THEN 'BLIND' ELSE 'REPORT' END
              WHERE id = ?1`,
        params: [id, BLIND_AFTER_REPORTS],
      },
    )
  } else {
    const other = kind === 'LIKE' ? 'DISLIKE' : 'LIKE'
    statements.push({ sql: `DELETE FROM comment_reactions WHERE comment_id = ? AND user_id = ? AND kind = ?`, params: [id, userId, other] })
    statements.push(
      mine.has(kind)
        ? { sql: `DELETE FROM comment_reactions WHERE comment_id = ? AND user_id = ? AND kind = ?`, params: [id, userId, kind] }
        : {
            sql: `INSERT OR IGNORE INTO comment_reactions (comment_id, user_id, kind, created_at) VALUES (?, ?, ?, ?)`,
            params: [id, userId, kind, stamp],
          },
    )
    statements.push({
      sql: `UPDATE comments SET like_count = (SELECT count(*) FROM comment_reactions WHERE comment_id = ?1 AND kind = 'LIKE'),
            dislike_count = (SELECT count(*) FROM comment_reactions WHERE comment_id = ?1 AND kind = 'DISLIKE') WHERE id = ?1`,
      params: [id],
    })
  }
  await db.batch(statements)
  const after = await db.first<Pick<CommentsRow, 'like_count' | 'dislike_count' | 'state'> & { mine: string | null }>(
    `SELECT like_count, dislike_count, state, (SELECT group_concat(kind) FROM comment_reactions WHERE comment_id = ?1 AND user_id = ?2) AS mine FROM comments WHERE id = ?1`,
    id,
    userId,
  )
  return {
    id,
    likeCount: after!.like_count,
    dislikeCount: after!.dislike_count,
    state: after!.state,
    myReactions: (after!.mine ?? '').split(',').filter(Boolean) as Reaction[],
    contentsId: row.series_id,
    episodeId: row.episode_id,
  }
}

/** Spec §7 comment/block-user: the reader no longer sees that author's comments. Self: INVALID_PARAMETER. */
export async function blockUser(db: Db, userId: number, target: number, now = new Date()): Promise<void> {
  if (target === userId) throw new AppError('INVALID_PARAMETER', { fields: 'userId' })
  const exists = await db.first(`SELECT 1 AS x FROM users WHERE id = ? AND deleted_at IS NULL`, target)
  if (!exists) throw new AppError('NOT_FOUND_USER')
  await db.run(
    `INSERT OR IGNORE INTO user_blocks (user_id, blocked_user_id, created_at) VALUES (?, ?, ?)`,
    userId,
    target,
    now.toISOString(),
  )
}

export async function unblockUser(db: Db, userId: number, target: number): Promise<void> {
  await db.run(`DELETE FROM user_blocks WHERE user_id = ? AND blocked_user_id = ?`, userId, target)
}

export async function blockedUsers(db: Db, userId: number): Promise<{ id: number; name: string; since: string }[]> {
  const rows = await db.all<Pick<UsersRow, 'id' | 'nickname' | 'email'> & Pick<UserBlocksRow, 'created_at'>>(
    `SELECT u.id, u.nickname, u.email, b.created_at FROM user_blocks b JOIN users u ON u.id = b.blocked_user_id WHERE b.user_id = ? ORDER BY b.created_at DESC LIMIT 200`,
    userId,
  )
  return rows.map((r) => ({ id: r.id, name: authorName(r.nickname, r.email, r.id), since: r.created_at }))
}

export type MyComment = CommentView & { seriesTitle: string; episodeNo: number | null }

/** /comment/my: the reader's own comments and replies, newest first (cursor: the last id shown). */
export async function myComments(
  db: Db,
  userId: number,
  before: number | null,
): Promise<{ items: MyComment[]; nextCursor: string | null }> {
  const rows = await db.all<Row & Pick<SeriesRow, 'title'> & { no: EpisodesRow['no'] | null }>(
    `SELECT ${COLUMNS}, s.title, e.no FROM comments c JOIN users u ON u.id = c.user_id JOIN series s ON s.id = c.series_id
     LEFT JOIN episodes e ON e.id = c.episode_id
     WHERE c.user_id = ?1 AND c.state IS NOT 'DELETED' AND c.id < ?2 ORDER BY c.id DESC LIMIT ${PAGE_SIZE + 1}`,
    userId,
    before ?? 2_147_483_647,
  )
  const page = rows.slice(0, PAGE_SIZE)
  return {
    items: page.map((r) => ({ ...toView(r, userId), seriesTitle: r.title, episodeNo: r.no })),
    nextCursor: rows.length > PAGE_SIZE ? String(page.at(-1)!.id) : null,
  }
}
