/**
 * The account life-cycle pages' plain forms (spec §2; no JavaScript needed), under /api/v1/auth/web: each
 * posts here, same Origin only, and is sent back (303) to its page with the next step, or with `?error=<CODE>`
 * shown in the edition's language (what was typed in the form's flash: no phone or e-mail in a URL). The JSON
 * endpoints of the same flows are in auth.ts.
 */
import { Hono, type Context } from 'hono'
import { deleteCookie, setCookie } from 'hono/cookie'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { sealSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import { sessionKeys } from '../../src/features/auth/auth.server.ts'
import {
  ChangePasswordBody,
  ResetMailBody,
  ResetPasswordBody,
  SmsRequestBody,
  SmsVerifyBody,
  type SmsPurpose,
} from '../../src/features/account/account.ts'
import { changePassword, requestResetMail, resetPassword } from '../../src/features/account/password.server.ts'
import { requestSmsCode, verifySmsCode, type SmsVerified } from '../../src/features/account/sms.server.ts'
import { RESET_MAIL_SENT_COOKIE, SMS_PENDING_COOKIE, SMS_PENDING_SECONDS, smsPendingValue } from '../../src/features/account/sms-pending.ts'
import { FLASH_SECONDS } from '../../src/lib/forms/flash.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { FOUND_IDS_COOKIE, FOUND_IDS_PATH, FOUND_IDS_TTL_SECONDS, sealFoundIds } from '../../src/features/account/found-ids.ts'
import type { AppEnv } from '../lib/env.ts'
import { authContext, field, formRoute, toLogin } from './forms.ts'
import { currentUserId } from '../middleware/session.ts'
import { needs } from '../middleware/delivery.ts'

const q = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')).toString()

/** The page of each SMS purpose. */
const SMS_PAGES: Record<SmsPurpose, string> = { FIND_ID: '/user/findId', FIND_PASSWORD: '/user/findPassword', PHONE: '/setting/phone' }
/** The page a raw form's `purpose` names (an own key only: `toString` is no purpose), else find ID's. */
const smsPage = (raw: Record<string, unknown>) => {
  const purpose = field(raw, 'purpose')
  return Object.hasOwn(SMS_PAGES, purpose) ? SMS_PAGES[purpose as SmsPurpose] : SMS_PAGES.FIND_ID
}
const smsTab = (raw: Record<string, unknown>) => (field(raw, 'purpose') === 'FIND_PASSWORD' ? 'phone' : undefined)
/** Errors after which the code step stays on screen (the code exists; resend when it is over). */
const CODE_STEP_ERRORS = new Set([
  'NOT_FOUND_SMS_USER',
  'EXPIRED_OTP',
  'ALREADY_USE_SMS',
  'EXCEED_AUTH_COUNT',
  'ALREADY_SEND_SMS',
  'NOT_FOUND_USER',
  'NOT_REGISTERED_PHONE_USER',
])
/** Reset errors the form itself shows (the link stays usable); the others go to the result page. */
const RESET_FORM_ERRORS = new Set(['INVALID_PW_REGEX', 'INCORRECT_PASSWORD', 'EQUAL_PASSWORD', 'INVALID_PARAMETER'])

function smsDone(data: { purpose: SmsPurpose }, result: SmsVerified): string {
  if (result.purpose === 'FIND_ID') return `${FOUND_IDS_PATH}?step=result`
  if (result.purpose === 'FIND_PASSWORD') return `/user/resetPassword?${q({ userId: String(result.userId), uuid: result.uuid })}`
  return `${SMS_PAGES[data.purpose]}?done=1`
}

/**
 * Spec §2/§4 an SMS code is sent (or one is still valid: ALREADY_SEND_SMS): the phone and ID go to the code step in
 * the page's short-lived cookie, never in the URL (sms-pending.ts).
 */
async function sendSms(c: Context<AppEnv>, data: SmsRequestBody) {
  const keep = () =>
    setCookie(c, SMS_PENDING_COOKIE, smsPendingValue(data), {
      path: SMS_PAGES[data.purpose],
      httpOnly: true,
      sameSite: 'Lax',
      secure: sessionCookieOptions(c.req.url).secure,
      maxAge: SMS_PENDING_SECONDS,
    })
  try {
    const sent = await requestSmsCode(c.var.db, data, authContext(c), c.var.session.userId)
    keep()
    return sent
  } catch (e) {
    if (e instanceof AppError && e.code === 'ALREADY_SEND_SMS') keep()
    throw e
  }
}

/**
 * The found IDs go to the result page in an encrypted 10-minute cookie, never in the URL (found-ids.ts); the
 * pending phone is forgotten.
 */
async function verifySms(c: Context<AppEnv>, data: Parameters<typeof verifySmsCode>[1]): Promise<SmsVerified> {
  const result = await verifySmsCode(c.var.db, data, authContext(c), c.var.session.userId)
  deleteCookie(c, SMS_PENDING_COOKIE, { path: SMS_PAGES[data.purpose] })
  if (result.purpose === 'FIND_ID') {
    const { secure } = sessionCookieOptions(c.req.url)
    setCookie(c, FOUND_IDS_COOKIE, await sealFoundIds(await sessionKeys(), result), {
      path: FOUND_IDS_PATH,
      httpOnly: true,
      sameSite: 'Lax',
      secure,
      maxAge: FOUND_IDS_TTL_SECONDS,
    })
  }
  return result
}

/** The web session: the pair sealed in the encrypted cookie (also after sign-in and the sign-up code, auth.ts). */
export async function setWebSession(c: Context<AppEnv>, pair: Awaited<ReturnType<typeof changePassword>>) {
  setCookie(c, SESSION_COOKIE, await sealSession(await sessionKeys(), pair), sessionCookieOptions(c.req.url, pair.refreshToken.expiredAt))
}

export const accountWeb = new Hono<AppEnv>()
  /** Spec §2 /user/changePassword (login required): the new pair goes into the session cookie. */
  .post(
    '/change-password',
    ...formRoute({
      schema: ChangePasswordBody,
      guest: toLogin('/user/changePassword'),
      fields: { INCORRECT_PASSWORD: 'newPasswordConfirm', INVALID_PW_REGEX: 'newPassword', EQUAL_PASSWORD: 'newPassword' },
      run: async (data, c) => setWebSession(c, await changePassword(c.var.db, currentUserId(c), data, authContext(c))),
      done: () => '/user/changePassword?done=1',
      failed: (code) => `/user/changePassword?${q({ error: code })}`,
    }),
  )
  /** Spec §2 find password, e-mail ID tab. */
  .post(
    '/reset-mail',
    needs('mail'),
    ...formRoute({
      schema: ResetMailBody,
      run: (data, c) => requestResetMail(c.var.db, data, authContext(c)),
      // the address the link went to is shown by the page from its one-minute cookie, never carried in the URL
      done: (data, _result, c) => {
        setCookie(c, RESET_MAIL_SENT_COOKIE, data.email.trim(), {
          path: '/user/findPassword',
          httpOnly: true,
          sameSite: 'Lax',
          secure: sessionCookieOptions(c.req.url).secure,
          maxAge: FLASH_SECONDS,
        })
        return `/user/findPassword?${q({ tab: 'email', sent: '1' })}`
      },
      keep: ['email'],
      fields: { INVALID_MAIL_FORM: 'email' },
      failed: (code) => `/user/findPassword?${q({ tab: 'email', error: code })}`,
    }),
  )
  /** Spec §2/§3 reset password: the result page, or the form again for a rule it shows. */
  .post(
    '/reset-password',
    ...formRoute({
      schema: ResetPasswordBody,
      fields: { INCORRECT_PASSWORD: 'newPasswordConfirm', INVALID_PW_REGEX: 'newPassword', EQUAL_PASSWORD: 'newPassword' },
      run: (data, c) => resetPassword(c.var.db, data, authContext(c)),
      done: () => `/user/resetPassword/result?result=SUCCESS`,
      failed: (code, raw) =>
        RESET_FORM_ERRORS.has(code) && field(raw, 'uuid')
          ? `/user/resetPassword?${q({ userId: field(raw, 'userId'), uuid: field(raw, 'uuid'), error: code })}`
          : `/user/resetPassword/result?${q({ result: code === 'NOT_LOCAL_LOGIN_USER' ? code : 'TIMEOUT' })}`,
    }),
  )
  /** Spec §2/§4 SMS code request (find ID, find password phone tab, phone registration). */
  .post(
    '/sms-send',
    needs('sms'),
    ...formRoute({
      schema: SmsRequestBody,
      run: (data, c) => sendSms(c, data),
      done: (data) => `${SMS_PAGES[data.purpose]}?${q({ tab: smsTab({ purpose: data.purpose }), step: 'code' })}`,
      keep: ['phone', 'id'],
      failed: (code, raw) =>
        `${smsPage(raw)}?${q({ tab: smsTab(raw), step: code === 'ALREADY_SEND_SMS' ? 'code' : undefined, error: code })}`,
    }),
  )
  .post(
    '/sms-verify',
    ...formRoute({
      schema: SmsVerifyBody,
      run: (data, c) => verifySms(c, data),
      done: smsDone,
      keep: ['phone', 'id'],
      failed: (code, raw) =>
        `${smsPage(raw)}?${q({ tab: smsTab(raw), step: CODE_STEP_ERRORS.has(code) || code === 'INVALID_PARAMETER' ? 'code' : undefined, error: code })}`,
    }),
  )
