/**
 * Withdrawal on D1 (spec §2/§4/§5): the request mails a confirmation link; the link's approval deletes the account
 * and writes its coins off through the ledger.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import { countAttempt, type AuthContext } from '../auth/auth.server.ts'
import { hashToken } from '../auth/tokens.ts'
import { randomToken } from '../../lib/secrets.ts'
import { RESET_MAIL_WINDOW_SECONDS, WITHDRAWAL_LINK_TTL_SECONDS, maskEmail, withdrawalError, type WithdrawalBody } from './account.ts'
import { endAllSessions } from './account.server.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
import { withReader } from '../reader/stub.server.ts'
import { moneyDb } from '../reader/money-db.server.ts'

/**
 * Spec §2/§4/§5 withdrawal, step 1 (after the agreement and the confirm dialog): the reasons are recorded and a
 * confirmation link (1 hour) is mailed. Again within 5 minutes: FREQUENT_REQUEST.
 */
export async function requestWithdrawal(
  db: Db,
  userId: number,
  body: WithdrawalBody,
  ctx: AuthContext,
): Promise<{ sent: true; email: string | null }> {
  const rule = withdrawalError(body)
  if (rule) throw new AppError(rule)
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const user = await db.first<Cols<'users', 'email'>>(`SELECT email FROM users WHERE id = ? AND deleted_at IS NULL`, userId)
  if (!user) throw new AppError('NOT_FOUND_USER')
  if ((await countAttempt(db, `withdrawal:${userId}`, RESET_MAIL_WINDOW_SECONDS, now)) > 1) throw new AppError('FREQUENT_REQUEST')
  const uuid = randomToken(32)
  await db.batch([
    {
      sql: `UPDATE withdrawals SET cancelled_at = ? WHERE user_id = ? AND approved_at IS NULL AND cancelled_at IS NULL`,
      params: [nowIso, userId],
    },
    {
      sql: `INSERT INTO withdrawals (user_id, reasons, detail, requested_at, confirmed_at) VALUES (?, ?, ?, ?, ?)`,
      params: [userId, JSON.stringify(body.reasons), body.detail?.trim() || null, nowIso, nowIso],
    },
    { sql: `UPDATE users SET withdrawal_requested_at = ?, updated_at = ? WHERE id = ?`, params: [nowIso, nowIso, userId] },
    {
      sql: `UPDATE one_time_codes SET used_at = ? WHERE kind = 'WITHDRAWAL_MAIL' AND user_id = ? AND used_at IS NULL`,
      params: [nowIso, userId],
    },
    {
      sql: `INSERT INTO one_time_codes (kind, user_id, target, code_hash, created_at, expires_at) VALUES ('WITHDRAWAL_MAIL', ?, ?, ?, ?, ?)`,
      params: [
        userId,
        user.email ?? `user:${userId}`,
        await hashToken(uuid),
        nowIso,
        isoAfter(now, WITHDRAWAL_LINK_TTL_SECONDS * SECOND_MS),
      ],
    },
  ])
  const url = `${ctx.issuer.replace(/\/$/, '')}/setting/withdrawal/confirm?${new URLSearchParams({ userId: String(userId), uuid })}`
  if (user.email) {
    await messageProvider(db).send(
      {
        channel: 'MAIL',
        recipient: user.email,
        template: 'withdrawal',
        subject: ctx.t('account.mail.withdrawal.subject'),
        body: ctx.t('account.mail.withdrawal.body', { url }),
        meta: { url },
      },
      now,
    )
  }
  return { sent: true, email: user.email ? maskEmail(user.email) : null }
}

/**
 * Spec §4 withdrawal, approval (the mailed link) and permanent deletion: the account's personal data and sign-in
 * means are erased, every session ends; the e-mail stays on the deleted row only for the 30-day re-sign-up
 * block (DELETED_USER). Expired or used link: TIMEOUT; account already gone: NOT_FOUND_USER.
 *
 * The coins left are written off right after the account's batch, in one batch over the reader's money rows
 * (`writeOffCoins`; a shared write never rides in a reader's batch, docs/ARCHITECTURE.md "Reader objects"; balances
 * and ledger agree, "Money"): every lot still holding coins is emptied, one ledger row per lot of kind EXPIRE (amount
 * −remaining, the lot's type and source, description 'withdrawal'). EXPIRE because the coins lapse unspent, as at
 * their expiry: USE would count as spending on episodes, CANCEL is a charge taken back (operator deduction, refund)
 * and shows in the charge history. Set-based (INSERT … SELECT, then the UPDATE), so no read precedes it and a purchase
 * racing with it either commits first (and is written off with the rest) or finds the lots empty. It changes nothing
 * once done, so a worker stopped between the two batches leaves a deleted account with coins that the link, opened
 * again, writes off (before answering NOT_FOUND_USER).
 */
export async function approveWithdrawal(db: Db, body: { userId: number; uuid: string }, ctx: AuthContext): Promise<{ deleted: true }> {
  const now = ctx.now ?? new Date()
  const nowIso = now.toISOString()
  const row = await db.first<Cols<'one_time_codes', 'id' | 'expires_at' | 'used_at'> & Cols<'users', 'deleted_at'>>(
    `SELECT c.id, c.expires_at AS expiresAt, c.used_at AS usedAt, u.deleted_at AS deletedAt
       FROM one_time_codes c JOIN users u ON u.id = c.user_id WHERE c.kind = 'WITHDRAWAL_MAIL' AND c.code_hash = ? AND c.user_id = ?`,
    await hashToken(body.uuid),
    body.userId,
  )
  if (!row) throw new AppError('TIMEOUT')
  if (row.deletedAt) {
    await writeOffCoins(db, body.userId, nowIso) // a no-op unless a stop cut the approval short (see above)
    throw new AppError('NOT_FOUND_USER')
  }
  if (row.usedAt || row.expiresAt <= nowIso) throw new AppError('TIMEOUT')
  const claimed = `(SELECT used_at FROM one_time_codes WHERE id = ?) = ?`
  const results = await db.batch([
    { sql: `UPDATE one_time_codes SET used_at = ? WHERE id = ? AND used_at IS NULL`, params: [nowIso, row.id] },
    {
      sql: `UPDATE withdrawals SET approved_at = ? WHERE user_id = ? AND approved_at IS NULL AND cancelled_at IS NULL AND ${claimed}`,
      params: [nowIso, body.userId, row.id, nowIso],
    },
    {
      sql: `UPDATE users SET deleted_at = ?, password_hash = NULL, phone = NULL, name = NULL, nickname = NULL, nickname_key = NULL, birthed_at = NULL, updated_at = ? WHERE id = ? AND ${claimed}`,
      params: [nowIso, nowIso, body.userId, row.id, nowIso],
    },
    { sql: `DELETE FROM identities WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    { sql: `DELETE FROM push_settings WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    { sql: `DELETE FROM push_subscriptions WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    { sql: `DELETE FROM series_readers WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    { sql: `DELETE FROM reading_progress WHERE user_id = ? AND ${claimed}`, params: [body.userId, row.id, nowIso] },
    ...['favorites', 'hidden_series', 'library_marks', 'creator_followers', 'refresh_tokens', 'addresses'].map((table) => ({
      sql: `DELETE FROM ${table} WHERE user_id = ? AND ${claimed}`,
      params: [body.userId, row.id, nowIso],
    })),
    ...endAllSessions(body.userId, { sql: claimed, params: [row.id, nowIso] }),
  ])
  if ((results[0]?.meta.changes ?? 0) !== 1) throw new AppError('TIMEOUT')
  await writeOffCoins(db, body.userId, nowIso)
  // what the reader's own object holds goes with the account (decided above: a failure here is logged, not undone)
  await withReader(body.userId, (r) => r.forget()).catch((e: unknown) =>
    console.error(JSON.stringify({ event: 'reader.forget.failed', userId: body.userId, error: String(e) })),
  )
  return { deleted: true }
}

/** A withdrawn account's coins written off (see `approveWithdrawal`): one batch over the reader's money rows. */
async function writeOffCoins(db: Db, userId: number, nowIso: string): Promise<void> {
  await moneyDb(db, userId).batch([
    {
      sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, description, created_at)
            SELECT user_id, 'EXPIRE', id, type, source, -remaining, 'withdrawal', ? FROM coin_lots WHERE user_id = ? AND remaining > 0 ORDER BY id`,
      params: [nowIso, userId],
    },
    { sql: `UPDATE coin_lots SET remaining = 0 WHERE user_id = ? AND remaining > 0`, params: [userId] },
  ])
}
