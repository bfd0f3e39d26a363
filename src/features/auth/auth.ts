/**
 * Account rules of spec §5/§8/§9 and the request shapes of docs/API.md (auth endpoints). Pure: no I/O.
 * The zod schemas check only the shape (→ INVALID_PARAMETER); the spec's rules answer with their own codes.
 */
import { z } from 'zod'
import { RowIdText } from '../../lib/ids.ts'
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { DAY_MS } from '../../lib/time.ts'
import { normaliseEmail } from '../../lib/email.ts'
import { safeCallback } from '../../lib/redirect.ts'

/** Spec §9: e-mail OTP 6 digits, valid 1 hour. */
const OTP_DIGITS = 6
export const OTP_TTL_SECONDS = 60 * 60
/** Spec §4/§9: re-sign-up is blocked 30 days after withdrawal. */
export const DELETED_BLOCK_DAYS = 30
/** Spec §8 DUPLICATE_LOGIN: 5 failed sign-ins for one e-mail within 1 hour lock it for the rest of the hour. */
export const SIGN_IN_MAX_FAILURES = 5
export const SIGN_IN_WINDOW_SECONDS = 60 * 60
/** ASVS 6.3.1: wrong guesses allowed on one e-mail OTP before it is spent (then EXPIRED_OTP: resend). */
export const OTP_MAX_ATTEMPTS = 5
/** ASVS 6.3.1 / spec §8 FREQUENT_REQUEST ("retry in 5 minutes"): at most 3 OTP mails per address per 5 minutes. */
export const OTP_RESEND_MAX = 3
export const OTP_RESEND_WINDOW_SECONDS = 5 * 60
/** Spec §2/§4/§9: the two sign-up cookies, set at sign-up for one hour (3600 s). */
export const SIGN_UP_COOKIES = ['is-sign-up', 'login-callback-finished'] as const
export const SIGN_UP_COOKIE_SECONDS = 60 * 60
/**
 * The address of a web sign-up, for its code step and event page (`/user/signup…`, httpOnly, 1 hour): the step's
 * URL carries no e-mail, so none lands in a log.
 */
export const SIGN_UP_EMAIL_COOKIE = 'signup-email'
export const SIGN_UP_PATH = '/user/signup'
/** RFC 5321: a forward path is at most 254 characters. */
export const EMAIL_MAX = 254

/** Bodies are bounded so a huge string never reaches the slow hash. */
const text = (max: number) => z.string().max(max)

export const SignUpBody = z.object({
  email: text(1024),
  password: text(1024),
  passwordConfirm: text(1024),
  agreeTerms: z.boolean(),
  agreeMail: z.boolean().optional(),
})
export type SignUpBody = z.infer<typeof SignUpBody>

export const SignInBody = z.object({ email: text(1024), password: text(1024) })
export type SignInBody = z.infer<typeof SignInBody>

export const RefreshBody = z.object({
  accessToken: text(4096),
  refreshToken: text(256),
  clientIp: z.string().max(64).optional(),
})
export type RefreshBody = z.infer<typeof RefreshBody>

export const LogoutBody = z.object({ refreshToken: text(256) })

/** Spec §9 e-mail OTP: exactly 6 digits (anything else is INVALID_PARAMETER before any lookup). */
export const VerifyOtpBody = z.object({ email: text(1024), code: z.string().regex(/^\d{6}$/) })
export type VerifyOtpBody = z.infer<typeof VerifyOtpBody>
export const ResendOtpBody = z.object({ email: text(1024) })
export type ResendOtpBody = z.infer<typeof ResendOtpBody>
/** Spec §7 POST /user/mail/auth: the account id, as a JSON number or a string of digits. */
export const MailAuthBody = z.object({
  userId: RowIdText,
})

/** A checkbox of a plain HTML form: present (any value, usually "on") means checked. */
const checkbox = z
  .string()
  .max(16)
  .optional()
  .transform((v) => v !== undefined)

/** The web sign-up form (spec §2 /user/signup): urlencoded, works without JavaScript. */
export const SignUpForm = z.object({
  email: text(1024),
  password: text(1024),
  passwordConfirm: text(1024),
  agreeTerms: checkbox,
  agreeMail: checkbox,
  /** Where the reader goes once the code is verified (own-site paths only, `safeCallback`). */
  callback: z.string().max(2048).optional(),
})
/** The web code step: the code, and the callback the sign-up carried. */
export const VerifyOtpForm = VerifyOtpBody.extend({ callback: z.string().max(2048).optional() })

/** The web login form (spec §2 /user/login): urlencoded, callback optional. */
export const SignInForm = z.object({ email: text(1024), password: text(1024), callback: z.string().max(2048).optional() })

const emailSchema = z.email()

/** Spec §5: the sign-up e-mail must be valid (deny-list domain check off). */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX && emailSchema.safeParse(email).success
}

/**
 * Spec §5: sign-up password of 8–20 characters with at least two of upper case, lower case, digits,
 * special characters (any character that is not a letter or digit). Length counts code points.
 */
function isValidSignUpPassword(password: string): boolean {
  const length = [...password].length
  if (length < 8 || length > 20) return false
  const classes = [/\p{Lu}/u, /\p{Ll}/u, /\p{Nd}/u, /[^\p{L}\p{Nd}]/u].filter((re) => re.test(password)).length
  return classes >= 2
}

/**
 * Spec §5/§8 sign-up rules in the order the form shows them: e-mail, password, confirmation, terms.
 * Returns the first failing code or null.
 */
export function signUpError(body: SignUpBody): ErrorCode | null {
  if (!isValidEmail(normaliseEmail(body.email))) return 'INVALID_MAIL_FORM'
  if (!isValidSignUpPassword(body.password)) return 'INVALID_PW_REGEX'
  if (body.password !== body.passwordConfirm) return 'INCORRECT_PASSWORD'
  if (!body.agreeTerms) return 'INVALID_PARAMETER'
  return null
}

/** The sign-up field each rule's code concerns (the form shows the message beside it). */
export const SIGN_UP_FIELDS: Partial<Record<ErrorCode, keyof SignUpBody>> = {
  INVALID_MAIL_FORM: 'email',
  INVALID_PW_REGEX: 'password',
  INCORRECT_PASSWORD: 'passwordConfirm',
  INVALID_PARAMETER: 'agreeTerms',
}

/**
 * The mailbox an address delivers to, for the 30-day re-sign-up block (issue 34 point 7): `name+tag@host` and
 * `name@host` are one mailbox at the providers readers use. `base` is the address without its tag; `tagged` a LIKE
 * pattern (escape `\\`) matching every tagged form of it.
 */
export function mailboxOf(email: string): { base: string; tagged: string } {
  const at = email.lastIndexOf('@')
  const local = email.slice(0, at).split('+')[0]!
  const host = email.slice(at + 1)
  const like = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)
  return { base: `${local}@${host}`, tagged: `${like(local)}+%@${like(host)}` }
}

/** Spec §4: a withdrawn e-mail may sign up again only 30 days after the deletion. */
export function isDeletionBlocking(deletedAt: string | null, now: Date): boolean {
  if (!deletedAt) return false
  return new Date(deletedAt).getTime() + DELETED_BLOCK_DAYS * DAY_MS > now.getTime()
}

/** A uniformly drawn 6-digit code (rejection sampling, no modulo bias). */
export function generateOtp(): string {
  const limit = 4_294_000_000 // largest multiple of 10^6 below 2^32
  const buf = new Uint32Array(1)
  for (;;) {
    crypto.getRandomValues(buf)
    if (buf[0]! < limit) return String(buf[0]! % 10 ** OTP_DIGITS).padStart(OTP_DIGITS, '0')
  }
}

/**
 * Rate-limit bucket of the sign-in attempts on one e-mail from one client address (spec §8 DUPLICATE_LOGIN):
 * the address that keeps failing is locked out, the owner signing in from elsewhere is not (issue 26 point 4).
 */
export function signInBucket(email: string, ip: string | null): string {
  return `${signInBuckets(email).from}${ip ?? 'unknown'}`
}

/** The range of the e-mail's sign-in buckets, every address (a password reset clears them all). */
export function signInBuckets(email: string): { from: string; to: string } {
  const from = `signin:${normaliseEmail(email)} `
  return { from, to: `${from}\uffff` }
}

/**
 * Session service (`/api/auth`) callbackUrl: NextAuth clients send an absolute URL; only one of our own
 * origin, or an own-site path, is kept (as a path); anything else gives `/`.
 */
export function sameSiteCallback(callbackUrl: string | null | undefined, origin: string): string {
  if (!callbackUrl) return '/'
  if (callbackUrl.startsWith('/')) return safeCallback(callbackUrl)
  try {
    const url = new URL(callbackUrl)
    if (url.origin !== origin) return '/'
    return safeCallback(url.pathname + url.search + url.hash)
  } catch {
    return '/'
  }
}
