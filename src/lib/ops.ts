/**
 * Fields shared by the operator API's requests (docs/API.md "Operator API", `npm run ops`): the operator's reason,
 * required for every change, and a date or instant as an operator types it.
 */
import { z } from 'zod'

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
