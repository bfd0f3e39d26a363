/**
 * Accounts on D1: sign-up (user + e-mail OTP, mailed through messaging.server.ts), sign-in (rate-limited, same answer time for
 * unknown and known accounts), refresh-token rotation with the session ended on reuse (ASVS 10.4.5) and logout (the
 * session ended server-side, ASVS 7.4.1) — sessions live in the reader's object (session-store.server.ts) — and the
 * reader's own profile with coin balances.
 */
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import { withReader } from '../reader/stub.server.ts'
import { toAdultState } from '../age/age.server.ts'
import type { AudienceFlags } from '../age/age.ts'
import { env } from 'cloudflare:workers'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { UsersRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { checkPassword, hashPassword } from '../../lib/server/password.ts'
import { beforeHashInTurn } from '../../lib/server/turns.ts'
import { hasher } from './hasher.server.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import { toB64url } from '../../lib/b64url.ts'
import { checkLimits } from './limits.server.ts'
import { decide } from '../reader/money-db.server.ts'
import type { UserMe } from '../../objects/reader/me.server.ts'
import type { Translate } from '../../lib/i18n/i18n.ts'
import type { Platform } from '../../lib/platform.ts'
import {
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_MAX,
  OTP_RESEND_WINDOW_SECONDS,
  OTP_TTL_SECONDS,
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_WINDOW_SECONDS,
  SIGN_UP_FIELDS,
  generateOtp,
  isDeletionBlocking,
  mailboxOf,
  signInBucket,
  signUpError,
  type RefreshBody,
  type ResendOtpBody,
  type VerifyOtpBody,
  type SignInBody,
  type SignUpBody,
} from './auth.ts'
import { normaliseEmail } from '../../lib/email.ts'
import {
  MIN_SECRET_LENGTH,
  deriveKeys,
  hashToken,
  isRefreshTokenShape,
  newRefreshToken,
  refreshTokenReader,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts'
import { type Token, type TokenKeys } from '../../lib/tokens.ts'
import { REFRESH_TOKEN_TTL_SECONDS } from '../../lib/tokens.ts'
import { randomToken } from '../../lib/secrets.ts'
import { constantTimeEqual } from '../../lib/secrets.ts'

/** Keys from the SESSION_SECRET binding; without one (or a short one) nothing is signed: NO_SECRET. */
export function sessionKeys(): Promise<TokenKeys> {
  const secret = env.SESSION_SECRET
  if (!secret || secret.length < MIN_SECRET_LENGTH) throw new AppError('NO_SECRET')
  return deriveKeys(secret)
}

export function pepper(): string {
  const p = env.PASSWORD_PEPPER
  if (!p) throw new AppError('NO_SECRET')
  return p
}

/**
 * The edition data the auth flows need: its siteUrl is the tokens' issuer and audience; `phoneCountry`, the
 * country phone numbers without an international prefix are read in; `platform`, the app a sign-in comes from.
 */
export type AuthContext = {
  issuer: string
  t: Translate
  now?: Date
  ip?: string | null
  clientKind?: 'WEB' | 'APP' | 'VIEWER_APP'
  phoneCountry?: string
  platform?: Platform
}

export type TokenPair = { accessToken: Token; refreshToken: Token; userId: number }

/** Spec §3/§5 sign-up: writes the user and a 6-digit OTP (1 hour), then mails the code (`sent: false`: the provider failed, RETRY). */
export async function signUp(db: Db, body: SignUpBody, ctx: AuthContext): Promise<{ sent: boolean }> {
  const rule = signUpError(body)
  if (rule) throw new AppError(rule, { field: SIGN_UP_FIELDS[rule] })
  const now = ctx.now ?? new Date()
  const email = normaliseEmail(body.email)
  // the withdrawal block holds for the mailbox, whatever `+tag` either address carries
  const mailbox = mailboxOf(email)
  await checkLimits('sign-up', ctx) // a refusal never waits for a turn
  const prior = await beforeHashInTurn(() =>
    db.first<{ live: Flag | null; deletedAt: UsersRow['deleted_at'] }>(
      `SELECT MAX(email = ?1 AND deleted_at IS NULL) AS live, MAX(deleted_at) AS deletedAt FROM users
        WHERE email = ?1 OR email = ?2 OR email LIKE ?3 ESCAPE '\\'`,
      email,
      mailbox.base,
      mailbox.tagged,
    ),
  )
  if (flag(prior?.live)) throw new AppError('ALREADY_USED_EMAIL', { field: 'email' })
  if (isDeletionBlocking(prior?.deletedAt ?? null, now)) throw new AppError('DELETED_USER', { field: 'email' })

  const passwordHash = await hashPassword(body.password, pepper(), hasher())
  const nowIso = now.toISOString()
  const otp = await newOtp(db, email, ctx, now)
  try {
    await db.batch([
      {
        sql: `INSERT INTO users (email, password_hash, is_agree_mail, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
        params: [email, passwordHash, body.agreeMail ? 1 : 0, nowIso, nowIso],
      },
      ...otp.statements,
    ])
  } catch (e) {
    // two sign-ups racing for one address: the unique index lets one through
    if (String(e).includes('UNIQUE')) throw new AppError('ALREADY_USED_EMAIL')
    throw e
  }
  await countMetric({ name: 'signup', key: 'email' }, now)
  // the account exists now: if the mail cannot go, the reader is sent on to the code step and asks for a new code there
  try {
    await otp.send()
  } catch (e) {
    if (e instanceof AppError && e.code === 'RETRY') return { sent: false }
    throw e
  }
  return { sent: true }
}

/**
 * A new 6-digit e-mail OTP (spec §9: 1 hour) for the live account of `email`: earlier unused codes of the
 * address are spent, the code is stored only as its HMAC; `send` mails it once the statements are written.
 */
async function newOtp(
  db: Db,
  email: string,
  ctx: AuthContext,
  now: Date,
): Promise<{ statements: { sql: string; params: unknown[] }[]; send: () => Promise<void> }> {
  const code = generateOtp()
  const nowIso = now.toISOString()
  const expires = isoAfter(now, OTP_TTL_SECONDS * SECOND_MS)
  const statements = [
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'EMAIL_OTP' AND target = ? AND used_at IS NULL`, params: [nowIso, email] },
    {
      sql: `INSERT INTO one_time_codes (kind, user_id, target, code_hash, created_at, expires_at) VALUES ('EMAIL_OTP', (SELECT id FROM users WHERE email = ? AND deleted_at IS NULL), ?, ?, ?, ?)`,
      params: [email, email, await otpHash(email, code), nowIso, expires],
    },
  ]
  return {
    statements,
    send: () =>
      messageProvider(db).send(
        {
          channel: 'MAIL',
          recipient: email,
          template: 'signup-otp',
          subject: ctx.t('auth.mail.otp.subject'),
          body: ctx.t('auth.mail.otp.body', { code }),
        },
        now,
      ),
  }
}

/**
 * One more attempt in a fixed-window bucket (atomic upsert, so parallel requests cannot slip past the
 * limit); returns the attempts counted in the current window, this one included.
 */
export async function countAttempt(db: Db, bucket: string, windowSeconds: number, now: Date): Promise<number> {
  const row = await db.first<Cols<'rate_limits', 'count'>>(
    `INSERT INTO rate_limits (bucket, count, reset_at) VALUES (?1, 1, ?2)
     ON CONFLICT (bucket) DO UPDATE SET
       count = CASE WHEN rate_limits.reset_at <= ?3 THEN 1 ELSE rate_limits.count + 1 END,
       reset_at = CASE WHEN rate_limits.reset_at <= ?3 THEN ?2 ELSE rate_limits.reset_at END
     RETURNING count`,
    bucket,
    isoAfter(now, windowSeconds * SECOND_MS),
    now.toISOString(),
  )
  return row?.count ?? 0
}

/** Gives back one attempt counted by `countAttempt` (a request that turned out to be no guess). */
export async function takeBackAttempt(db: Db, bucket: string): Promise<void> {
  await db.run(`UPDATE rate_limits SET count = count - 1 WHERE bucket = ? AND count > 0`, bucket)
}

type OtpRow = Cols<'one_time_codes', 'user_id' | 'expires_at' | 'used_at' | 'attempts'> & { verifiedAt: UsersRow['email_verified_at'] }

/**
 * Spec §8/§9 sign-up completion: the latest e-mail OTP of the address, 6 digits, 1 hour, single use.
 * Wrong code (an older one replaced by a resend included) → INVALID_PARAMETER and one of its 5 attempts
 * spent (`details.attemptsLeft`: how many remain); expired or spent by 5 wrong guesses → EXPIRED_OTP (resend); already verified address →
 * ALREADY_AUTH_MAIL; a used code (single use) or an unknown address → INVALID_PARAMETER.
 */
export async function verifyOtp(db: Db, body: VerifyOtpBody, ctx: AuthContext): Promise<{ verified: true; userId: number }> {
  await checkLimits('code-check', ctx)
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const email = normaliseEmail(body.email)
  // one statement spends an attempt of the address's latest code and checks it is unused, unexpired, under the
  // limit and its account still waiting: parallel guesses get at most OTP_MAX_ATTEMPTS evaluations between them
  const claimed = await db.first<Cols<'one_time_codes', 'id' | 'user_id' | 'code_hash' | 'attempts'>>(
    `UPDATE one_time_codes SET attempts = attempts + 1
      WHERE id = (SELECT id FROM one_time_codes WHERE kind = 'EMAIL_OTP' AND target = ? ORDER BY id DESC LIMIT 1)
        AND used_at IS NULL AND expires_at > ? AND attempts < ?
        AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL AND email_verified_at IS NULL)
      RETURNING id, user_id AS userId, code_hash AS codeHash, attempts`,
    email,
    nowIso,
    OTP_MAX_ATTEMPTS,
  )
  if (!claimed) {
    const row = await db.first<OtpRow>(
      `SELECT c.user_id AS userId, c.expires_at AS expiresAt, c.used_at AS usedAt, c.attempts, u.email_verified_at AS verifiedAt
         FROM one_time_codes c JOIN users u ON u.id = c.user_id AND u.deleted_at IS NULL
        WHERE c.kind = 'EMAIL_OTP' AND c.target = ? ORDER BY c.id DESC LIMIT 1`,
      email,
    )
    if (!row || row.userId === null) throw new AppError('INVALID_PARAMETER')
    if (row.verifiedAt) throw new AppError('ALREADY_AUTH_MAIL')
    if (row.usedAt) throw new AppError('INVALID_PARAMETER')
    throw new AppError('EXPIRED_OTP')
  }
  if (!constantTimeEqual(await otpHash(email, body.code), claimed.codeHash))
    throw new AppError('INVALID_PARAMETER', { field: 'code', attemptsLeft: OTP_MAX_ATTEMPTS - claimed.attempts })
  // the conditional update makes the code single-use even for two requests at once
  const spent = await db.run(`UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, nowIso, claimed.id)
  if (spent !== 1) throw new AppError('INVALID_PARAMETER')
  await db.run(
    `UPDATE users SET email_verified_at = ?, updated_at = ? WHERE id = ? AND email_verified_at IS NULL`,
    nowIso,
    nowIso,
    claimed.userId,
  )
  return { verified: true, userId: claimed.userId! }
}

/**
 * Spec §8 EXPIRED_OTP → resend: a new code for a live, unverified account (the old one stops working).
 * The answer is the same `{sent:true}` for unknown and already verified addresses (no account probing);
 * over 3 requests for one address within 5 minutes → FREQUENT_REQUEST.
 */
export async function resendOtp(db: Db, body: ResendOtpBody, ctx: AuthContext): Promise<{ sent: true }> {
  const email = normaliseEmail(body.email)
  return resendPendingOtp(db, `otp-resend:${email}`, 'email', email, ctx)
}

/**
 * Spec §7 POST /user/mail/auth {userId}: the same resend for the pending sign-up of an account id, with the
 * same answer for unknown, verified and pending ids, limited per id like the address form.
 */
export async function resendOtpForUser(db: Db, userId: number, ctx: AuthContext): Promise<{ sent: true }> {
  return resendPendingOtp(db, `otp-resend:user:${userId}`, 'id', userId, ctx)
}

async function resendPendingOtp(
  db: Db,
  bucket: string,
  column: 'email' | 'id',
  key: string | number,
  ctx: AuthContext,
): Promise<{ sent: true }> {
  const now = ctx.now ?? new Date()
  await checkLimits('mail-send', ctx)
  if ((await countAttempt(db, bucket, OTP_RESEND_WINDOW_SECONDS, now)) > OTP_RESEND_MAX) throw new AppError('FREQUENT_REQUEST')
  const user = await db.first<{ email: NonNullable<UsersRow['email']> }>(
    `SELECT email FROM users WHERE ${column} = ? AND deleted_at IS NULL AND email_verified_at IS NULL AND password_hash IS NOT NULL AND email IS NOT NULL`,
    key,
  )
  if (user) {
    const otp = await newOtp(db, user.email, ctx, now)
    await db.batch(otp.statements)
    await otp.send()
  }
  return { sent: true }
}

/** The OTP as stored: HMAC-SHA256 keyed with the pepper over address and code (6 digits alone are guessable offline). */
export async function otpHash(target: string, code: string): Promise<string> {
  const enc = new TextEncoder()
  const key = await crypto.subtle.importKey('raw', enc.encode(pepper()), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return toB64url(await crypto.subtle.sign('HMAC', key, enc.encode(`${target}:${code}`)))
}

/**
 * Spec §8 sign-in. Every attempt first counts in the bucket of the e-mail and the client address (atomic
 * upsert), so parallel guesses cannot slip past the limit: over 5 attempts without success within the hour →
 * DUPLICATE_LOGIN for that address until the hour is over; the owner from another address still gets in.
 * Unknown e-mail and wrong password spend the same full derivation (ASVS 6.3.8).
 */
export async function signIn(db: Db, body: SignInBody, ctx: AuthContext): Promise<TokenPair> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const email = normaliseEmail(body.email)
  const bucket = signInBucket(email, ctx.ip ?? null)
  await checkLimits('sign-in', ctx) // a refusal never waits for a turn
  const user = await beforeHashInTurn(async () => {
    const attempts = await countAttempt(db, bucket, SIGN_IN_WINDOW_SECONDS, now)
    if (attempts > SIGN_IN_MAX_FAILURES) throw new AppError('DUPLICATE_LOGIN')
    return db.first<Cols<'users', 'id' | 'password_hash'> & { verifiedAt: UsersRow['email_verified_at'] }>(
      `SELECT id, password_hash AS passwordHash, email_verified_at AS verifiedAt FROM users WHERE email = ? AND deleted_at IS NULL`,
      email,
    )
  })
  const { valid, upgrade } = await checkPassword(body.password, user?.passwordHash, pepper(), hasher())
  if (!user) throw new AppError('NOT_REGISTERED_USER', { field: 'email' })
  if (!valid) throw new AppError('INVALID_PASSWORD', { field: 'password' })
  // only the holder of the right password learns that the address still waits for its OTP (spec §8 Sign-up mail group)
  if (!user.verifiedAt) throw new AppError('INVALID_EMAIL')
  return issueTokens(db, user.id, ctx, [
    { sql: `DELETE FROM rate_limits WHERE bucket = ?`, params: [bucket] },
    signedInAt(user.id, nowIso),
    // an older hash (PBKDF2) becomes argon2id now that the password is known; unless it changed meanwhile
    ...(upgrade
      ? [{ sql: `UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?`, params: [upgrade, user.id, user.passwordHash] }]
      : []),
  ])
}

/** The sign-up code was right (verifyOtp): the reader is signed in, as after a password sign-in. */
export async function signInVerified(db: Db, userId: number, ctx: AuthContext): Promise<TokenPair> {
  const nowIso = (ctx.now ?? new Date()).toISOString()
  return issueTokens(db, userId, ctx, [signedInAt(userId, nowIso)])
}

/** The statement every sign-in (password, code, OAuth, Apple) adds to its token batch. */
export function signedInAt(userId: number, nowIso: string): { sql: string; params: unknown[] } {
  return { sql: `UPDATE users SET last_login_at = ? WHERE id = ?`, params: [nowIso, userId] }
}

/**
 * ASVS 7.2.4: every login starts a new session (refresh-token family), kept in the reader's object. The access token
 * carries the session version the D1 batch reads after `extra` (which may have moved it on: a password change), so it
 * is never born stale.
 */
export async function issueTokens(
  db: Db,
  userId: number,
  ctx: AuthContext,
  extra: { sql: string; params: unknown[] }[] = [],
): Promise<TokenPair> {
  const now = ctx.now ?? new Date()
  const keys = await sessionKeys()
  const refreshToken = newRefreshToken(userId, now)
  const sessionId = randomToken(16)
  const results = await db.batch([...extra, { sql: `SELECT session_version AS sessionVersion FROM users WHERE id = ?`, params: [userId] }])
  const version = firstRow<Cols<'users', 'session_version'>>(results[results.length - 1])?.sessionVersion ?? 0
  await withReader(userId, async (r) =>
    r.startSession(userId, {
      sessionId,
      tokenHash: await hashToken(refreshToken.value),
      version,
      clientKind: ctx.clientKind ?? 'WEB',
      ip: ctx.ip ?? null,
      now: now.toISOString(),
      expiresAt: refreshToken.expiredAt,
    }),
  )
  return { accessToken: await signAccessToken(keys, userId, ctx.issuer, now, version, sessionId, ctx.platform), refreshToken, userId }
}

/**
 * Spec §4 / docs/API.md refresh: the refresh token is rotated in the reader's object (the old one can never be used
 * again). A token that was already rotated or revoked is a replay: its whole session ends (ASVS 10.4.5), so the
 * thief's and the owner's copies both stop working. The access token sent along must be ours (its expiry does not
 * matter): it names the reader, whose object alone knows their tokens.
 */
export async function refreshTokens(
  db: Db,
  body: RefreshBody,
  ctx: AuthContext,
): Promise<{
  accessToken: Token
  refreshToken: Token
  email: string | null
  ipAddress: string | null
  userId: number
  sessionVersion: number
  sessionId: string
  platform: Platform
}> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const keys = await sessionKeys()
  if (!isRefreshTokenShape(body.refreshToken)) throw new AppError('NOT_FOUND_REFRESH_TOKEN')
  const access = await verifyAccessToken(keys, body.accessToken, ctx.issuer, now, REFRESH_TOKEN_TTL_SECONDS)
  if (!access.ok) throw new AppError('MALFORMED_JWT')
  // the access token must be of the reader the refresh token names (spec §4: tokens of another account are refused)
  const named = refreshTokenReader(body.refreshToken)
  if (named !== null && named !== access.userId) throw new AppError('MALFORMED_JWT')
  const userId = access.userId
  const account = await db.first<Cols<'users', 'email' | 'session_version'>>(
    `SELECT email, session_version AS sessionVersion FROM users WHERE id = ? AND deleted_at IS NULL`,
    userId,
  )
  if (!account) throw new AppError('NOT_FOUND_REFRESH_TOKEN')
  const refreshToken = newRefreshToken(userId, now)
  const rotated = await withReader(userId, async (r) =>
    r.rotateSession(userId, {
      tokenHash: await hashToken(body.refreshToken),
      nextHash: await hashToken(refreshToken.value),
      expiresAt: refreshToken.expiredAt,
      version: account.sessionVersion,
      now: nowIso,
    }),
  )
  // a session this refusal ended refuses its access tokens at once: the session check asks the same object
  if (!rotated.ok) throw new AppError(rotated.code, rotated.rotatedRecently ? { rotatedRecently: true } : undefined)
  // the platform stays the one fixed at sign-in (the verified access token's), whatever this request says
  return {
    accessToken: await signAccessToken(keys, userId, ctx.issuer, now, account.sessionVersion, rotated.sessionId, access.platform),
    refreshToken,
    email: account.email,
    ipAddress: body.clientIp ?? ctx.ip ?? null,
    userId,
    sessionVersion: account.sessionVersion,
    sessionId: rotated.sessionId,
    platform: access.platform,
  }
}

/**
 * ASVS 7.4.1/7.4.3: the reader's adult flags and switches while the account is live, still at the session version
 * the access token was signed with, and the token's session not ended, else null: one call to the reader's object,
 * which keeps them (age/account-card.server.ts), so no D1 query. It also gives the page its audience class. Routes that
 * read the user row anyway check both there instead.
 */
export async function currentReader(userId: number, claim: SessionClaim): Promise<AudienceFlags | null> {
  return toAdultState((await withReader(userId, (r) => r.session(userId, claim))) ?? undefined)
}

/**
 * docs/API.md logout: the token's session ends (ASVS 7.4.1) in the reader's object, where the session check finds it,
 * so its access tokens are refused at once; an unknown token changes nothing. The reader is the one the token names,
 * else the caller's (`holder`: a token issued before tokens named their reader).
 */
export async function logout(refreshToken: string, holder: number | null, now: Date = new Date()): Promise<void> {
  if (!isRefreshTokenShape(refreshToken)) return
  const userId = refreshTokenReader(refreshToken) ?? holder
  if (userId === null) return
  const tokenHash = await hashToken(refreshToken)
  await withReader(userId, (r) => r.endSession(userId, tokenHash, now.toISOString()))
}

/**
 * docs/API.md GET /user/me: the reader's own profile and balances, one call to the reader's object and no D1 query
 * (the profile is its account card), or null for a gone account; `alarms`: with the unread alarms' count. Given the
 * access token's session claim, that call checks it first (ASVS 7.4.1/7.4.3): NEED_TO_REFRESH.
 */
export function userMe(userId: number, session?: SessionClaim, alarms = false): Promise<UserMe | null> {
  return decide(userId, 'me', { userId, now: new Date().toISOString(), alarms }, session ? { session } : { account: true })
}

/** One row of the local mail/SMS provider's outbox (the dev-only /dev/outbox page). */
export type OutboxRow = Cols<'outbox', 'id' | 'channel' | 'recipient' | 'template' | 'subject' | 'body' | 'created_at'>

/** The latest outbox rows, newest first (bounded: the page never reads the whole table). */
export async function latestOutbox(db: Db, limit = 50): Promise<OutboxRow[]> {
  return db.all<OutboxRow>(
    `SELECT id, channel, recipient, template, subject, body, created_at AS createdAt FROM outbox ORDER BY id DESC LIMIT ?`,
    Math.min(Math.max(1, limit), 200),
  )
}
