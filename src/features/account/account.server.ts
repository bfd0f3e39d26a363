/**
 * The account on D1 (spec §2/§3/§4, issue 3 items 5, 6, 8): ending every session of an account, the /my account
 * block, push settings, and the app guest sign-in. The account's other parts have their own files:
 * `password.server.ts` (change, reset by mail link), `sms.server.ts` (find ID, find password, phone by SMS code),
 * `withdrawal.server.ts` and `transfer.server.ts`. Mail and SMS go through `messaging.server.ts` (local default:
 * the outbox).
 */
import { countMetric } from '../../lib/metrics/metrics.server.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { firstRow, flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { withReader } from '../reader/stub.server.ts'
import { countAttempt, issueTokens, type AuthContext, type TokenPair } from '../auth/auth.server.ts'
import { hashToken } from '../auth/tokens.ts'
import { maskPhone, type PushSettingsBody } from './account.ts'
import { accountChanged } from '../age/age.server.ts'
import type { AccountCard } from '../age/account-card.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import { decide } from '../reader/money-db.server.ts'

export type Stmt = { sql: string; params: unknown[] }

/**
 * Ends every session of the user at once (ASVS 7.4.3): `users.session_version` moves on, so the access tokens already
 * issued are refused at their next check and every refresh token at its next refresh (a session belongs to the version
 * it started under, auth/session-store.server.ts). `claimed`: the guard of a single-use link, with its parameters.
 */
export const endAllSessions = (userId: number, claimed: Stmt = { sql: '1', params: [] }): Stmt[] => [
  {
    sql: `UPDATE users SET session_version = session_version + 1 WHERE id = ? AND ${claimed.sql} RETURNING session_version - 1 AS ended`,
    params: [userId, ...claimed.params],
  },
]

/**
 * "Sign out of every device" (/setting, ASVS 7.4.3/7.5.2): every session of the account ends, this one too. The
 * reader's object marks them ended (what an operator's look-up shows); answers how many were open.
 */
export async function signOutEverywhere(db: Db, userId: number, now = new Date()): Promise<number> {
  const [moved] = await db.batch(endAllSessions(userId))
  const ended = firstRow<{ ended: number }>(moved)?.ended
  if (ended === undefined) return 0
  return withReader(userId, (r) => r.endAllSessions(userId, ended, now.toISOString()))
}

// ─────────────────────────────── my page, push settings ───────────────────────────────

export type AccountInfo = {
  id: number
  email: string | null
  /** The name shown on comments (/my/profile), null until the reader sets one. */
  nickname: string | null
  phone: string | null
  providers: string[]
  hasPassword: boolean
  createdAt: string
  isAgreeMail: boolean
}

/** Spec §2 /my account block: what the account is and how it signs in. */
export async function accountInfo(db: Db, userId: number): Promise<AccountInfo | null> {
  const row = await db.first<
    Cols<'users', 'id' | 'email' | 'nickname' | 'phone' | 'created_at' | 'is_agree_mail'> & { hasPassword: Flag; providers: string | null }
  >(
    `SELECT u.id, u.email, u.nickname, u.phone, u.password_hash IS NOT NULL AS hasPassword, u.created_at AS createdAt, u.is_agree_mail AS isAgreeMail,
            (SELECT group_concat(provider) FROM identities WHERE user_id = u.id) AS providers
       FROM users u WHERE u.id = ? AND u.deleted_at IS NULL`,
    userId,
  )
  if (!row) return null
  return {
    id: row.id,
    email: row.email,
    nickname: row.nickname,
    phone: row.phone ? maskPhone(row.phone) : null,
    providers: row.providers ? row.providers.split(',') : [],
    hasPassword: flag(row.hasPassword),
    createdAt: row.createdAt,
    isAgreeMail: flag(row.isAgreeMail),
  }
}

export type PushSettings = {
  isAppPush: boolean
  isAgreePush: boolean
  isAgreePushNight: boolean
  isAgreePushFreetime: boolean
  isAgreePushContents: boolean
  isAgreeMail: boolean
}

/** The push columns as the account card names them (age/account-card.server.ts); no push row yet reads as all off. */
type PushColumns = Pick<AccountCard, 'appPush' | 'push' | 'pushNight' | 'pushFreetime' | 'pushContents' | 'isAgreeMail'>

const pushSettingsOf = (row: PushColumns): PushSettings => ({
  isAppPush: flag(row.appPush),
  isAgreePush: flag(row.push),
  isAgreePushNight: flag(row.pushNight),
  isAgreePushFreetime: flag(row.pushFreetime),
  isAgreePushContents: flag(row.pushContents),
  isAgreeMail: flag(row.isAgreeMail),
})

/** Spec §3 push settings and e-mail consent of the reader, read from D1 (the push fan-out, push.server.ts). */
export async function pushSettings(db: Db, userId: number): Promise<PushSettings | null> {
  const row = await db.first<PushColumns>(
    `SELECT p.is_app_push AS appPush, p.is_agree_push AS push, p.is_agree_push_night AS pushNight,
            p.is_agree_push_freetime AS pushFreetime, p.is_agree_push_contents AS pushContents, u.is_agree_mail AS isAgreeMail
       FROM users u LEFT JOIN push_settings p ON p.user_id = u.id WHERE u.id = ? AND u.deleted_at IS NULL`,
    userId,
  )
  return row ? pushSettingsOf(row) : null
}

/** The reader's object's `push` procedure (src/objects/reader/procedures.server.ts): the settings from the account card; null for a gone account. */
export const pushOf = (_run: MoneyRun, _input: Record<string, never>, account?: AccountCard | null): PushSettings | null =>
  account ? pushSettingsOf(account) : null

/**
 * The signed-in reader's own push settings (GET /user/push, /setting/push): one call to their object and no D1 query (the
 * settings are on their account card). Given the access token's session claim, that call checks it first: NEED_TO_REFRESH.
 */
export function readerPushSettings(userId: number, session?: SessionClaim): Promise<PushSettings | null> {
  return decide(userId, 'push', {}, session ? { session } : { account: true })
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
      params: [
        b(body.isAppPush),
        b(body.isAgreePush),
        b(body.isAgreePushNight),
        b(body.isAgreePushFreetime),
        b(body.isAgreePushContents),
        nowIso,
        userId,
        body.isAppPush === undefined ? null : b(body.isAppPush),
      ],
    },
  ]
  if (body.isAgreeMail !== undefined) statements.push(mailConsentStatement(userId, body.isAgreeMail, nowIso))
  await db.batch(statements)
  await accountChanged(userId)
  const saved = await readerPushSettings(userId) // the card was dropped: read again from D1, and kept
  if (!saved) throw new AppError('NOT_LOGIN_USER')
  return saved
}

/** The reader's e-mail consent (spec §3 isAgreeMail) set to `agree`. */
function mailConsentStatement(userId: number, agree: boolean, nowIso: string): Stmt {
  return {
    sql: `UPDATE users SET is_agree_mail = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`,
    params: [agree ? 1 : 0, nowIso, userId],
  }
}

/** The e-mail consent alone (the /setting page's form; spec §7 PUT /user action MAIL), the push settings left as they are. */
export async function saveMailConsent(db: Db, userId: number, agree: boolean, now: Date = new Date()): Promise<void> {
  const { sql, params } = mailConsentStatement(userId, agree, now.toISOString())
  if ((await db.run(sql, ...params)) === 0) throw new AppError('NOT_LOGIN_USER')
  await accountChanged(userId)
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
  const known = await db.first<Cols<'users', 'id'>>(
    `SELECT u.id FROM identities i JOIN users u ON u.id = i.user_id AND u.deleted_at IS NULL WHERE i.provider = 'apple_guest' AND i.provider_user_id = ?`,
    subject,
  )
  if (known) return { ...(await issueTokens(db, known.id, ctx)), isSignUp: false }
  if ((await countAttempt(db, `apple-guest:${ctx.ip ?? 'unknown'}`, 60 * 60, now)) > GUEST_SIGN_UPS_PER_HOUR)
    throw new AppError('TOO_MANY_REQUESTS')
  const nowIso = now.toISOString()
  const created = await db.first<Cols<'users', 'id'>>(
    `INSERT INTO users (platform, created_at, updated_at) VALUES ('IOS_APP', ?, ?) RETURNING id`,
    nowIso,
    nowIso,
  )
  try {
    await db.run(
      `INSERT INTO identities (user_id, provider, provider_user_id, created_at) VALUES (?, 'apple_guest', ?, ?)`,
      created!.id,
      subject,
      nowIso,
    )
  } catch (e) {
    // the same key twice at once: the other request made the account; drop ours and sign in to that one
    await db.run(`DELETE FROM users WHERE id = ?`, created!.id)
    if (!String(e).includes('UNIQUE')) throw e
    return signInAppleGuest(db, guestKey, ctx)
  }
  await countMetric({ name: 'signup', key: 'apple_guest' }, now)
  return { ...(await issueTokens(db, created!.id, ctx)), isSignUp: true }
}
