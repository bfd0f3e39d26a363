/**
 * The phone (and, to find a password, the e-mail ID) an SMS code was sent to, carried from the send to the code
 * step of the same page in a short-lived httpOnly cookie scoped to that page, never in the URL (issue 25 §3: a
 * personal number stays out of history, logs and Referer). It lives as long as the code (10 minutes); a refused
 * form brings them back through its flash instead. Pure: no I/O.
 */
import { z } from 'zod'
import { SMS_PURPOSES, SMS_TTL_SECONDS, type SmsPurpose } from './account.ts'

export const SMS_PENDING_COOKIE = 'sms-pending'
/** The address a reset link was just sent to, for the find-password page to name it (the URL says only `sent=1`). */
export const RESET_MAIL_SENT_COOKIE = 'reset-mail-sent'
export const SMS_PENDING_SECONDS = SMS_TTL_SECONDS

const SmsPending = z.object({ purpose: z.enum(SMS_PURPOSES), phone: z.string().max(64), id: z.string().max(254).optional() })
export type SmsPending = z.infer<typeof SmsPending>

/** The cookie's value for the sent code. */
export const smsPendingValue = (pending: SmsPending) =>
  JSON.stringify({
    purpose: pending.purpose,
    phone: pending.phone.trim(),
    ...(pending.id?.trim() ? { id: pending.id.trim().slice(0, 254) } : {}),
  })

/** The pending code's phone and ID for `purpose`; null when absent, malformed or of another purpose. */
export function readSmsPending(value: string | undefined, purpose: SmsPurpose): SmsPending | null {
  if (!value) return null
  try {
    const parsed = SmsPending.safeParse(JSON.parse(value))
    return parsed.success && parsed.data.purpose === purpose ? parsed.data : null
  } catch {
    return null
  }
}
