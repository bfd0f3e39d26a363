/**
 * Account life-cycle rules of spec §2/§4/§5/§8/§9 (issue 3 items 5, 6, 8): change and reset password, find ID
 * and find password by SMS code, phone registration, withdrawal, push settings. Pure: no I/O, the clock is an
 * argument. The zod schemas check only the shape (→ INVALID_PARAMETER); the spec's rules answer with their codes.
 */
import { z } from 'zod'
import { RowIdText } from '../../lib/ids.ts'
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/mobile'
import type { ErrorCode } from '../../lib/errors/catalogue.ts'

/** Spec §4/§9: the reset link is valid 1 hour after the request, single use. */
export const RESET_LINK_TTL_SECONDS = 60 * 60
/** Submissions of one reset ticket (a refused one, EQUAL_PASSWORD, keeps it usable) before it stops working. */
export const RESET_TICKET_MAX_ATTEMPTS = 5
/** Spec §8 Password mail FREQUENT_REQUEST ("retry in 5 minutes"): one reset mail per address per 5 minutes. */
export const RESET_MAIL_WINDOW_SECONDS = 5 * 60
/** Spec §9: SMS code valid 10 minutes (the page counts it down). */
export const SMS_TTL_SECONDS = 10 * 60
/** Spec §8/§9 EXCEED_AUTH_COUNT (max 5): wrong guesses on one SMS code, and SMS codes per phone per day. */
export const SMS_MAX_ATTEMPTS = 5
export const SMS_MAX_PER_DAY = 5
export const SMS_DAY_SECONDS = 24 * 60 * 60
/** After a correct SMS code for "find password", the new password must be set within this time. */
export const SMS_RESET_TTL_SECONDS = 10 * 60
/** Spec §2/§9: find IDs shows at most 20 IDs. */
export const FIND_ID_MAX = 20
/** Spec §9: change password at least 6 characters; reset 8 to 20. */
export const CHANGE_PASSWORD_MIN = 6
const CHANGE_PASSWORD_MAX = 64
export const RESET_PASSWORD_MIN = 8
export const RESET_PASSWORD_MAX = 20
/** ASVS 6.3.1: wrong current passwords on the change form per account per hour before DUPLICATE_LOGIN. */
export const CHANGE_PASSWORD_MAX_FAILURES = 5
export const CHANGE_PASSWORD_WINDOW_SECONDS = 60 * 60
/** Spec §3: withdrawal reasons, six slots. */
export const WITHDRAWAL_REASONS = ['RARELY_USED', 'NO_CONTENT', 'TOO_EXPENSIVE', 'OTHER_SERVICE', 'PRIVACY', 'OTHER'] as const
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number]
/** The withdrawal confirmation mail link is valid 1 hour (as the reset link). */
export const WITHDRAWAL_LINK_TTL_SECONDS = 60 * 60
export const WITHDRAWAL_DETAIL_MAX = 500

/** What an SMS code proves possession of the phone for. */
export const SMS_PURPOSES = ['FIND_ID', 'FIND_PASSWORD', 'PHONE'] as const
export type SmsPurpose = (typeof SMS_PURPOSES)[number]

const text = (max: number) => z.string().max(max)
/** A checkbox of a plain HTML form: present (any value, usually "on") means checked. */
const checkbox = z
  .string()
  .max(16)
  .optional()
  .transform((v) => v !== undefined)

/** Spec §7 PUT|POST /auth/local/change/password {oldPassword, newPassword}; the web form adds the confirmation. */
export const ChangePasswordBody = z.object({ oldPassword: text(1024), newPassword: text(1024), newPasswordConfirm: text(1024).optional() })
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>
/** Spec §7 POST /auth/local/reset/password {userId, uuid, newPassword}; the web form adds the confirmation. */
export const ResetPasswordBody = z.object({
  userId: RowIdText,
  uuid: text(128),
  newPassword: text(1024),
  newPasswordConfirm: text(1024).optional(),
})
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>
/** Spec §7 "mail password": ask for a reset link by e-mail (find password, e-mail ID tab). */
export const ResetMailBody = z.object({ email: text(1024) })
/** Ask for an SMS code. `id` (the e-mail ID) only for FIND_PASSWORD. */
export const SmsRequestBody = z.object({ purpose: z.enum(SMS_PURPOSES), phone: text(64), id: text(1024).optional() })
export type SmsRequestBody = z.infer<typeof SmsRequestBody>
export const SmsVerifyBody = z.object({
  purpose: z.enum(SMS_PURPOSES),
  phone: text(64),
  code: z.string().regex(/^\d{6}$/),
  id: text(1024).optional(),
})
export type SmsVerifyBody = z.infer<typeof SmsVerifyBody>
/** Spec §3 push settings (PUT /app/push) and e-mail consent. */
export const PushSettingsBody = z.object({
  isAppPush: z.boolean().optional(),
  isAgreePush: z.boolean(),
  isAgreePushNight: z.boolean(),
  isAgreePushFreetime: z.boolean(),
  isAgreePushContents: z.boolean(),
  isAgreeMail: z.boolean().optional(),
})
export type PushSettingsBody = z.infer<typeof PushSettingsBody>
export const PushSettingsForm = z.object({
  isAgreePush: checkbox,
  isAgreePushNight: checkbox,
  isAgreePushFreetime: checkbox,
  isAgreePushContents: checkbox,
  isAgreeMail: checkbox,
})
/** Spec §2/§5 withdrawal: reason slots, detail needed for OTHER, agreement required. */
export const WithdrawalBody = z.object({
  reasons: z.array(z.enum(WITHDRAWAL_REASONS)).max(WITHDRAWAL_REASONS.length),
  detail: text(WITHDRAWAL_DETAIL_MAX).optional(),
  agree: z.boolean(),
})
export type WithdrawalBody = z.infer<typeof WithdrawalBody>

/** Letters (any script) and digits both present (spec §5 "must mix digits and letters"). */
function mixesLettersAndDigits(password: string): boolean {
  return /\p{L}/u.test(password) && /\p{Nd}/u.test(password)
}

/** Spec §5 change password: new at least 6 characters (code points) mixing letters and digits. */
function isValidChangePassword(password: string): boolean {
  const length = [...password].length
  return length >= CHANGE_PASSWORD_MIN && length <= CHANGE_PASSWORD_MAX && mixesLettersAndDigits(password) && !/\s/.test(password)
}

/**
 * Spec §5/§9 reset password: 8 to 20 characters with letters and digits (special characters allowed). Of the
 * spec's two readings this is the stricter one, so a password set here also passes the change-password rule.
 */
function isValidResetPassword(password: string): boolean {
  const length = [...password].length
  return length >= RESET_PASSWORD_MIN && length <= RESET_PASSWORD_MAX && mixesLettersAndDigits(password) && !/\s/.test(password)
}

/**
 * Spec §5/§8 change-password rules checkable without the stored hash, in the form's order: confirmation
 * (INCORRECT_PASSWORD, 'Mot de passe incorrect.'), rule (INVALID_PW_REGEX), same as current (EQUAL_PASSWORD).
 */
export function changePasswordError(body: ChangePasswordBody): ErrorCode | null {
  if (body.newPasswordConfirm !== undefined && body.newPassword !== body.newPasswordConfirm) return 'INCORRECT_PASSWORD'
  if (!isValidChangePassword(body.newPassword)) return 'INVALID_PW_REGEX'
  if (body.newPassword === body.oldPassword) return 'EQUAL_PASSWORD'
  return null
}

/** Spec §5 reset-password rules before any lookup: confirmation, then the 8–20 rule. */
export function resetPasswordError(body: ResetPasswordBody): ErrorCode | null {
  if (body.newPasswordConfirm !== undefined && body.newPassword !== body.newPasswordConfirm) return 'INCORRECT_PASSWORD'
  if (!isValidResetPassword(body.newPassword)) return 'INVALID_PW_REGEX'
  return null
}

/**
 * A mobile number as stored, looked up and rate-limited: its E.164 form (`+33612345678`), so every way of writing
 * one number (`0612345678`, `0033 6 12 34 56 78`, `33612345678`, with spaces, dots, dashes, brackets) is the same
 * number. Read in `country` (the edition's) when it has no international prefix. Null for anything that is not a
 * valid mobile number of its country's numbering plan (landlines, premium and short numbers: codes go by SMS).
 */
export function normalisePhone(phone: string, country: string): string | null {
  if (phone.length > 64) return null
  const parsed = parsePhoneNumberFromString(phone, country as CountryCode)
  if (!parsed?.isValid()) return null
  const type = parsed.getType()
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE' ? parsed.number : null
}

/**
 * Spec §2 find IDs: an ID is shown masked as readers know it from other sites: the first two characters of the
 * local part, the rest as `*` (at least 3), the domain kept (`re****@example.com`). A one- or two-character
 * local part keeps only its first character.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at <= 0) return '*'.repeat(Math.max(3, email.length))
  const local = [...email.slice(0, at)]
  const keep = local.length <= 2 ? 1 : 2
  return local.slice(0, keep).join('') + '*'.repeat(Math.max(3, local.length - keep)) + email.slice(at)
}

/** A phone number masked for messages and pages: only the last 4 digits shown. */
export function maskPhone(phone: string): string {
  return phone.length <= 4 ? '****' : '*'.repeat(phone.length - 4) + phone.slice(-4)
}

/** Spec §5 withdrawal: agreement required, at least one reason, a detailed reason when OTHER is chosen. */
export function withdrawalError(body: WithdrawalBody): ErrorCode | null {
  if (!body.agree || body.reasons.length === 0) return 'INVALID_PARAMETER'
  if (body.reasons.includes('OTHER') && !(body.detail ?? '').trim()) return 'INVALID_PARAMETER'
  return null
}

/** Spec §2 reset-password result page: the results of spec §3. */
const RESET_RESULTS = ['SUCCESS', 'TIMEOUT', 'NOT_LOCAL_LOGIN_USER', 'EQUAL_PASSWORD', 'UNKNOWN'] as const
export type ResetResult = (typeof RESET_RESULTS)[number]
export function toResetResult(value: string | null): ResetResult {
  return (RESET_RESULTS as readonly string[]).includes(value ?? '') ? (value as ResetResult) : 'UNKNOWN'
}

/**
 * Spec §2 my-page entries: whether login is needed and whether the entry appears on the web and/or in the app
 * (Tapjoy is app-only, coupon web-only). The web shows the `web` ones; a guest following a login entry is
 * sent to the login route first (spec §2 protected pages).
 */
const MY_ENTRIES = [
  { key: 'shop', href: '/shop', login: false, web: true, app: true },
  { key: 'coin', href: '/history/charge', login: true, web: true, app: true },
  { key: 'history', href: '/history/use', login: true, web: true, app: true },
  { key: 'library', href: '/library/my', login: true, web: true, app: true },
  { key: 'gift', href: '/gift', login: true, web: true, app: true },
  { key: 'alarm', href: '/alarm', login: true, web: true, app: true },
  { key: 'coupon', href: '/coupon', login: true, web: true, app: false },
  { key: 'tapjoy', href: '/tapjoy', login: true, web: false, app: true },
  { key: 'setting', href: '/setting', login: true, web: true, app: true },
  { key: 'notice', href: '/notice', login: false, web: true, app: true },
  { key: 'faq', href: '/faq', login: false, web: true, app: true },
] as const

/** The entries a client shows: by platform, and for a guest, with the login requirement marked. */
export function myEntries(platform: 'web' | 'app') {
  return MY_ENTRIES.filter((e) => e[platform])
}
