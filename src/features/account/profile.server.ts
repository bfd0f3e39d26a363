/**
 * The reader's nickname on D1 (spec §7 PUT /user action PROFILE). Uniqueness per edition (one database each) is
 * the unique index on `users.nickname_key` (migration 0017): the statement that sets a nickname is the one that
 * finds it taken, so of many readers asking for one nickname at once exactly one gets it.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { cronBudget, sweep, type SweepBudget } from '../../lib/server/sweep.ts'
import { bannedWords } from '../../lib/text/banned.server.ts'
import { checkNickname, NICKNAME_KEY_VERSION, nicknameKey, type NicknameRefusal } from './profile.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { accountChanged } from '../age/age.server.ts'

/** A refused nickname: INVALID_PARAMETER (spec §8) on the `nickname` field, with the reason its message names. */
export class NicknameError extends AppError {
  readonly refusal: NicknameRefusal
  constructor(refusal: NicknameRefusal) {
    super('INVALID_PARAMETER', { fields: 'nickname', field: 'nickname', ...refusal })
    this.refusal = refusal
  }
}

/** Sets the reader's nickname (the same one again, in another case too, is fine); a refusal changes nothing. */
export async function setNickname(
  db: Db,
  userId: number,
  raw: string,
  reservedNames: readonly string[],
  now: Date = new Date(),
): Promise<string> {
  const check = checkNickname(raw, await bannedWords(db), reservedNames)
  if (!check.ok) throw new NicknameError(check)
  let changed: number
  try {
    changed = await db.run(
      `UPDATE users SET nickname = ?, nickname_key = ?, nickname_key_version = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`,
      check.nickname,
      check.key,
      NICKNAME_KEY_VERSION,
      now.toISOString(),
      userId,
    )
  } catch (e) {
    if (isConstraint(e, 'UNIQUE', 'users.nickname_key')) throw new NicknameError({ reason: 'TAKEN' })
    throw e
  }
  if (changed !== 1) throw new AppError('NOT_LOGIN_USER')
  await accountChanged(userId)
  return check.nickname
}

/** Nicknames re-keyed per cron batch. */
const REKEY_BATCH = 100

/**
 * Cron: gives rows keyed by an older `nicknameKey` (before migration 0026) today's key, oldest account first, in
 * bounded batches (`sweep`); returns how many rows it re-keyed. Two nicknames that now look the same keep
 * the key on the older account; the younger gets `<key>#<id>` (still unique, and never a key a reader can type),
 * so its owner keeps the name until they change it.
 */
export async function rekeyNicknames(db: Db, budget: SweepBudget = cronBudget()): Promise<number> {
  const [result] = await sweep([() => rekeyBatch(db)], REKEY_BATCH, budget)
  return result!.rows
}

async function rekeyBatch(db: Db): Promise<number> {
  const stale = await db.all<{ id: number; nickname: string }>(
    `SELECT id, nickname FROM users WHERE nickname IS NOT NULL AND nickname_key_version < 2 ORDER BY id LIMIT ?`,
    REKEY_BATCH,
  )
  for (const row of stale) {
    const key = nicknameKey(row.nickname)
    const set = (k: string) =>
      db.run(
        `UPDATE users SET nickname_key = ?, nickname_key_version = ? WHERE id = ? AND nickname = ?`,
        k,
        NICKNAME_KEY_VERSION,
        row.id,
        row.nickname,
      )
    try {
      await set(key)
    } catch (e) {
      if (!isConstraint(e, 'UNIQUE', 'users.nickname_key')) throw e
      await set(`${key}#${row.id}`)
    }
  }
  return stale.length
}
