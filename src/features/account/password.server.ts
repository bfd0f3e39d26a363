/**
 * Passwords on D1 (spec §4/§5/§7/§8/§9): change (signed in), and reset by an e-mail link or by the ticket a
 * find-password SMS code gives (`sms.server.ts`). A new password ends every session of the account.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { hashPassword, verifyPassword } from '../../lib/server/password.ts'
import { hasher } from '../auth/hasher.server.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import { countAttempt, issueTokens, pepper, type AuthContext, type TokenPair } from '../auth/auth.server.ts'
import { isValidEmail, signInBuckets } from '../auth/auth.ts'
import { normaliseEmail } from '../../lib/email.ts'
import { hashToken } from '../auth/tokens.ts'
import { randomToken } from '../../lib/secrets.ts'
import {
  CHANGE_PASSWORD_MAX_FAILURES,
  CHANGE_PASSWORD_WINDOW_SECONDS,
  RESET_LINK_TTL_SECONDS,
  RESET_MAIL_WINDOW_SECONDS,
  RESET_TICKET_MAX_ATTEMPTS,
  changePasswordError,
  resetPasswordError,
  type ChangePasswordBody,
  type ResetPasswordBody,
} from './account.ts'
import { endAllSessions, type Stmt } from './account.server.ts'
import { accountChanged } from '../age/age.server.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { checkLimits } from '../auth/limits.server.ts'

// ─────────────────────────────── change password ───────────────────────────────

/**
 * Spec §5/§7/§8 change password (login required): confirmation, the 6+ letters-and-digits rule, different from
 * the current one, current password right (INCORRECT_PASSWORD). A social-only account has no password here
 * (NOT_LOCAL_LOGIN_USER). Wrong current passwords are limited like sign-in (DUPLICATE_LOGIN after 5 in an hour).
 * On success every session of the account ends (ASVS 7.4.3) and this client gets a new pair.
 */
export async function changePassword(db: Db, userId: number, body: ChangePasswordBody, ctx: AuthContext): Promise<TokenPair> {
  const rule = changePasswordError(body)
  if (rule) throw new AppError(rule)
  const now = ctx.now ?? new Date()
  const user = await db.first<Cols<'users', 'password_hash'>>(
    `SELECT password_hash AS passwordHash FROM users WHERE id = ? AND deleted_at IS NULL`,
    userId,
  )
  if (!user) throw new AppError('NOT_LOGIN_USER')
  if (!user.passwordHash) throw new AppError('NOT_LOCAL_LOGIN_USER')
  const bucket = `change-password:${userId}`
  if ((await countAttempt(db, bucket, CHANGE_PASSWORD_WINDOW_SECONDS, now)) > CHANGE_PASSWORD_MAX_FAILURES)
    throw new AppError('DUPLICATE_LOGIN')
  if (!(await verifyPassword(body.oldPassword, user.passwordHash, pepper(), hasher())))
    throw new AppError('INCORRECT_PASSWORD', { field: 'oldPassword' })
  const nowIso = now.toISOString()
  const hash = await hashPassword(body.newPassword, pepper(), hasher())
  const tokens = await issueTokens(db, userId, ctx, [
    { sql: `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, params: [hash, nowIso, userId] },
    ...endAllSessions(userId),
    { sql: `DELETE FROM rate_limits WHERE bucket = ?`, params: [bucket] },
  ])
  await accountChanged(userId)
  return tokens
}

// ─────────────────────────────── reset by e-mail link ───────────────────────────────

/** The reset page link of a ticket (the edition's own site, never the request's Host: ASVS 6.4 link poisoning). */
function resetLink(issuer: string, userId: number, uuid: string): string {
  return `${issuer.replace(/\/$/, '')}/user/resetPassword?${new URLSearchParams({ userId: String(userId), uuid })}`
}

/**
 * Spec §4/§8/§9 find password, e-mail ID tab: a reset link by mail, valid 1 hour, single use. The answer is the
 * same `{sent:true}` for known, unknown and social-only addresses (ASVS 6.3.8); a social-only account is told by
 * mail to sign in at its provider (spec §6). A second request for one address within 5 minutes: FREQUENT_REQUEST.
 */
export async function requestResetMail(db: Db, body: { email: string }, ctx: AuthContext): Promise<{ sent: true }> {
  const now = ctx.now ?? new Date()
  const email = normaliseEmail(body.email)
  if (!isValidEmail(email)) throw new AppError('INVALID_MAIL_FORM')
  await checkLimits('mail-send', ctx)
  if ((await countAttempt(db, `reset-mail:${email}`, RESET_MAIL_WINDOW_SECONDS, now)) > 1) throw new AppError('FREQUENT_REQUEST')
  const user = await db.first<Cols<'users', 'id'> & { local: Flag }>(
    `SELECT id, password_hash IS NOT NULL AS local FROM users WHERE email = ? AND deleted_at IS NULL`,
    email,
  )
  if (!user) {
    // ASVS 6.3.8: the same number of D1 round trips as for a known address, so the answer time tells nothing
    await db.batch([{ sql: `SELECT 1 WHERE 0`, params: [] }])
    await db.first(`SELECT 1 WHERE 0`)
    return { sent: true }
  }
  const mail = messageProvider(db)
  if (!flag(user.local)) {
    await mail.send(
      {
        channel: 'MAIL',
        recipient: email,
        template: 'reset-not-local',
        subject: ctx.t('account.mail.reset.subject'),
        body: ctx.t('account.mail.reset.notLocal'),
      },
      now,
    )
    return { sent: true }
  }
  const { uuid, statements } = await resetTicket(user.id, email, 'MAIL', RESET_LINK_TTL_SECONDS, now)
  await db.batch(statements)
  const url = resetLink(ctx.issuer, user.id, uuid)
  await mail.send(
    {
      channel: 'MAIL',
      recipient: email,
      template: 'reset-password',
      subject: ctx.t('account.mail.reset.subject'),
      body: ctx.t('account.mail.reset.body', { url }),
      meta: { url },
    },
    now,
  )
  return { sent: true }
}

/** A new single-use reset ticket (only its SHA-256 is stored); earlier unused tickets of the user stop working. */
export async function resetTicket(
  userId: number,
  target: string,
  purpose: 'MAIL' | 'SMS',
  ttlSeconds: number,
  now: Date,
): Promise<{ uuid: string; statements: Stmt[] }> {
  const uuid = randomToken(32)
  const nowIso = now.toISOString()
  return {
    uuid,
    statements: [
      {
        sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'RESET_LINK' AND user_id = ? AND used_at IS NULL`,
        params: [nowIso, userId],
      },
      {
        sql: `INSERT INTO one_time_codes (kind, purpose, user_id, target, code_hash, created_at, expires_at) VALUES ('RESET_LINK', ?, ?, ?, ?, ?, ?)`,
        params: [purpose, userId, target, await hashToken(uuid), nowIso, isoAfter(now, ttlSeconds * SECOND_MS)],
      },
    ],
  }
}

/**
 * Spec §3/§4/§7 POST /auth/local/reset/password {userId, uuid, newPassword}: the ticket of a reset mail (1 hour)
 * or of a find-password SMS code (10 minutes), single use. Results as the reset result page shows them:
 * TIMEOUT (expired, used or unknown ticket), NOT_LOCAL_LOGIN_USER, EQUAL_PASSWORD (the ticket stays usable),
 * INVALID_PW_REGEX / INCORRECT_PASSWORD (form rules). On success every session ends and a notice is mailed.
 */
export async function resetPassword(db: Db, body: ResetPasswordBody, ctx: AuthContext): Promise<{ result: 'SUCCESS' }> {
  const rule = resetPasswordError(body)
  if (rule) throw new AppError(rule)
  await checkLimits('code-check', ctx)
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  // one statement spends an attempt of the ticket and checks it is unused, unexpired and under the limit
  const ticket = await db.first<Cols<'one_time_codes', 'id'>>(
    `UPDATE one_time_codes SET attempts = attempts + 1
      WHERE kind = 'RESET_LINK' AND code_hash = ? AND user_id = ? AND used_at IS NULL AND expires_at > ? AND attempts < ?
        AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
      RETURNING id`,
    await hashToken(body.uuid),
    body.userId,
    nowIso,
    RESET_TICKET_MAX_ATTEMPTS,
  )
  if (!ticket) throw new AppError('TIMEOUT')
  const row = (await db.first<Cols<'users', 'password_hash' | 'email'>>(
    `SELECT password_hash AS passwordHash, email FROM users WHERE id = ?`,
    body.userId,
  ))!
  if (!row.passwordHash) throw new AppError('NOT_LOCAL_LOGIN_USER')
  if (await verifyPassword(body.newPassword, row.passwordHash, pepper(), hasher())) throw new AppError('EQUAL_PASSWORD')
  const hash = await hashPassword(body.newPassword, pepper(), hasher())
  const locks = signInBuckets(row.email ?? '')
  // claim and change in one batch: of two submissions of one link exactly one changes the password
  const claimed = `(SELECT used_at FROM one_time_codes WHERE id = ?) = ?`
  const results = await db.batch([
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, params: [nowIso, ticket.id] },
    {
      sql: `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND ${claimed}`,
      params: [hash, nowIso, body.userId, ticket.id, nowIso],
    },
    ...endAllSessions(body.userId, { sql: claimed, params: [ticket.id, nowIso] }),
    // the owner proved it: the e-mail's sign-in locks (every address) lift
    { sql: `DELETE FROM rate_limits WHERE bucket >= ? AND bucket < ?`, params: [locks.from, locks.to] },
  ])
  if ((results[0]?.meta.changes ?? 0) !== 1) throw new AppError('TIMEOUT')
  await accountChanged(body.userId)
  if (row.email) {
    await messageProvider(db).send(
      {
        channel: 'MAIL',
        recipient: row.email,
        template: 'password-changed',
        subject: ctx.t('account.mail.changed.subject'),
        body: ctx.t('account.mail.changed.body'),
      },
      now,
    )
  }
  return { result: 'SUCCESS' }
}

/** True while a reset ticket can still be used (the reset page shows the form, or the TIMEOUT result). */
export async function isResetTicketLive(db: Db, userId: number, uuid: string, now: Date = new Date()): Promise<boolean> {
  const row = await db.first<Cols<'one_time_codes', 'id'>>(
    `SELECT id FROM one_time_codes WHERE kind = 'RESET_LINK' AND code_hash = ? AND user_id = ? AND used_at IS NULL AND expires_at > ?`,
    await hashToken(uuid),
    userId,
    now.toISOString(),
  )
  return row !== null
}
