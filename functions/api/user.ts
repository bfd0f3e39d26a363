import { Hono, type Context } from 'hono'
import { RowIdText } from '../../src/lib/ids.ts'
import { deleteCookie } from 'hono/cookie'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { resendOtpForUser, userMe } from '../../src/features/auth/auth.server.ts'
import { MailAuthBody } from '../../src/features/auth/auth.ts'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { sessionCookieOptions } from '../../src/features/session/cookie.ts'
import {
  PushSettingsBody,
  PushSettingsForm,
  WITHDRAWAL_REASONS,
  WithdrawalBody,
  type WithdrawalReason,
} from '../../src/features/account/account.ts'
import { readerPushSettings, saveMailConsent, savePushSettings } from '../../src/features/account/account.server.ts'
import {
  cancelTransfer,
  redeemTransfer,
  requestTransfer,
  startTransfer,
  transferState,
} from '../../src/features/account/transfer.server.ts'
import { approveWithdrawal, requestWithdrawal } from '../../src/features/account/withdrawal.server.ts'
import { nicknameMessageKey, nicknameParams, ProfileRequest, PutUserBody } from '../../src/features/account/profile.ts'
import { NicknameError, setNickname } from '../../src/features/account/profile.server.ts'
import { me, renewTokens, verifyAdultOf } from './age.ts'
import { createMiddleware } from 'hono/factory'
import { z, type ZodType } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok, refusal } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { checksSessionItself, currentSession, currentUserId, requireUser } from '../middleware/session.ts'
import { authContext, field, formRoute, toLogin } from './forms.ts'
import { needs } from '../middleware/delivery.ts'
import { SpendingLimitBody, SpendingLimitForm } from '../../src/features/spending/spending.ts'
import { setSpendingLimit, spendingOf } from '../../src/features/spending/spending.server.ts'
import { exportFile, latestExport, requestExport } from '../../src/features/export/export.server.ts'
import { ExportFormat } from '../../src/features/export/export.ts'
import { env } from 'cloudflare:workers'

const ApproveBody = z.object({ userId: RowIdText, uuid: z.string().max(128) })
/** `GET /user/export/{id}/{json|csv}`: an export's id and the file's format. */
const ExportFileParams = z.object({ id: z.uuid(), format: ExportFormat })
/** The withdrawal form: reason checkboxes (`reason` repeated), detail, agreement checkbox. */
const WithdrawalForm = z.object({
  reason: z.union([z.string().max(32), z.array(z.string().max(32)).max(WITHDRAWAL_REASONS.length)]).optional(),
  detail: z.string().max(500).optional(),
  agree: z.string().max(16).optional(),
})
const reasonsOf = (r: string | string[] | undefined) => (r === undefined ? [] : Array.isArray(r) ? r : [r])

/** Spec §2 /transfer/*: only on editions with the transfer feature (elsewhere the routes do not exist). */
const transferOn = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.edition.features.transfer) throw new AppError('NOT_EXIST')
  return next()
})
const AgreeBody = z.object({ agree: z.literal(true) })

/** A step of the /transfer/apply pages' plain forms; a refusal shows on the step's page (another platform's account: its own page). */
function transferForm<S extends ZodType>(
  step: 'start' | 'request' | 'cancel',
  schema: S,
  run: (c: Context<AppEnv>) => Promise<unknown>,
  done: string,
) {
  return formRoute({
    schema,
    guest: () => '/transfer/apply/login',
    run: (_data, c) => run(c),
    done: () => done,
    failed: (code) =>
      code === 'ALREADY_USED_ANOTHER_PLATFORM'
        ? '/transfer/apply/wrong'
        : `/transfer/apply/${step === 'start' ? 'login' : step === 'request' ? 'confirm' : 'status'}?error=${code}`,
  })
}
const RedeemBody = z.object({ code: z.string().max(64) })

/** A refused nickname: INVALID_PARAMETER with the message of its reason (and `reason`, `word` for apps). */
const nicknameRefusal = (c: Context<AppEnv>, e: NicknameError) =>
  refusal(c, 'INVALID_PARAMETER', c.var.t(nicknameMessageKey(e.refusal), nicknameParams(e.refusal)), { ...e.refusal })

/**
 * Spec §4 account transfer: status, start, consent (code mailed), cancel while START, redeem on the new device. Only on
 * editions with the feature (`transferOn`, before anything else); redeeming is for the new device, which has no session.
 */
const transfer = new Hono<AppEnv>()
  .use(transferOn)
  .post('/redeem', validate('json', RedeemBody), async (c) => {
    const { accessToken, refreshToken, userId } = await redeemTransfer(c.var.db, c.req.valid('json').code, authContext(c))
    return ok(c, { accessToken, refreshToken, userId })
  })
  // members only below
  .use(requireUser)
  .get('/', async (c) => {
    return ok(c, await transferState(c.var.db, currentUserId(c)))
  })
  .post('/start', async (c) => ok(c, await startTransfer(c.var.db, currentUserId(c))))
  .post('/request', validate('json', AgreeBody), async (c) => ok(c, await requestTransfer(c.var.db, currentUserId(c), authContext(c))))
  .delete('/', async (c) => ok(c, await cancelTransfer(c.var.db, currentUserId(c))))

/** docs/API.md `/user`: the signed-in reader's own data only (the id comes from the token, never from the request). */
export const user = new Hono<AppEnv>()
  /** Spec §7 POST /user/mail/auth {userId}: the sign-up e-mail OTP again (same answer for every id). */
  .post('/mail/auth', needs('mail'), validate('json', MailAuthBody), async (c) =>
    ok(c, await resendOtpForUser(c.var.db, c.req.valid('json').userId, authContext(c))),
  )
  /** Spec §4: the mailed link approves the withdrawal and deletes the account (no session needed). */
  .post('/withdrawal/approve', validate('json', ApproveBody), async (c) =>
    ok(c, await approveWithdrawal(c.var.db, c.req.valid('json'), authContext(c))),
  )
  /** Plain forms of /setting, /setting/push and /setting/withdrawal (no JavaScript needed). */
  .post(
    '/web/push',
    ...formRoute({
      schema: PushSettingsForm,
      guest: toLogin('/setting/push'),
      run: (data, c) => savePushSettings(c.var.db, currentUserId(c), { ...data }),
      done: () => '/setting/push?saved=1',
      failed: (code) => `/setting/push?error=${code}`,
    }),
  )
  /** The e-mail consent alone, from /setting (spec §2 app settings); the push settings stay as they are. */
  .post(
    '/web/mail',
    ...formRoute({
      schema: PushSettingsForm.pick({ isAgreeMail: true }),
      guest: toLogin('/setting'),
      run: (data, c) => saveMailConsent(c.var.db, currentUserId(c), data.isAgreeMail),
      done: () => '/setting?saved=mail',
      failed: (code) => `/setting?error=${code}`,
    }),
  )
  /** The /my/profile page's plain form: the nickname (a refusal comes back with its reason, and the word it found). */
  .post(
    '/web/profile',
    ...formRoute({
      schema: ProfileRequest,
      guest: toLogin('/my/profile'),
      run: (data, c) => setNickname(c.var.db, currentUserId(c), data.nickname, c.var.edition.reservedNames),
      done: () => '/my/profile?saved=1',
      failed: (code, _raw, details) =>
        `/my/profile?${new URLSearchParams({
          error: code,
          ...(typeof details?.reason === 'string' ? { reason: details.reason } : {}),
          ...(typeof details?.word === 'string' ? { word: details.word } : {}),
        })}`,
      keep: ['nickname'],
    }),
  )
  .post(
    '/web/withdrawal',
    ...formRoute({
      schema: WithdrawalForm,
      guest: toLogin('/setting/withdrawal'),
      run: (data, c) => {
        const reasons = reasonsOf(data.reason)
        if (!reasons.every((r): r is WithdrawalReason => (WITHDRAWAL_REASONS as readonly string[]).includes(r)))
          throw new AppError('INVALID_PARAMETER')
        return requestWithdrawal(
          c.var.db,
          currentUserId(c),
          { reasons, detail: data.detail, agree: data.agree !== undefined },
          authContext(c),
        )
      },
      done: () => '/setting/withdrawal?sent=1',
      failed: (code) => `/setting/withdrawal?error=${code}`,
    }),
  )
  /** The /setting data export form (issue 37 point 6). */
  .post(
    '/web/export',
    ...formRoute({
      schema: z.object({}),
      guest: toLogin('/setting'),
      run: (_data, c) => requestExport(c.var.db, env.ALARMS, currentUserId(c), c.var.edition.timeZone),
      done: () => '/setting#export',
      failed: (code) => `/setting?error=${code}`,
    }),
  )
  /** The /setting spending limit form (issue 37 point 5): empty for none; a raise is kept for 24 hours first. */
  .post(
    '/web/spending-limit',
    ...formRoute({
      schema: SpendingLimitForm,
      guest: toLogin('/setting'),
      run: (data, c) => setSpendingLimit(currentUserId(c), data.coins),
      done: () => '/setting?saved=spending#spending',
      // no fragment: a target element would stop the browser from focusing the field (autofocus)
      failed: (code) => `/setting?error=${code}`,
      keep: ['coins'],
    }),
  )
  .post(
    '/web/withdrawal/approve',
    ...formRoute({
      schema: ApproveBody,
      run: async (data, c) => {
        await approveWithdrawal(c.var.db, data, authContext(c))
        deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
      },
      done: () => '/callback/logout-success?withdrawn=1',
      failed: (code, raw) =>
        `/setting/withdrawal/confirm?${new URLSearchParams({ userId: field(raw, 'userId'), uuid: field(raw, 'uuid'), error: code })}`,
    }),
  )
  .post(
    '/web/transfer/start',
    transferOn,
    ...transferForm('start', z.object({}), (c) => startTransfer(c.var.db, currentUserId(c)), '/transfer/apply/confirm'),
  )
  .post(
    '/web/transfer/request',
    transferOn,
    ...transferForm(
      'request',
      z.object({ agree: z.string().max(16) }),
      (c) => requestTransfer(c.var.db, currentUserId(c), authContext(c)),
      '/transfer/apply/status',
    ),
  )
  .post(
    '/web/transfer/cancel',
    transferOn,
    ...transferForm('cancel', z.object({}), (c) => cancelTransfer(c.var.db, currentUserId(c)), '/transfer/note?cancelled=1'),
  )
  .route('/transfer', transfer)
  // members only below (the routes above are open, forms that send a guest to log in, or the transfer group)
  .use(requireUser)
  /**
   * Spec §7 PUT /user: PROFILE sets the nickname, ADULT is the age check, MAIL the e-mail consent; then the token
   * pair is renewed (an app that sent its refreshToken gets it back as `authResponse`; the web's goes into its cookie).
   */
  .put('/', validate('json', PutUserBody), async (c) => {
    const body = c.req.valid('json')
    if (body.action === 'PROFILE')
      try {
        await setNickname(c.var.db, currentUserId(c), body.profileRequest.nickname, c.var.edition.reservedNames)
      } catch (e) {
        if (e instanceof NicknameError) return nicknameRefusal(c, e)
        throw e
      }
    else if (body.action === 'ADULT') await verifyAdultOf(c, body.verifyAdultRequest.birthedAt)
    else await saveMailConsent(c.var.db, currentUserId(c), body.agreeMailRequest.isAgreeMail)
    const authResponse = await renewTokens(c, body.refreshToken)
    return ok(c, { ...(await me(c)), authResponse })
  })
  // the session is checked by the one call to the reader's object that answers it (the profile is its account card)
  .get('/me', checksSessionItself, async (c) => {
    const session = currentSession(c)
    const me = await userMe(session.userId, session)
    if (!me) throw new AppError('NOT_LOGIN_USER')
    return ok(c, me)
  })
  /** Spec §3/§7 push settings and e-mail consent (PUT /app/push in the spec's call list). */
  // as /me: the one call to the reader's object checks the session (the settings are on the account card)
  .get('/push', checksSessionItself, async (c) => {
    const session = currentSession(c)
    const settings = await readerPushSettings(session.userId, session)
    if (!settings) throw new AppError('NOT_LOGIN_USER')
    return ok(c, settings)
  })
  .put('/push', validate('json', PushSettingsBody), async (c) =>
    ok(c, await savePushSettings(c.var.db, currentUserId(c), c.req.valid('json'))),
  )
  /** Issue 37 point 5: the monthly spending limit and this month's spending by series (docs/API.md `/user/spending-limit`). */
  .get('/spending-limit', async (c) => ok(c, await spendingOf(c.var.db, currentUserId(c), c.var.edition.timeZone)))
  .put('/spending-limit', validate('json', SpendingLimitBody), async (c) =>
    ok(c, await setSpendingLimit(currentUserId(c), c.req.valid('json').coins)),
  )
  /** Issue 37 point 6: the reader's data export, one a day, prepared through the queue (docs/API.md `/user/export`). */
  .post('/export', async (c) => ok(c, await requestExport(c.var.db, env.ALARMS, currentUserId(c), c.var.edition.timeZone), 202))
  .get('/export', async (c) => ok(c, { export: await latestExport(c.var.db, currentUserId(c)) }))
  .get('/export/:id/:format', validate('param', ExportFileParams), async (c) => {
    const { id, format } = c.req.valid('param')
    return exportFile(c.var.db, env.MEDIA, currentUserId(c), id, format, c.var.edition.siteName)
  })
  /** Spec §4 withdrawal: reasons + agreement → confirmation mail; the mailed link approves and deletes (above). */
  .post('/withdrawal', validate('json', WithdrawalBody), async (c) =>
    ok(c, await requestWithdrawal(c.var.db, currentUserId(c), c.req.valid('json'), authContext(c))),
  )

/** Spec §7 PUT /app/push under its own name (mounted at `/app` in v1.ts): the same as PUT /user/push. */
export const appPush = new Hono<AppEnv>()
  .use(requireUser)
  .put('/push', validate('json', PushSettingsBody), async (c) =>
    ok(c, await savePushSettings(c.var.db, currentUserId(c), c.req.valid('json'))),
  )
