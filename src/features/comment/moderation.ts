/**
 * Comment moderation by operators (issue 39 point 7; docs/API.md "Operator API" `/api/ops/comments/*`,
 * `npm run ops -- comments …`): the requests of the reported list, of hiding and restoring a comment and of blocking a
 * reader from commenting for a period. The rules without I/O; moderation.server.ts runs them on D1.
 */
import { z } from 'zod'
import { RowIdText } from '../../lib/ids.ts'
import { OpsListQuery, OpsReason } from '../../lib/ops.ts'

/** Days a reported-comments query looks back at most. */
export const MAX_REPORTED_DAYS = 366
/** Days a reader may be blocked from commenting at once (a year and a day). */
export const MAX_BLOCK_DAYS = 366

/** The orders of the reported list: latest report first, or most open reports first (then latest report). */
export const REPORTED_SORTS = ['newest', 'most'] as const

/**
 * `GET /api/ops/comments/reported`: comments with reports not reviewed yet, of the last `days` days (by their latest
 * report) and of one series, a page at a time. `newest` pages by cursor (the `next` of the page before); `most` is one
 * page, the `limit` most reported.
 */
export const ReportedQuery = OpsListQuery.extend({
  days: RowIdText.refine((n) => n <= MAX_REPORTED_DAYS).optional(),
  series: RowIdText.optional(),
  sort: z.enum(REPORTED_SORTS).default('newest'),
})
export type ReportedQuery = z.infer<typeof ReportedQuery>

/** `POST /api/ops/readers/{id}/comment-block`: for how many days (1 to 366), and why (shown to the reader). */
export const CommentBlockRequest = z.object({
  days: z.number().int().min(1).max(MAX_BLOCK_DAYS),
  reason: OpsReason,
})

/** A reported comment as the operator's list shows it. */
export type ReportedComment = {
  id: number
  seriesId: number
  seriesTitle: string
  episodeId: number | null
  episodeNo: number | null
  parentId: number | null
  author: { id: number; nickname: string | null }
  text: string
  state: 'REPORT' | 'BLIND' | null
  /** Reports not reviewed yet, and every report the comment ever had. */
  openReports: number
  reports: number
  lastReportedAt: string
  createdAt: string
}

/** A reader's block from commenting (`comment_bans`): until when, why, by whom. */
export type CommentBan = { userId: number; until: string; reason: string; createdBy: string; createdAt: string }
