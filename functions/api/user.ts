import { Hono } from 'hono'
import { deleteCookie } from 'hono/cookie'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { userMe } from '../../src/features/auth/auth.server.ts'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import { sessionCookieOptions } from '../../src/features/session/cookie.ts'
import { PushSettingsBody, PushSettingsForm, WITHDRAWAL_REASONS, WithdrawalBody, type WithdrawalReason } from '../../src/features/account/account.ts'
import { approveWithdrawal, pushSettings, requestWithdrawal, savePushSettings } from '../../src/features/account/account.server.ts'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser, session } from '../middleware/session.ts'
import { authContext, field, formFlow } from './forms.ts'

const ApproveBody = z.object({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER), uuid: z.string().max(128) })
/** The withdrawal form: reason checkboxes (`reason` repeated), detail, agreement checkbox. */
const WithdrawalForm = z.object({
  reason: z.union([z.string().max(32), z.array(z.string().max(32)).max(WITHDRAWAL_REASONS.length)]).optional(),
  detail: z.string().max(500).optional(),
  agree: z.string().max(16).optional(),
})
const reasonsOf = (r: string | string[] | undefined) => (r === undefined ? [] : Array.isArray(r) ? r : [r])

/** API.md `/user`: the signed-in reader's own data only (the id comes from the token, never from the request). */
export const user = new Hono<AppEnv>()
  .get('/me', session, requireUser, async (c) => {
    const me = await userMe(c.var.db, currentUserId(c))
    if (!me) throw new AppError('NOT_LOGIN_USER')
    c.header('Cache-Control', 'private, no-store')
    return ok(c, me)
  })
  /** Spec §3/§7 push settings and e-mail consent (PUT /app/push in the spec's call list). */
  .get('/push', session, requireUser, async (c) => {
    const settings = await pushSettings(c.var.db, currentUserId(c))
    if (!settings) throw new AppError('NOT_LOGIN_USER')
    c.header('Cache-Control', 'private, no-store')
    return ok(c, settings)
  })
  .put('/push', session, requireUser, validate('json', PushSettingsBody), async (c) => ok(c, await savePushSettings(c.var.db, currentUserId(c), c.req.valid('json'))))
  /** Spec §4 withdrawal: reasons + agreement → confirmation mail; the mailed link approves and deletes. */
  .post('/withdrawal', session, requireUser, validate('json', WithdrawalBody), async (c) => ok(c, await requestWithdrawal(c.var.db, currentUserId(c), c.req.valid('json'), authContext(c))))
  .post('/withdrawal/approve', validate('json', ApproveBody), async (c) => ok(c, await approveWithdrawal(c.var.db, c.req.valid('json'), authContext(c))))
  /** Plain forms of /setting/push and /setting/withdrawal (no JavaScript needed). */
  .post('/web/push', (c) => {
    const userId = c.var.session.userId
    if (userId === null) return c.redirect('/user/login?callback=%2Fsetting%2Fpush', 303)
    return formFlow(c, PushSettingsForm, (data) => savePushSettings(c.var.db, userId, { ...data }), () => '/setting/push?saved=1', (code) => `/setting/push?error=${code}`)
  })
  .post('/web/withdrawal', (c) => {
    const userId = c.var.session.userId
    if (userId === null) return c.redirect('/user/login?callback=%2Fsetting%2Fwithdrawal', 303)
    return formFlow(c, WithdrawalForm,
      (data) => {
        const reasons = reasonsOf(data.reason)
        if (!reasons.every((r): r is WithdrawalReason => (WITHDRAWAL_REASONS as readonly string[]).includes(r))) throw new AppError('INVALID_PARAMETER')
        return requestWithdrawal(c.var.db, userId, { reasons, detail: data.detail, agree: data.agree !== undefined }, authContext(c))
      },
      () => '/setting/withdrawal?sent=1', (code) => `/setting/withdrawal?error=${code}`)
  })
  .post('/web/withdrawal/approve', (c) =>
    formFlow(c, ApproveBody, async (data) => {
      await approveWithdrawal(c.var.db, data, authContext(c))
      deleteCookie(c, SESSION_COOKIE, sessionCookieOptions(c.req.url))
    }, () => '/callback/logout-success?withdrawn=1',
    (code, raw) => `/setting/withdrawal/confirm?${new URLSearchParams({ userId: field(raw, 'userId'), uuid: field(raw, 'uuid'), error: code })}`))
