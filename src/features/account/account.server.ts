/**
 * Account life cycle on D1 (spec §2/§4/§5/§8/§9, issue 3 items 5, 6, 8): change password, reset by e-mail link,
 * find ID and find password by SMS code, phone registration, push settings, withdrawal. Mail and SMS go
 * through `messaging.server.ts` (local default: the outbox).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { hashPassword, verifyPassword } from '../../lib/server/password.ts'
import { countAttempt, issueTokens, otpHash, pepper, timingSafeEqualText, type AuthContext, type TokenPair } from '../auth/auth.server.ts'
import { generateOtp, isValidEmail, normaliseEmail, signInBuckets } from '../auth/auth.ts'
import { hashToken, randomToken } from '../auth/tokens.ts'
import {
  CHANGE_PASSWORD_MAX_FAILURES,
  CHANGE_PASSWORD_WINDOW_SECONDS,
  FIND_ID_MAX,
  RESET_LINK_TTL_SECONDS,
  RESET_MAIL_WINDOW_SECONDS,
  RESET_TICKET_MAX_ATTEMPTS,
  SMS_DAY_SECONDS,
  SMS_MAX_ATTEMPTS,
  SMS_MAX_PER_DAY,
  SMS_RESET_TTL_SECONDS,
  SMS_TTL_SECONDS,
  WITHDRAWAL_LINK_TTL_SECONDS,
  changePasswordError,
  maskEmail,
  maskPhone,
  normalisePhone,
  resetPasswordError,
  withdrawalError,
  type ChangePasswordBody,
  type PushSettingsBody,
  type ResetPasswordBody,
  type SmsRequestBody,
  type SmsVerifyBody,
  type WithdrawalBody,
} from './account.ts'
import { messageProvider } from './messaging.server.ts'
import { checkLimits } from '../auth/limits.server.ts'
import {
  TRANSFER_CODE_TTL_SECONDS,
  TRANSFER_MAX_ATTEMPTS,
  generateTransferCode,
  nextTransferStatus,
  normaliseTransferCode,
  transferLocator,
  type TransferAction,
  type TransferErrorReason,
  type TransferStatus,
} from './transfer.ts'

type Stmt = { sql: string; params: unknown[] }
const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString()

/**
 * Ends every session of the user at once (ASVS 7.4.3): the refresh-token families are revoked and, in the same
 * batch, `users.session_version` moves on so the access tokens already issued are refused too (see the session
 * middleware). `claimed`: the guard of a single-use link, with its parameters.
 */
const endAllSessions = (userId: number, nowIso: string, claimed: Stmt = { sql: '1', params: [] }): Stmt[] => [
  { sql: `UPDATE refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND ${claimed.sql}`, params: [nowIso, userId, ...claimed.params] },
  { sql: `UPDATE users SET session_version = session_version + 1 WHERE id = ? AND ${claimed.sql}`, params: [userId, ...claimed.params] },
]

/** "Sign out of every device" (/setting, ASVS 7.4.3/7.5.2): every session of the account ends, this one too. */
export async function signOutEverywhere(db: Db, userId: number, now = new Date()): Promise<void> {
  await db.batch(endAllSessions(userId, now.toISOString()))
}

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
  const user = await db.first<{ passwordHash: string | null }>(`SELECT password_hash AS passwordHash FROM users WHERE id = ? AND deleted_at IS NULL`, userId)
  if (!user) throw new AppError('NOT_LOGIN_USER')
  if (!user.passwordHash) throw new AppError('NOT_LOCAL_LOGIN_USER')
  const bucket = `change-password:${userId}`
  if ((await countAttempt(db, bucket, CHANGE_PASSWORD_WINDOW_SECONDS, now)) > CHANGE_PASSWORD_MAX_FAILURES) throw new AppError('DUPLICATE_LOGIN')
  if (!(await verifyPassword(body.oldPassword, user.passwordHash, pepper()))) throw new AppError('INCORRECT_PASSWORD')
  const nowIso = now.toISOString()
  const hash = await hashPassword(body.newPassword, pepper())
  return issueTokens(db, userId, ctx, [
    { sql: `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, params: [hash, nowIso, userId] },
    ...endAllSessions(userId, nowIso),
    { sql: `DELETE FROM rate_limits WHERE bucket = ?`, params: [bucket] },
  ])
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
  const user = await db.first<{ id: number; local: number }>(
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
  if (!user.local) {
    await mail.send({ channel: 'MAIL', recipient: email, template: 'reset-not-local', subject: ctx.t('account.mail.reset.subject'), body: ctx.t('account.mail.reset.notLocal') }, now)
    return { sent: true }
  }
  const { uuid, statements } = await resetTicket(user.id, email, 'MAIL', RESET_LINK_TTL_SECONDS, now)
  await db.batch(statements)
  const url = resetLink(ctx.issuer, user.id, uuid)
  await mail.send({ channel: 'MAIL', recipient: email, template: 'reset-password', subject: ctx.t('account.mail.reset.subject'), body: ctx.t('account.mail.reset.body', { url }), meta: { url } }, now)
  return { sent: true }
}

/** A new single-use reset ticket (only its SHA-256 is stored); earlier unused tickets of the user stop working. */
async function resetTicket(userId: number, target: string, purpose: 'MAIL' | 'SMS', ttlSeconds: number, now: Date): Promise<{ uuid: string; statements: Stmt[] }> {
  const uuid = randomToken(32)
  const nowIso = now.toISOString()
  return {
    uuid,
    statements: [
      { sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'RESET_LINK' AND user_id = ? AND used_at IS NULL`, params: [nowIso, userId] },
      {
        sql: `INSERT INTO one_time_codes (kind, purpose, user_id, target, code_hash, created_at, expires_at) VALUES ('RESET_LINK', ?, ?, ?, ?, ?, ?)`,
        params: [purpose, userId, target, await hashToken(uuid), nowIso, later(now, ttlSeconds)],
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
  const ticket = await db.first<{ id: number }>(
    `UPDATE one_time_codes SET attempts = attempts + 1
      WHERE kind = 'RESET_LINK' AND code_hash = ? AND user_id = ? AND used_at IS NULL AND expires_at > ? AND attempts < ?
        AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
      RETURNING id`,
    await hashToken(body.uuid), body.userId, nowIso, RESET_TICKET_MAX_ATTEMPTS,
  )
  if (!ticket) throw new AppError('TIMEOUT')
  const row = (await db.first<{ passwordHash: string | null; email: string | null }>(`SELECT password_hash AS passwordHash, email FROM users WHERE id = ?`, body.userId))!
  if (!row.passwordHash) throw new AppError('NOT_LOCAL_LOGIN_USER')
  if (await verifyPassword(body.newPassword, row.passwordHash, pepper())) throw new AppError('EQUAL_PASSWORD')
  const hash = await hashPassword(body.newPassword, pepper())
  const locks = signInBuckets(row.email ?? '')
  // claim and change in one batch: of two submissions of one link exactly one changes the password
  const claimed = `(SELECT used_at FROM one_time_codes WHERE id = ?) = ?`
  const results = await db.batch([
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, params: [nowIso, ticket.id] },
    { sql: `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? AND ${claimed}`, params: [hash, nowIso, body.userId, ticket.id, nowIso] },
    ...endAllSessions(body.userId, nowIso, { sql: claimed, params: [ticket.id, nowIso] }),
    // the owner proved it: the e-mail's sign-in locks (every address) lift
    { sql: `DELETE FROM rate_limits WHERE bucket >= ? AND bucket < ?`, params: [locks.from, locks.to] },
  ])
  if ((results[0]?.meta.changes ?? 0) !== 1) throw new AppError('TIMEOUT')
  if (row.email) {
    await messageProvider(db).send({ channel: 'MAIL', recipient: row.email, template: 'password-changed', subject: ctx.t('account.mail.changed.subject'), body: ctx.t('account.mail.changed.body') }, now)
  }
  return { result: 'SUCCESS' }
}

/** True while a reset ticket can still be used (the reset page shows the form, or the TIMEOUT result). */
export async function isResetTicketLive(db: Db, userId: number, uuid: string, now: Date = new Date()): Promise<boolean> {
  const row = await db.first<{ id: number }>(
    `SELECT id FROM one_time_codes WHERE kind = 'RESET_LINK' AND code_hash = ? AND user_id = ? AND used_at IS NULL AND expires_at > ?`,
    await hashToken(uuid),
    userId,
    now.toISOString(),
  )
  return row !== null
}

// ─────────────────────────────── SMS codes ───────────────────────────────

type SmsRow = { userId: number | null; expiresAt: string; usedAt: string | null; attempts: number }

const smsTarget = (phone: string) => phone

/**
 * Spec §2/§4/§9 phone verification: a 6-digit SMS code valid 10 minutes (the page counts it down). While the
 * previous code for the same purpose and phone is still valid and unused: ALREADY_SEND_SMS (with its expiry,
 * so the countdown continues). More than 5 codes per phone per day: EXCEED_AUTH_COUNT. The code goes to the
 * phone whatever accounts it has: only its holder learns anything, at the verify step.
 * PHONE (registration of the reader's own phone) needs a signed-in reader.
 */
export async function requestSmsCode(db: Db, body: SmsRequestBody, ctx: AuthContext, userId: number | null = null): Promise<{ sent: true; expiresAt: string; phone: string }> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const phone = normalisePhone(body.phone, ctx.phoneCountry ?? '')
  if (!phone) throw new AppError('INVALID_PARAMETER', { fields: 'phone' })
  if (body.purpose === 'FIND_PASSWORD' && !isValidEmail(normaliseEmail(body.id ?? ''))) throw new AppError('INVALID_MAIL_FORM')
  if (body.purpose === 'PHONE' && userId === null) throw new AppError('NOT_LOGIN_USER')
  await checkLimits('sms-send', ctx)
  const live = await db.first<{ expiresAt: string }>(
    `SELECT expires_at AS expiresAt FROM one_time_codes
      WHERE kind = 'SMS' AND purpose = ? AND target = ? AND used_at IS NULL AND expires_at > ? AND attempts < ? ORDER BY id DESC LIMIT 1`,
    body.purpose, smsTarget(phone), nowIso, SMS_MAX_ATTEMPTS,
  )
  if (live) throw new AppError('ALREADY_SEND_SMS', { expiresAt: live.expiresAt })
  if ((await countAttempt(db, `sms:${phone}`, SMS_DAY_SECONDS, now)) > SMS_MAX_PER_DAY) throw new AppError('EXCEED_AUTH_COUNT')
  const code = generateOtp()
  const expiresAt = later(now, SMS_TTL_SECONDS)
  await db.batch([
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'SMS' AND purpose = ? AND target = ? AND used_at IS NULL`, params: [nowIso, body.purpose, smsTarget(phone)] },
    {
      sql: `INSERT INTO one_time_codes (kind, purpose, user_id, target, code_hash, created_at, expires_at) VALUES ('SMS', ?, ?, ?, ?, ?, ?)`,
      params: [body.purpose, body.purpose === 'PHONE' ? userId : null, smsTarget(phone), await otpHash(`sms:${body.purpose}:${phone}`, code), nowIso, expiresAt],
    },
  ])
  await messageProvider(db).send({ channel: 'SMS', recipient: phone, template: `sms-${body.purpose.toLowerCase()}`, body: ctx.t('account.sms.code', { code }) }, now)
  return { sent: true, expiresAt, phone: maskPhone(phone) }
}

/** Why the phone's latest code could not be tried: none (or another reader's), used, out of attempts, expired. */
async function smsRefusal(db: Db, purpose: SmsVerifyBody['purpose'], phone: string, userId: number | null, nowIso: string): Promise<AppError> {
  const row = await db.first<SmsRow>(
    `SELECT user_id AS userId, expires_at AS expiresAt, used_at AS usedAt, attempts FROM one_time_codes
      WHERE kind = 'SMS' AND purpose = ? AND target = ? ORDER BY id DESC LIMIT 1`,
    purpose, smsTarget(phone),
  )
  if (!row || (purpose === 'PHONE' && row.userId !== userId)) return new AppError('NOT_FOUND_SMS_USER')
  if (row.usedAt) return new AppError('ALREADY_USE_SMS')
  if (row.attempts >= SMS_MAX_ATTEMPTS) return new AppError('EXCEED_AUTH_COUNT')
  if (row.expiresAt <= nowIso) return new AppError('EXPIRED_OTP')
  return new AppError('NOT_FOUND_SMS_USER')
}

export type SmsVerified =
  | { purpose: 'FIND_ID'; ids: string[]; total: number }
  | { purpose: 'FIND_PASSWORD'; userId: number; uuid: string; expiresAt: string }
  | { purpose: 'PHONE'; phone: string }

/**
 * Spec §4/§8 verify an SMS code: none requested (or for another reader) or a wrong code → NOT_FOUND_SMS_USER
 * (one of 5 attempts spent, then EXCEED_AUTH_COUNT); used → ALREADY_USE_SMS; past 10 minutes → EXPIRED_OTP.
 * A right code is spent, then:
 * - FIND_ID: the IDs of the phone's accounts, masked, at most 20 (none: NOT_REGISTERED_PHONE_USER);
 * - FIND_PASSWORD: a reset ticket (10 minutes) for the account of that e-mail ID and phone (none: NOT_FOUND_USER,
 *   the code stays usable for a corrected ID);
 * - PHONE: the phone becomes the signed-in reader's.
 */
export async function verifySmsCode(db: Db, body: SmsVerifyBody, ctx: AuthContext, userId: number | null = null): Promise<SmsVerified> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const phone = normalisePhone(body.phone, ctx.phoneCountry ?? '')
  if (!phone) throw new AppError('INVALID_PARAMETER', { fields: 'phone' })
  if (body.purpose === 'PHONE' && userId === null) throw new AppError('NOT_LOGIN_USER')
  await checkLimits('code-check', ctx)
  // one statement spends an attempt of the phone's latest code and checks it is unused, unexpired and under the
  // limit (and, for PHONE, the reader's): parallel guesses get at most SMS_MAX_ATTEMPTS evaluations between them
  const row = await db.first<{ id: number; codeHash: string }>(
    `UPDATE one_time_codes SET attempts = attempts + 1
      WHERE id = (SELECT id FROM one_time_codes WHERE kind = 'SMS' AND purpose = ?1 AND target = ?2 ORDER BY id DESC LIMIT 1)
        AND used_at IS NULL AND expires_at > ?3 AND attempts < ?4 AND (?1 <> 'PHONE' OR user_id = ?5)
      RETURNING id, code_hash AS codeHash`,
    body.purpose, smsTarget(phone), nowIso, SMS_MAX_ATTEMPTS, userId,
  )
  if (!row) throw await smsRefusal(db, body.purpose, phone, userId, nowIso)
  if (!timingSafeEqualText(await otpHash(`sms:${body.purpose}:${phone}`, body.code), row.codeHash)) throw new AppError('NOT_FOUND_SMS_USER')

  let account: { id: number; email: string } | null = null
  if (body.purpose === 'FIND_PASSWORD') {
    const email = normaliseEmail(body.id ?? '')
    account = await db.first<{ id: number; email: string }>(
      `SELECT id, email FROM users WHERE email = ? AND phone = ? AND deleted_at IS NULL AND password_hash IS NOT NULL`,
      email, phone,
    )
    if (!account) throw new AppError('NOT_FOUND_USER')
  }
  const spent = await db.run(`UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, nowIso, row.id)
  if (spent !== 1) throw new AppError('ALREADY_USE_SMS')

  if (body.purpose === 'FIND_ID') {
    const rows = await db.all<{ email: string }>(
      `SELECT email FROM users WHERE phone = ? AND deleted_at IS NULL AND email IS NOT NULL ORDER BY id LIMIT ?`,
      phone, FIND_ID_MAX + 1,
    )
    if (rows.length === 0) throw new AppError('NOT_REGISTERED_PHONE_USER')
    const total = (await db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM users WHERE phone = ? AND deleted_at IS NULL AND email IS NOT NULL`, phone))?.n ?? rows.length
    return { purpose: 'FIND_ID', ids: rows.slice(0, FIND_ID_MAX).map((r) => maskEmail(r.email)), total }
  }
  if (body.purpose === 'FIND_PASSWORD') {
    const ticket = await resetTicket(account!.id, phone, 'SMS', SMS_RESET_TTL_SECONDS, now)
    await db.batch(ticket.statements)
    return { purpose: 'FIND_PASSWORD', userId: account!.id, uuid: ticket.uuid, expiresAt: later(now, SMS_RESET_TTL_SECONDS) }
  }
  await db.run(`UPDATE users SET phone = ?, updated_at = ? WHERE id = ?`, phone, nowIso, userId)
  return { purpose: 'PHONE', phone: maskPhone(phone) }
}

/** The SMS code the phone is waiting for (the page resumes its countdown), or null. */
export async function pendingSms(db: Db, purpose: SmsRequestBody['purpose'], rawPhone: string, phoneCountry: string, now: Date = new Date()): Promise<{ expiresAt: string } | null> {
  const phone = normalisePhone(rawPhone, phoneCountry)
  if (!phone) return null
  return db.first<{ expiresAt: string }>(
    `SELECT expires_at AS expiresAt FROM one_time_codes WHERE kind = 'SMS' AND purpose = ? AND target = ? AND used_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT 1`,
    purpose, smsTarget(phone), now.toISOString(),
  )
}

// ─────────────────────────────── my page, push settings ───────────────────────────────

export type AccountInfo = { id: number; email: string | null; phone: string | null; providers: string[]; hasPassword: boolean; createdAt: string; isAgreeMail: boolean }

/** Spec §2 /my account block: what the account is and how it signs in. */
export async function accountInfo(db: Db, userId: number): Promise<AccountInfo | null> {
  const row = await db.first<{ id: number; email: string | null; phone: string | null; hasPassword: number; createdAt: string; isAgreeMail: number; providers: string | null }>(
    `SELECT u.id, u.email, u.phone, u.password_hash IS NOT NULL AS hasPassword, u.created_at AS createdAt, u.is_agree_mail AS isAgreeMail,
            (SELECT group_concat(provider) FROM identities WHERE user_id = u.id) AS providers
       FROM users u WHERE u.id = ? AND u.deleted_at IS NULL`,
    userId,
  )
  if (!row) return null
  return { id: row.id, email: row.email, phone: row.phone ? maskPhone(row.phone) : null, providers: row.providers ? row.providers.split(',') : [], hasPassword: row.hasPassword === 1, createdAt: row.createdAt, isAgreeMail: row.isAgreeMail === 1 }
}

export type PushSettings = { isAppPush: boolean; isAgreePush: boolean; isAgreePushNight: boolean; isAgreePushFreetime: boolean; isAgreePushContents: boolean; isAgreeMail: boolean }

/** Spec §3 push settings and e-mail consent of the reader (defaults: all off). */
export async function pushSettings(db: Db, userId: number): Promise<PushSettings | null> {
  const row = await db.first<Record<keyof PushSettings, number | null>>(
    `SELECT p.is_app_push AS isAppPush, p.is_agree_push AS isAgreePush, p.is_agree_push_night AS isAgreePushNight,
            p.is_agree_push_freetime AS isAgreePushFreetime, p.is_agree_push_contents AS isAgreePushContents, u.is_agree_mail AS isAgreeMail
       FROM users u LEFT JOIN push_settings p ON p.user_id = u.id WHERE u.id = ? AND u.deleted_at IS NULL`,
    userId,
  )
  if (!row) return null
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === 1])) as PushSettings
}

/** Spec §7 PUT /app/push: the reader's push settings (and e-mail consent when given), persisted per user. */
export async function savePushSettings(db: Db, userId: number, body: PushSettingsBody, now: Date = new Date()): Promise<PushSettings> {
  const nowIso = now.toISOString()
  const b = (v: boolean | undefined) => (v ? 1 : 0)
  const statements: Stmt[] = [
    {
      sql: `INSERT INTO push_settings (user_id, is_app_push, is_agree_push, is_agree_push_night, is_agree_push_freetime, is_agree_push_contents, updated_at)
            SELECT id, ?, ?, ?, ?, ?, ? FROM users WHERE id = ? AND deleted_at IS NULL
            ON CONFLICT (user_id) DO UPDATE SET is_app_push = COALESCE(?, is_app_push), is_agree_push = excluded.is_agree_push,
              is_agree_push_night = excluded.is_agree_push_night, is_agree_push_freetime = excluded.is_agree_push_freetime,
              is_agree_push_contents = excluded.is_agree_push_contents, updated_at = excluded.updated_at`,
      params: [b(body.isAppPush), b(body.isAgreePush), b(body.isAgreePushNight), b(body.isAgreePushFreetime), b(body.isAgreePushContents), nowIso, userId, body.isAppPush === undefined ? null : b(body.isAppPush)],
    },
  ]
  if (body.isAgreeMail !== undefined) statements.push({ sql: `UPDATE users SET is_agree_mail = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`, params: [b(body.isAgreeMail), nowIso, userId] })
  await db.batch(statements)
  const saved = await pushSettings(db, userId)
  if (!saved) throw new AppError('NOT_LOGIN_USER')
  return saved
}

// ─────────────────────────────── withdrawal ───────────────────────────────

/**
 * Spec §2/§4/§5 withdrawal, step 1 (after the agreement and the confirm dialog): the reasons are recorded and a
 * confirmation link (1 hour) is mailed. Again within 5 minutes: FREQUENT_REQUEST.
 */
export async function requestWithdrawal(db: Db, userId: number, body: WithdrawalBody, ctx: AuthContext): Promise<{ sent: true; email: string | null }> {
  const rule = withdrawalError(body)
  if (rule) throw new AppError(rule)
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const user = await db.first<{ email: string | null }>(`SELECT email FROM users WHERE id = ? AND deleted_at IS NULL`, userId)
  if (!user) throw new AppError('NOT_FOUND_USER')
  if ((await countAttempt(db, `withdrawal:${userId}`, RESET_MAIL_WINDOW_SECONDS, now)) > 1) throw new AppError('FREQUENT_REQUEST')
  const uuid = randomToken(32)
  await db.batch([
    { sql: `UPDATE withdrawals SET cancelled_at = ? WHERE user_id = ? AND approved_at IS NULL AND cancelled_at IS NULL`, params: [nowIso, userId] },
    { sql: `INSERT INTO withdrawals (user_id, reasons, detail, requested_at, confirmed_at) VALUES (?, ?, ?, ?, ?)`, params: [userId, JSON.stringify(body.reasons), body.detail?.trim() || null, nowIso, nowIso] },
    { sql: `UPDATE users SET withdrawal_requested_at = ?, updated_at = ? WHERE id = ?`, params: [nowIso, nowIso, userId] },
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'WITHDRAWAL_MAIL' AND user_id = ? AND used_at IS NULL`, params: [nowIso, userId] },
    {
      sql: `INSERT INTO one_time_codes (kind, user_id, target, code_hash, created_at, expires_at) VALUES ('WITHDRAWAL_MAIL', ?, ?, ?, ?, ?)`,
      params: [userId, user.email ?? `user:${userId}`, await hashToken(uuid), nowIso, later(now, WITHDRAWAL_LINK_TTL_SECONDS)],
    },
  ])
  const url = `${ctx.issuer.replace(/\/$/, '')}/setting/withdrawal/confirm?${new URLSearchParams({ userId: String(userId), uuid })}`
  if (user.email) {
    await messageProvider(db).send({ channel: 'MAIL', recipient: user.email, template: 'withdrawal', subject: ctx.t('account.mail.withdrawal.subject'), body: ctx.t('account.mail.withdrawal.body', { url }), meta: { url } }, now)
  }
  return { sent: true, email: user.email ? maskEmail(user.email) : null }
}

/**
 * Spec §4 withdrawal, approval (the mailed link) and permanent deletion: the account's personal data and sign-in
 * means are erased, every session ends; the e-mail stays on the deleted row only for the 30-day re-sign-up
 * block (DELETED_USER). Expired or used link: TIMEOUT; account already gone: NOT_FOUND_USER.
 *
 * The coins left are written off in the same batch (docs/ARCHITECTURE.md "Money": balances and ledger agree): every
 * lot still holding coins is emptied, one ledger row per lot of kind EXPIRE (amount −remaining, the lot's type
 * and source, description 'withdrawal'). EXPIRE because the coins lapse unspent, as at their expiry: USE would
 * count as spending on episodes, CANCEL is a charge taken back (operator deduction, refund) and shows in the
 * charge history. Set-based (INSERT … SELECT, then the UPDATE), so no read precedes the batch and a purchase
 * racing with it either commits first (and is written off with the rest) or finds the lots empty.
 */
export async function approveWithdrawal(db: Db, body: { userId: number; uuid: string }, ctx: AuthContext): Promise<{ deleted: true }> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const row = await db.first<{ id: number; expiresAt: string; usedAt: string | null; deletedAt: string | null }>(
    `SELECT c.id, c.expires_at AS expiresAt, c.used_at AS usedAt, u.deleted_at AS deletedAt
       FROM one_time_codes c JOIN users u ON u.id = c.user_id WHERE c.kind = 'WITHDRAWAL_MAIL' AND c.code_hash = ? AND c.user_id = ?`,
    await hashToken(body.uuid), body.userId,
  )
  if (!row) throw new AppError('TIMEOUT')
  if (row.deletedAt) throw new AppError('NOT_FOUND_USER')
  if (row.usedAt || row.expiresAt <= nowIso) throw new AppError('TIMEOUT')
  const claimed = `(SELECT used_at FROM one_time_codes WHERE id = ?) = ?`
  const results = await db.batch([
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, params: [nowIso, row.id] },
    { sql: `UPDATE withdrawals SET approved_at = ? WHERE user_id = ? AND approved_at IS NULL AND cancelled_at IS NULL AND ${claimed}`, params: [nowIso, body.userId, row.id, nowIso] },
    {
      sql: `UPDATE users SET deleted_at = ?, password_hash = NULL, phone = NULL, name = NULL, nickname = NULL, birthed_at = NULL, updated_at = ? WHERE id = ? AND ${claimed}`,
      params: [nowIso, nowIso, body.userId, row.id, nowIso],
    },
    { sql: `DELETE FROM identities WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    { sql: `DELETE FROM push_settings WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    ...endAllSessions(body.userId, nowIso, { sql: claimed, params: [row.id, nowIso] }),
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, description, created_at)
            SELECT user_id, 'EXPIRE', id, type, source, -remaining, 'withdrawal', ? FROM coin_lots WHERE user_id = ? AND remaining > 0 AND ${claimed} ORDER BY id`,
      params: [nowIso, body.userId, row.id, nowIso],
    },
    { sql: `UPDATE coin_lots SET remaining = 0 WHERE user_id = ? AND remaining > 0 AND ${claimed}`, params: [body.userId, row.id, nowIso] },
  ])
  if ((results[0]?.meta.changes ?? 0) !== 1) throw new AppError('TIMEOUT')
  return { deleted: true }
}

// ─────────────────────────────── account transfer ───────────────────────────────

export type TransferState = { status: TransferStatus | null; updatedAt: string | null; errorReason: TransferErrorReason | null }

/** REQUEST → ERROR (spec §4; params: reason, now): the code is dropped, so it can never redeem. */
const FAIL_TRANSFER = `status = 'ERROR', error_reason = ?, code_hash = NULL, code_locator = NULL, updated_at = ?`

/** Spec §4 transfer status of the reader (null: none); a code left to expire unused ends the transfer in ERROR. */
export async function transferState(db: Db, userId: number, now: Date = new Date()): Promise<TransferState> {
  const nowIso = now.toISOString()
  await db.run(`UPDATE account_transfers SET ${FAIL_TRANSFER} WHERE user_id = ? AND status = 'REQUEST' AND code_expires_at <= ?`, 'EXPIRED', nowIso, userId, nowIso)
  const row = await db.first<{ status: TransferStatus; updatedAt: string; errorReason: TransferErrorReason | null }>(
    `SELECT status, updated_at AS updatedAt, error_reason AS errorReason FROM account_transfers WHERE user_id = ?`,
    userId,
  )
  return { status: row?.status ?? null, updatedAt: row?.updatedAt ?? null, errorReason: row?.errorReason ?? null }
}

async function transition(db: Db, userId: number, action: TransferAction, now: Date): Promise<TransferStatus | null> {
  const current = await transferState(db, userId, now)
  const next = nextTransferStatus(current.status, action)
  if ('error' in next) throw new AppError(next.error)
  return next.status
}

/** /transfer/apply after login: START (again) unless the account already proceeded (once per account). */
export async function startTransfer(db: Db, userId: number, now: Date = new Date()): Promise<TransferState> {
  await transition(db, userId, 'start', now)
  const nowIso = now.toISOString()
  await db.run(
    `INSERT INTO account_transfers (user_id, status, created_at, updated_at) VALUES (?, 'START', ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET status = 'START', code_hash = NULL, code_locator = NULL, code_expires_at = NULL, code_attempts = 0, error_reason = NULL, updated_at = excluded.updated_at WHERE account_transfers.status IN ('START', 'ERROR')`,
    userId, nowIso, nowIso,
  )
  return transferState(db, userId)
}

/**
 * /transfer/apply/confirm: the reader agrees; START → REQUEST, a one-time transfer code (7 days, stored hashed)
 * is mailed to the account. From here on the transfer cannot be cancelled.
 */
export async function requestTransfer(db: Db, userId: number, ctx: AuthContext): Promise<TransferState & { sent: boolean }> {
  const now = ctx.now ?? new Date()
  await transition(db, userId, 'request', now)
  const nowIso = now.toISOString()
  let code = ''
  for (let tries = 0; !code; tries++) {
    const candidate = generateTransferCode()
    try {
      const changed = await db.run(
        `UPDATE account_transfers SET status = 'REQUEST', code_hash = ?, code_locator = ?, code_expires_at = ?, code_attempts = 0, updated_at = ? WHERE user_id = ? AND status = 'START'`,
        await hashToken(candidate), transferLocator(candidate), later(now, TRANSFER_CODE_TTL_SECONDS), nowIso, userId,
      )
      if (changed !== 1) throw new AppError('ALREADY_USED_ANOTHER_PLATFORM')
      code = candidate
    } catch (e) {
      // another live code starts with the same 4 characters: draw again
      if (!String(e).includes('UNIQUE') || tries >= 5) throw e
    }
  }
  const user = await db.first<{ email: string | null }>(`SELECT email FROM users WHERE id = ?`, userId)
  if (user?.email) {
    await messageProvider(db).send({ channel: 'MAIL', recipient: user.email, template: 'transfer-code', subject: ctx.t('account.mail.transfer.subject'), body: ctx.t('account.mail.transfer.body', { code: `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}` }) }, now)
  }
  return { ...(await transferState(db, userId, now)), sent: Boolean(user?.email) }
}

/** Cancel while still START; after the consent the transfer cannot be cancelled (spec §4). */
export async function cancelTransfer(db: Db, userId: number, now: Date = new Date()): Promise<TransferState> {
  await transition(db, userId, 'cancel', now)
  await db.run(`DELETE FROM account_transfers WHERE user_id = ? AND status IN ('START', 'ERROR')`, userId)
  return transferState(db, userId)
}

/**
 * The new device redeems the transfer code: REQUEST → FINISH and a new token pair for the account. The code's first
 * 4 characters find the transfer; an unknown, used or wrong code answers NOT_FOUND_USER (codes cannot be probed), and
 * counts against the transfer it names: the 5th wrong one ends it in ERROR (EXCEED_AUTH_COUNT). An expired code ends
 * it in ERROR too. From ERROR the reader starts again on the old device.
 */
export async function redeemTransfer(db: Db, rawCode: string, ctx: AuthContext): Promise<TokenPair> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const code = normaliseTransferCode(rawCode)
  if (!code) throw new AppError('NOT_FOUND_USER')
  await checkLimits('code-check', ctx)
  // one statement spends an attempt and checks the transfer is waiting, unexpired and under the limit, so parallel
  // guesses get at most TRANSFER_MAX_ATTEMPTS evaluations between them
  const row = await db.first<{ userId: number; codeHash: string; attempts: number }>(
    `UPDATE account_transfers SET code_attempts = code_attempts + 1
      WHERE status = 'REQUEST' AND code_locator = ? AND code_expires_at > ? AND code_attempts < ?
        AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
      RETURNING user_id AS userId, code_hash AS codeHash, code_attempts AS attempts`,
    transferLocator(code), nowIso, TRANSFER_MAX_ATTEMPTS,
  )
  if (!row) {
    // a code left to expire ends its transfer
    await db.run(`UPDATE account_transfers SET ${FAIL_TRANSFER} WHERE status = 'REQUEST' AND code_locator = ? AND code_expires_at <= ?`, 'EXPIRED', nowIso, transferLocator(code), nowIso)
    throw new AppError('NOT_FOUND_USER')
  }
  if (!timingSafeEqualText(await hashToken(code), row.codeHash)) {
    if (row.attempts < TRANSFER_MAX_ATTEMPTS) throw new AppError('NOT_FOUND_USER')
    // the last attempt was wrong: the transfer ends in ERROR
    await db.run(`UPDATE account_transfers SET ${FAIL_TRANSFER} WHERE user_id = ? AND status = 'REQUEST'`, 'ATTEMPTS', nowIso, row.userId)
    throw new AppError('EXCEED_AUTH_COUNT')
  }
  const changed = await db.run(`UPDATE account_transfers SET status = 'FINISH', code_hash = NULL, code_locator = NULL, updated_at = ? WHERE user_id = ? AND status = 'REQUEST'`, nowIso, row.userId)
  if (changed !== 1) throw new AppError('NOT_FOUND_USER')
  return issueTokens(db, row.userId, ctx)
}

// ─────────────────────────────── apple_guest (app guest mode) ───────────────────────────────

/** Guest accounts made from one client address per hour (abuse guard). */
const GUEST_SIGN_UPS_PER_HOUR = 20

/**
 * Spec §3/§6 app guest mode (snsProvider `apple_guest`): the app keeps a 256-bit random guest key on the device;
 * the first call makes a guest account (isSignUp), later calls sign it in. Only a hash of the key is stored.
 * A guest account has no e-mail or password; it keeps its purchases and can be moved with the account transfer.
 */
export async function signInAppleGuest(db: Db, guestKey: string, ctx: AuthContext): Promise<TokenPair & { isSignUp: boolean }> {
  const now = ctx.now ?? new Date()
  if (!/^[A-Za-z0-9_-]{43}$/.test(guestKey)) throw new AppError('INVALID_PARAMETER', { fields: 'guestKey' })
  const subject = await hashToken(guestKey)
  const known = await db.first<{ id: number }>(
    `SELECT u.id FROM identities i JOIN users u ON u.id = i.user_id AND u.deleted_at IS NULL WHERE i.provider = 'apple_guest' AND i.provider_user_id = ?`,
    subject,
  )
  if (known) return { ...(await issueTokens(db, known.id, ctx)), isSignUp: false }
  if ((await countAttempt(db, `apple-guest:${ctx.ip ?? 'unknown'}`, 60 * 60, now)) > GUEST_SIGN_UPS_PER_HOUR) throw new AppError('TOO_MANY_REQUESTS')
  const nowIso = now.toISOString()
  const created = await db.first<{ id: number }>(`INSERT INTO users (platform, created_at, updated_at) VALUES ('IOS_APP', ?, ?) RETURNING id`, nowIso, nowIso)
  try {
    await db.run(`INSERT INTO identities (user_id, provider, provider_user_id, created_at) VALUES (?, 'apple_guest', ?, ?)`, created!.id, subject, nowIso)
  } catch (e) {
    // the same key twice at once: the other request made the account; drop ours and sign in to that one
    await db.run(`DELETE FROM users WHERE id = ?`, created!.id)
    if (!String(e).includes('UNIQUE')) throw e
    return signInAppleGuest(db, guestKey, ctx)
  }
  return { ...(await issueTokens(db, created!.id, ctx)), isSignUp: true }
}
