/**
 * Fields shared by the operator API's requests (docs/API.md "Operator API", `npm run ops`): the operator's reason,
 * required for every change, and a date or instant as an operator types it.
 */
import { z } from 'zod'
import { RowIdText } from './ids.ts'

/** Why the operator makes a change: kept in a column where the table has one, else in the route's JSON log line. */
export const OpsReason = z.string().trim().min(1).max(200)

/** `YYYY-MM-DD` (through the end of that day, UTC: `expiryInstant`) or an ISO instant with its offset. */
export const OpsDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })])

/** An `OpsDate` as the instant something starts: a date is that day's start (UTC), an instant itself (ISO, UTC). */
export const OpsStart = OpsDate.transform((d) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d}T00:00:00.000Z` : d).toISOString())

/** The body of an operator change that takes nothing but its reason (end, expire, unpublish…). */
export const OpsReasonRequest = z.object({ reason: OpsReason })

/**
 * An operator token a deployed edition accepts (issue 34 point 6): at least 32 characters, at least 12 of them
 * different (what `openssl rand -base64 32` gives); a weaker one leaves the operator API off (404).
 */
export function isStrongOpsToken(token: string): boolean {
  return token.length >= 32 && new Set(token).size >= 12
}

/** Rows of one page of an operator list (`GET /api/ops/series`, `…/episodes`, `/notices`, `/banners`, `/events`). */
export const OPS_LIST_DEFAULT = 50
/** The most rows a page of an operator list holds (docs/QUALITY.md: every list bounded). */
export const OPS_LIST_MAX = 200

/**
 * One page of an operator list: `limit` rows (1 to `OPS_LIST_MAX`, default `OPS_LIST_DEFAULT`) after `cursor`, the
 * `next` of the page before (a positive whole number; absent: the first page).
 */
export const OpsListQuery = z.object({
  limit: RowIdText.refine((n) => n <= OPS_LIST_MAX).default(OPS_LIST_DEFAULT),
  cursor: RowIdText.optional(),
})
export type OpsListQuery = z.infer<typeof OpsListQuery>

/**
 * A page of an operator list: its rows and the cursor of the next page (null: the last one); the route adds the
 * edition's time zone, in which the command line prints the rows' times.
 */
export type OpsPage<T> = { items: T[]; next: string | null }

/**
 * A page from `limit + 1` rows read in the list's order: the extra row only says a next page exists, whose cursor is
 * `key` of the page's last row.
 */
export function opsPage<T>(rows: T[], limit: number, key: (row: T) => number): OpsPage<T> {
  const items = rows.slice(0, limit)
  return { items, next: rows.length > limit ? String(key(items.at(-1)!)) : null }
}
