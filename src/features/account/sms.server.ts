/**
 * SMS codes on D1 (spec §2/§4/§8/§9): find ID, find password (the reset ticket of `password.server.ts`) and the
 * registration of the reader's phone.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { UsersRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import { countAttempt, otpHash, type AuthContext } from '../auth/auth.server.ts'
import { constantTimeEqual } from '../../lib/secrets.ts'
import { generateOtp, isValidEmail } from '../auth/auth.ts'
import { normaliseEmail } from '../../lib/email.ts'
import {
  FIND_ID_MAX,
  SMS_DAY_SECONDS,
  SMS_MAX_ATTEMPTS,
  SMS_MAX_PER_DAY,
  SMS_RESET_TTL_SECONDS,
  SMS_TTL_SECONDS,
  maskEmail,
  maskPhone,
  normalisePhone,
  type SmsRequestBody,
  type SmsVerifyBody,
} from './account.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { resetTicket } from './password.server.ts'
import { checkLimits } from '../auth/limits.server.ts'

type SmsRow = Cols<'one_time_codes', 'user_id' | 'expires_at' | 'used_at' | 'attempts'>

const smsTarget = (phone: string) => phone

/**
 * Spec §2/§4/§9 phone verification: a 6-digit SMS code valid 10 minutes (the page counts it down). While the
 * previous code for the same purpose and phone is still valid and unused: ALREADY_SEND_SMS (with its expiry,
 * so the countdown continues). More than 5 codes per phone per day: EXCEED_AUTH_COUNT. The code goes to the
 * phone whatever accounts it has: only its holder learns anything, at the verify step.
 * PHONE (registration of the reader's own phone) needs a signed-in reader.
 */
export async function requestSmsCode(
  db: Db,
  body: SmsRequestBody,
  ctx: AuthContext,
  userId: number | null = null,
): Promise<{ sent: true; expiresAt: string; phone: string }> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const phone = normalisePhone(body.phone, ctx.phoneCountry ?? '')
  if (!phone) throw new AppError('INVALID_PARAMETER', { fields: 'phone' })
  if (body.purpose === 'FIND_PASSWORD' && !isValidEmail(normaliseEmail(body.id ?? ''))) throw new AppError('INVALID_MAIL_FORM')
  if (body.purpose === 'PHONE' && userId === null) throw new AppError('NOT_LOGIN_USER')
  await checkLimits('sms-send', ctx)
  const live = await db.first<Cols<'one_time_codes', 'expires_at'>>(
    `SELECT expires_at AS expiresAt FROM one_time_codes
      WHERE kind = 'SMS' AND purpose = ? AND target = ? AND used_at IS NULL AND expires_at > ? AND attempts < ? ORDER BY id DESC LIMIT 1`,
    body.purpose,
    smsTarget(phone),
    nowIso,
    SMS_MAX_ATTEMPTS,
  )
  if (live) throw new AppError('ALREADY_SEND_SMS', { expiresAt: live.expiresAt })
  if ((await countAttempt(db, `sms:${phone}`, SMS_DAY_SECONDS, now)) > SMS_MAX_PER_DAY) throw new AppError('EXCEED_AUTH_COUNT')
  const code = generateOtp()
  const expiresAt = isoAfter(now, SMS_TTL_SECONDS * SECOND_MS)
  await db.batch([
    {
      sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'SMS' AND purpose = ? AND target = ? AND used_at IS NULL`,
      params: [nowIso, body.purpose, smsTarget(phone)],
    },
    {
      sql: `INSERT INTO one_time_codes (kind, purpose, user_id, target, code_hash, created_at, expires_at) VALUES ('SMS', ?, ?, ?, ?, ?, ?)`,
      params: [
        body.purpose,
        body.purpose === 'PHONE' ? userId : null,
        smsTarget(phone),
        await otpHash(`sms:${body.purpose}:${phone}`, code),
        nowIso,
        expiresAt,
      ],
    },
  ])
  await messageProvider(db).send(
    { channel: 'SMS', recipient: phone, template: `sms-${body.purpose.toLowerCase()}`, body: ctx.t('account.sms.code', { code }) },
    now,
  )
  return { sent: true, expiresAt, phone: maskPhone(phone) }
}

/** Why the phone's latest code could not be tried: none (or another reader's), used, out of attempts, expired. */
async function smsRefusal(
  db: Db,
  purpose: SmsVerifyBody['purpose'],
  phone: string,
  userId: number | null,
  nowIso: string,
): Promise<AppError> {
  const row = await db.first<SmsRow>(
    `SELECT user_id AS userId, expires_at AS expiresAt, used_at AS usedAt, attempts FROM one_time_codes
      WHERE kind = 'SMS' AND purpose = ? AND target = ? ORDER BY id DESC LIMIT 1`,
    purpose,
    smsTarget(phone),
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
  const row = await db.first<Cols<'one_time_codes', 'id' | 'code_hash' | 'attempts'>>(
    `UPDATE one_time_codes SET attempts = attempts + 1
      WHERE id = (SELECT id FROM one_time_codes WHERE kind = 'SMS' AND purpose = ?1 AND target = ?2 ORDER BY id DESC LIMIT 1)
        AND used_at IS NULL AND expires_at > ?3 AND attempts < ?4 AND (?1 <> 'PHONE' OR user_id = ?5)
      RETURNING id, code_hash AS codeHash, attempts`,
    body.purpose,
    smsTarget(phone),
    nowIso,
    SMS_MAX_ATTEMPTS,
    userId,
  )
  if (!row) throw await smsRefusal(db, body.purpose, phone, userId, nowIso)
  if (!constantTimeEqual(await otpHash(`sms:${body.purpose}:${phone}`, body.code), row.codeHash))
    throw new AppError('NOT_FOUND_SMS_USER', { field: 'code', attemptsLeft: SMS_MAX_ATTEMPTS - row.attempts })

  let account: Cols<'users', 'id' | 'email'> | null = null
  if (body.purpose === 'FIND_PASSWORD') {
    const email = normaliseEmail(body.id ?? '')
    account = await db.first<Cols<'users', 'id' | 'email'>>(
      `SELECT id, email FROM users WHERE email = ? AND phone = ? AND deleted_at IS NULL AND password_hash IS NOT NULL`,
      email,
      phone,
    )
    if (!account) throw new AppError('NOT_FOUND_USER')
  }
  const spent = await db.run(`UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, nowIso, row.id)
  if (spent !== 1) throw new AppError('ALREADY_USE_SMS')

  if (body.purpose === 'FIND_ID') {
    const rows = await db.all<{ email: NonNullable<UsersRow['email']> }>(
      `SELECT email FROM users WHERE phone = ? AND deleted_at IS NULL AND email IS NOT NULL ORDER BY id LIMIT ?`,
      phone,
      FIND_ID_MAX + 1,
    )
    if (rows.length === 0) throw new AppError('NOT_REGISTERED_PHONE_USER')
    const total =
      (await db.first<{ n: number }>(`SELECT COUNT(*) AS n FROM users WHERE phone = ? AND deleted_at IS NULL AND email IS NOT NULL`, phone))
        ?.n ?? rows.length
    return { purpose: 'FIND_ID', ids: rows.slice(0, FIND_ID_MAX).map((r) => maskEmail(r.email)), total }
  }
  if (body.purpose === 'FIND_PASSWORD') {
    const ticket = await resetTicket(account!.id, phone, 'SMS', SMS_RESET_TTL_SECONDS, now)
    await db.batch(ticket.statements)
    return { purpose: 'FIND_PASSWORD', userId: account!.id, uuid: ticket.uuid, expiresAt: isoAfter(now, SMS_RESET_TTL_SECONDS * SECOND_MS) }
  }
  await db.run(`UPDATE users SET phone = ?, updated_at = ? WHERE id = ?`, phone, nowIso, userId)
  return { purpose: 'PHONE', phone: maskPhone(phone) }
}

/** The SMS code the phone is waiting for (the page resumes its countdown), or null. */
export async function pendingSms(
  db: Db,
  purpose: SmsRequestBody['purpose'],
  rawPhone: string,
  phoneCountry: string,
  now: Date = new Date(),
): Promise<{ expiresAt: string } | null> {
  const phone = normalisePhone(rawPhone, phoneCountry)
  if (!phone) return null
  return db.first<Cols<'one_time_codes', 'expires_at'>>(
    `SELECT expires_at AS expiresAt FROM one_time_codes WHERE kind = 'SMS' AND purpose = ? AND target = ? AND used_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT 1`,
    purpose,
    smsTarget(phone),
    now.toISOString(),
  )
}
