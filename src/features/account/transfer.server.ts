/**
 * Account transfer on D1 (spec §4): the states of `transfer.ts` per account, and the one-time transfer code (stored
 * hashed) that moves the account to a new device.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { AccountTransfersRow } from '../../lib/server/db-types.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import { issueTokens, type AuthContext, type TokenPair } from '../auth/auth.server.ts'
import { constantTimeEqual } from '../../lib/secrets.ts'
import { hashToken } from '../auth/tokens.ts'
import { messageProvider } from '../../lib/messaging/messaging.server.ts'
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

export type TransferState = { status: TransferStatus | null; updatedAt: string | null; errorReason: TransferErrorReason | null }

/** REQUEST → ERROR (spec §4; params: reason, now): the code is dropped, so it can never redeem. */
const FAIL_TRANSFER = `status = 'ERROR', error_reason = ?, code_hash = NULL, code_locator = NULL, updated_at = ?`

/** Spec §4 transfer status of the reader (null: none); a code left to expire unused ends the transfer in ERROR. */
export async function transferState(db: Db, userId: number, now: Date = new Date()): Promise<TransferState> {
  const nowIso = now.toISOString()
  await db.run(
    `UPDATE account_transfers SET ${FAIL_TRANSFER} WHERE user_id = ? AND status = 'REQUEST' AND code_expires_at <= ?`,
    'EXPIRED',
    nowIso,
    userId,
    nowIso,
  )
  const row = await db.first<Cols<'account_transfers', 'status' | 'updated_at' | 'error_reason'>>(
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
    userId,
    nowIso,
    nowIso,
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
        await hashToken(candidate),
        transferLocator(candidate),
        isoAfter(now, TRANSFER_CODE_TTL_SECONDS * SECOND_MS),
        nowIso,
        userId,
      )
      if (changed !== 1) throw new AppError('ALREADY_USED_ANOTHER_PLATFORM')
      code = candidate
    } catch (e) {
      // another live code starts with the same 4 characters: draw again
      if (!String(e).includes('UNIQUE') || tries >= 5) throw e
    }
  }
  const user = await db.first<Cols<'users', 'email'>>(`SELECT email FROM users WHERE id = ?`, userId)
  if (user?.email) {
    await messageProvider(db).send(
      {
        channel: 'MAIL',
        recipient: user.email,
        template: 'transfer-code',
        subject: ctx.t('account.mail.transfer.subject'),
        body: ctx.t('account.mail.transfer.body', { code: `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}` }),
      },
      now,
    )
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
  // guesses get at most TRANSFER_MAX_ATTEMPTS evaluations between them (a waiting transfer holds its code_hash)
  const row = await db.first<
    Cols<'account_transfers', 'user_id'> & {
      codeHash: NonNullable<AccountTransfersRow['code_hash']>
      attempts: AccountTransfersRow['code_attempts']
    }
  >(
    `UPDATE account_transfers SET code_attempts = code_attempts + 1
      WHERE status = 'REQUEST' AND code_locator = ? AND code_expires_at > ? AND code_attempts < ?
        AND user_id IN (SELECT id FROM users WHERE deleted_at IS NULL)
      RETURNING user_id AS userId, code_hash AS codeHash, code_attempts AS attempts`,
    transferLocator(code),
    nowIso,
    TRANSFER_MAX_ATTEMPTS,
  )
  if (!row) {
    // a code left to expire ends its transfer
    await db.run(
      `UPDATE account_transfers SET ${FAIL_TRANSFER} WHERE status = 'REQUEST' AND code_locator = ? AND code_expires_at <= ?`,
      'EXPIRED',
      nowIso,
      transferLocator(code),
      nowIso,
    )
    throw new AppError('NOT_FOUND_USER')
  }
  if (!constantTimeEqual(await hashToken(code), row.codeHash)) {
    if (row.attempts < TRANSFER_MAX_ATTEMPTS) throw new AppError('NOT_FOUND_USER')
    // the last attempt was wrong: the transfer ends in ERROR
    await db.run(`UPDATE account_transfers SET ${FAIL_TRANSFER} WHERE user_id = ? AND status = 'REQUEST'`, 'ATTEMPTS', nowIso, row.userId)
    throw new AppError('EXCEED_AUTH_COUNT')
  }
  const changed = await db.run(
    `UPDATE account_transfers SET status = 'FINISH', code_hash = NULL, code_locator = NULL, updated_at = ? WHERE user_id = ? AND status = 'REQUEST'`,
    nowIso,
    row.userId,
  )
  if (changed !== 1) throw new AppError('NOT_FOUND_USER')
  return issueTokens(db, row.userId, ctx)
}
