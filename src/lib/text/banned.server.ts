import type { Db } from '../server/db.ts'
import type { BannedWordsRow } from '../server/db-types.ts'

/** Spec §5 prohibited words, as the database lists them (comments and nicknames). */
export async function bannedWords(db: Db): Promise<string[]> {
  return (await db.all<BannedWordsRow>(`SELECT word FROM banned_words`)).map((w) => w.word)
}
