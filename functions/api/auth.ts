import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { LOGIN_ROUTE, SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { openSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import {
  LogoutBody,
  RefreshBody,
  ResendOtpBody,
  SIGN_UP_COOKIES,
  SIGN_UP_COOKIE_SECONDS,
  SIGN_UP_EMAIL_COOKIE,
  SIGN_UP_PATH,
  SignInBody,
  SignInForm,
  SignUpBody,
  SignUpForm,
  VerifyOtpBody,
  VerifyOtpForm,
  EMAIL_MAX,
} from '../../src/features/auth/auth.ts'
import { safeCallback } from '../../src/lib/redirect.ts'
import {
  logout,
  refreshTokens,
  resendOtp,
  sessionKeys,
  signIn,
  signInVerified,
  signUp,
  verifyOtp,
} from '../../src/features/auth/auth.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { ChangePasswordBody, ResetMailBody, ResetPasswordBody, SmsRequestBody, SmsVerifyBody } from '../../src/features/account/account.ts'
import { signInAppleGuest, signOutEverywhere } from '../../src/features/account/account.server.ts'
import { changePassword, requestResetMail, resetPassword } from '../../src/features/account/password.server.ts'
import { requestSmsCode, verifySmsCode } from '../../src/features/account/sms.server.ts'
import { completeCarrier, startCarrier } from '../../src/features/account/carrier.server.ts'
import { CARRIER_PURPOSES } from '../../src/features/account/carrier.ts'
import { z } from 'zod'
import { createMiddleware } from 'hono/factory'
import { AppleMigrateBody } from '../../src/features/auth/apple.ts'
import { migrateAppleSignIn } from '../../src/features/auth/apple.server.ts'
import { accountWeb, setWebSession } from './account-web.ts'
import { authContext, field, formRoute, toLogin, type RawForm } from './forms.ts'
import { needs } from '../middleware/delivery.ts'
import { isKoreanIp } from '../../src/features/age/age.ts'

export { authContext }

/** The login route showing `error` and keeping the (already sanitised) callback. */
function loginWithError(code: string, callback: string) {
  return `${LOGIN_ROUTE}?${new URLSearchParams({ error: code, callback })}`
}

/** The form's own-site callback, or none (home is not worth carrying). */
function callbackOf(raw: RawForm): Record<string, string> {
  const callback = safeCallback(field(raw, 'callback'))
  return callback === '/' ? {} : { callback }
}

/** Spec §4/§9: sign-up sets two cookies for one hour (read by the sign-up event pages; cleared on a login redirect, §2). */
function setSignUpCookies(c: Context<AppEnv>) {
  const options = { ...sessionCookieOptions(c.req.url), maxAge: SIGN_UP_COOKIE_SECONDS }
  setCookie(c, SIGN_UP_COOKIES[0], 'Y', options)
  setCookie(c, SIGN_UP_COOKIES[1], 'N', options)
}

/** The logout forms' one optional field: any value (a foreign or odd callback goes home). */
const LogoutForm = z.object({ callback: z.unknown().optional() })
/** The sign-up page at its OTP step (the address is in its cookie), with an optional error code or notice. */
function otpStep(extra: Record<string, string> = {}) {
  return `${SIGN_UP_PATH}?${new URLSearchParams({ step: 'otp', ...extra })}`
}

/** The JP app's routes exist on the jp edition only (elsewhere NOT_EXIST, like /transfer off its editions). */
const jpOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.edition.id !== 'jp') throw new AppError('NOT_EXIST')
  return next()
})

/**
 * docs/API.md auth endpoints (JSON, apps and islands) and the web login/logout forms (no JavaScript needed). Its two
 * members-only routes (`/local/change/password`, `/carrier/encode`) carry `requireUser` themselves: they have no
 * common path to group them under, and a `.use(requireUser)` here would also guard `/auth/oauth` (v1.ts).
 */
export const auth = new Hono<AppEnv>()
  .post('/sign-up', needs('mail'), validate('json', SignUpBody), async (c) => {
    const sent = await signUp(c.var.db, c.req.valid('json'), authContext(c))
    setSignUpCookies(c)
    return ok(c, sent)
  })
  /** Spec §8/§9: the 6-digit e-mail OTP completes the sign-up (the address becomes verified). */
  .post('/verify-otp', validate('json', VerifyOtpBody), async (c) => {
    await verifyOtp(c.var.db, c.req.valid('json'), authContext(c))
    return ok(c, { verified: true })
  })
  /** Spec §8 EXPIRED_OTP follow-up: a new code by mail. */
  .post('/resend-otp', needs('mail'), validate('json', ResendOtpBody), async (c) =>
    ok(c, await resendOtp(c.var.db, c.req.valid('json'), authContext(c))),
  )
  .post('/sign-in', validate('json', SignInBody), async (c) => {
    const { accessToken, refreshToken, userId } = await signIn(c.var.db, c.req.valid('json'), authContext(c))
    return ok(c, { accessToken, refreshToken, userId })
  })
  .post('/refresh', validate('json', RefreshBody), async (c) => {
    const { accessToken, refreshToken, email, ipAddress } = await refreshTokens(c.var.db, c.req.valid('json'), authContext(c))
    return ok(c, { accessToken, refreshToken, email, ipAddress })
  })
  .put('/logout', validate('json', LogoutBody), async (c) => {
    await logout(c.req.valid('json').refreshToken, c.get('session')?.userId ?? null)
    return ok(c, {})
  })
  /**
   * Spec §7 GET /auth/ip-kr: whether the call comes from a Korean address, as the edge geolocates it
   * (`request.cf.country`; the `CF-IPCountry` header where no `cf` object is given) → `data: true | false`.
   */
  .get('/ip-kr', (c) => {
    const country = c.req.raw.cf?.country
    return ok(c, isKoreanIp(typeof country === 'string' ? country : c.req.header('cf-ipcountry')))
  })
  /** Spec §2 /user/login form: sets the encrypted session cookie and goes to `callback` (own-site paths only). */
  .post(
    '/web/sign-in',
    ...formRoute({
      schema: SignInForm,
      keep: ['email'],
      run: async (data, c) => setWebSession(c, await signIn(c.var.db, data, authContext(c))),
      done: (data) => safeCallback(data.callback),
      failed: (code, raw) => {
        const form = SignInForm.safeParse(raw)
        return loginWithError(code, safeCallback(form.success ? form.data.callback : undefined))
      },
    }),
  )
  /** Spec §2 /user/signup form, then its OTP step. */
  .post(
    '/web/sign-up',
    needs('mail'),
    ...formRoute({
      schema: SignUpForm,
      run: async (data, c) => {
        const result = await signUp(c.var.db, data, authContext(c))
        setSignUpCookies(c)
        setCookie(c, SIGN_UP_EMAIL_COOKIE, data.email.trim().slice(0, EMAIL_MAX), {
          ...sessionCookieOptions(c.req.url),
          path: SIGN_UP_PATH,
          maxAge: SIGN_UP_COOKIE_SECONDS,
        })
        return result
      },
      keep: ['email', 'agreeTerms', 'agreeMail'],
      done: (_data, result, _c, raw) => otpStep({ ...callbackOf(raw), ...(result.sent ? {} : { error: 'RETRY' }) }),
      failed: (code, raw) => `${SIGN_UP_PATH}?${new URLSearchParams({ error: code, ...callbackOf(raw) })}`,
    }),
  )
  /** The code step: the address is verified and the reader signed in, back where the sign-up started (`callback`). */
  .post(
    '/web/verify-otp',
    ...formRoute({
      schema: VerifyOtpForm,
      keep: ['email'],
      fields: { INVALID_PARAMETER: 'code' },
      run: async (data, c) => {
        const { userId } = await verifyOtp(c.var.db, data, authContext(c))
        await setWebSession(c, await signInVerified(c.var.db, userId, authContext(c)))
        deleteCookie(c, SIGN_UP_EMAIL_COOKIE, { ...sessionCookieOptions(c.req.url), path: SIGN_UP_PATH })
      },
      done: (data) => safeCallback(data.callback),
      failed: (code, raw) => otpStep({ error: code, ...callbackOf(raw) }),
    }),
  )
  .post(
    '/web/resend-otp',
    needs('mail'),
    ...formRoute({
      schema: ResendOtpBody,
      run: (data, c) => resendOtp(c.var.db, data, authContext(c)),
      keep: ['email'],
      done: (_data, _r, _c, raw) => otpStep({ resent: '1', ...callbackOf(raw) }),
      failed: (code, raw) => otpStep({ error: code, ...callbackOf(raw) }),
    }),
  )
  /** Web logout: the session ends server-side (ASVS 7.4.1) and the cookie is cleared. */
  .post(
    '/web/logout',
    ...formRoute({
      schema: LogoutForm,
      run: async (_data, c) => {
        const web = await openSession(await sessionKeys(), getCookie(c, SESSION_COOKIE))
        if (web) await logout(web.refreshToken.value, c.get('session')?.userId ?? null)
        deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
      },
      // an optional own-site `callback` (e.g. /callback/logout-success); anything else goes home
      done: (data) => safeCallback(typeof data.callback === 'string' ? data.callback : '/'),
      failed: () => '/',
    }),
  )
  /** Sign out of every device (/setting): every session of the account ends, this browser's too; a guest goes to login. */
  .post(
    '/web/logout-all',
    ...formRoute({
      schema: z.object({}),
      guest: toLogin('/setting'),
      run: async (_data, c) => {
        await signOutEverywhere(c.var.db, currentUserId(c))
        deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
      },
      done: () => '/callback/logout-success',
      failed: (code) => `/setting?error=${code}`,
    }),
  )
  /** Spec §7 PUT|POST /auth/local/change/password: a new token pair (every other session ended). */
  .on(['PUT', 'POST'], '/local/change/password', requireUser, validate('json', ChangePasswordBody), async (c) => {
    const { accessToken, refreshToken, userId } = await changePassword(c.var.db, currentUserId(c), c.req.valid('json'), authContext(c))
    return ok(c, { accessToken, refreshToken, userId })
  })
  /** Spec §7 POST /auth/local/reset/password {userId, uuid, newPassword}. */
  .post('/local/reset/password', validate('json', ResetPasswordBody), async (c) =>
    ok(c, await resetPassword(c.var.db, c.req.valid('json'), authContext(c))),
  )
  /** Spec §7 "mail password": a reset link by mail (same answer for every address). */
  .post('/mail/password', needs('mail'), validate('json', ResetMailBody), async (c) =>
    ok(c, await requestResetMail(c.var.db, c.req.valid('json'), authContext(c))),
  )
  /** Spec §4 phone verification: an SMS code (find ID, find password, phone registration). */
  .post('/sms/send', needs('sms'), validate('json', SmsRequestBody), async (c) =>
    ok(c, await requestSmsCode(c.var.db, c.req.valid('json'), authContext(c), c.var.session.userId)),
  )
  .post('/sms/verify', validate('json', SmsVerifyBody), async (c) =>
    ok(c, await verifySmsCode(c.var.db, c.req.valid('json'), authContext(c), c.var.session.userId)),
  )
  /** Spec §7 GET /nice/encode for apps: the signed carrier request (form action and fields) of the reader; NOT_EXIST without a carrier. */
  .get(
    '/carrier/encode',
    requireUser,
    validate('query', z.object({ purpose: z.enum(CARRIER_PURPOSES), returnPath: z.string().max(512).optional() })),
    async (c) => {
      const q = c.req.valid('query')
      const start = await startCarrier(currentUserId(c), q.purpose, q.returnPath ?? '/my')
      if (!start) throw new AppError('NOT_EXIST')
      return ok(c, start)
    },
  )
  /** The carrier's signed result (what /callback/auth-mobilians receives), for apps: CARRIER_TAMPERED when changed. */
  .post('/carrier/result', validate('json', z.object({ EncodeData: z.string().max(8192), Mac: z.string().max(128) })), async (c) =>
    ok(c, await completeCarrier(c.var.db, c.req.valid('json'), { adultAge: c.var.edition.adultAge })),
  )
  /** Spec §3/§6 app guest mode (apple_guest): the device's guest key signs up once, then signs in. */
  .post('/sign-in/apple-guest', validate('json', z.object({ guestKey: z.string().max(64) })), async (c) => {
    const { accessToken, refreshToken, userId, isSignUp } = await signInAppleGuest(c.var.db, c.req.valid('json').guestKey, authContext(c))
    return ok(c, { accessToken, refreshToken, userId, isSignUp })
  })
  /**
   * Spec §7 POST /auth/sign-in/jp/apple/migrate {appKeyRequest, webKeyRequest} → accessToken, refreshToken,
   * isSignUp, userId, isMigrate (jp edition only). Design:
   * - Each key is `{identityToken, authorizationCode?}`: the Apple identity token the JP app received for the
   *   app's client id (`OAUTH_APPLE_APP_CLIENT_ID`, the bundle id) and for the web Services ID
   *   (`OAUTH_APPLE_CLIENT_ID`); the authorization code is ignored (nothing is exchanged).
   * - Both are verified with jose against the Apple provider's key set (issuer `OAUTH_APPLE_ISSUER`, default
   *   https://appleid.apple.com, JWKS from discovery or `OAUTH_APPLE_JWKS_URL`): RS256/PS256/ES256/EdDSA only,
   *   `iss` exact, `aud` the client id of that key, `exp`/`iat` required and `exp` not past. Both must carry the
   *   same `sub` (Apple gives one per developer team; `transfer_sub`, for apps moved between teams, is not
   *   accepted). Forged, expired, wrong-audience, `alg: none`, different subjects → MALFORMED_JWT, nothing written;
   *   the key set out of reach → OAuthCallbackError.
   * - The app key is the identity `apple_app`, the web key the web OAuth identity `apple`: the web key's
   *   account signs in (both false); else the app key's account gets the web key linked (isMigrate); else a new
   *   account holding both keys, without e-mail (isSignUp). A new refresh family, as every sign-in.
   */
  .post('/sign-in/jp/apple/migrate', jpOnly, validate('json', AppleMigrateBody), async (c) => {
    const { accessToken, refreshToken, userId, isSignUp, isMigrate } = await migrateAppleSignIn(
      c.var.db,
      c.req.valid('json'),
      authContext(c),
    )
    return ok(c, { accessToken, refreshToken, isSignUp, userId, isMigrate })
  })
  /** The plain-form (no JavaScript) pages of the account life cycle. */
  .route('/web', accountWeb)
