/**
 * The reader's nickname on D1 (spec §7 PUT /user action PROFILE). Uniqueness per edition (one database each) is
 * the unique index on `users.nickname_key` (migration 0017): the statement that sets a nickname is the one that
 * finds it taken, so of many readers asking for one nickname at once exactly one gets it.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { bannedWords } from '../comment/comment.server.ts'
import { checkNickname, type NicknameRefusal } from './profile.ts'

/** A refused nickname: INVALID_PARAMETER (spec §8) on the `nickname` field, with the reason its message names. */
export class NicknameError extends AppError {
  readonly refusal: NicknameRefusal
  constructor(refusal: NicknameRefusal) {
    super('INVALID_PARAMETER', { fields: 'nickname', field: 'nickname', ...refusal })
    this.refusal = refusal
  }
}

/** Sets the reader's nickname (the same one again, in another case too, is fine); a refusal changes nothing. */
export async function setNickname(db: Db, userId: number, raw: string, now: Date = new Date()): Promise<string> {
  const check = checkNickname(raw, await bannedWords(db))
  if (!check.ok) throw new NicknameError(check)
  let changed: number
  try {
    changed = await db.run(
      `UPDATE users SET nickname = ?, nickname_key = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`,
      check.nickname,
      check.key,
      now.toISOString(),
      userId,
    )
  } catch (e) {
    if (/UNIQUE constraint failed: users\.nickname_key/.test(String((e as Error)?.message))) throw new NicknameError({ reason: 'TAKEN' })
    throw e
  }
  if (changed !== 1) throw new AppError('NOT_LOGIN_USER')
  return check.nickname
}
