/** Readers' objects in the worker tests (issue 38): a reader's stub, and their places as the object keeps them. */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import type { StoredProgress } from '../../src/features/viewer/progress-store.server.ts'

export const readerObject = (userId: number) => env.READER.getByName(String(userId))

/** The reader's places, newest first (what their object holds, hidden series included). */
export const placesOf = async (userId: number): Promise<StoredProgress[]> => {
  await readerObject(userId).positionAt(userId, 0) // its first call: rows still in D1 move in
  return (await execInReader(
    userId,
    `SELECT series_id AS seriesId, episode_id AS episodeId, episode_no AS episodeNo, position, updated_at AS updatedAt
       FROM progress ORDER BY updated_at DESC, series_id DESC`,
  )) as StoredProgress[]
}

/** The reader's newest place, or null. */
export const placeOf = async (userId: number): Promise<StoredProgress | null> => (await placesOf(userId))[0] ?? null

/** Runs one statement on the reader's object's own SQLite (a test's way to age or read a row in place). */
export const execInReader = (userId: number, sql: string, ...params: SqlStorageValue[]) =>
  runInDurableObject(readerObject(userId), (_instance, state) => state.storage.sql.exec(sql, ...params).toArray())

/** The reader's marks as their object holds them: series favourited and series hidden, each by id. */
export const marksIn = async (userId: number) => ({
  favorite: (await execInReader(userId, `SELECT series_id FROM marks WHERE favorite_at IS NOT NULL ORDER BY series_id`)).map(
    (r) => r.series_id,
  ),
  hidden: (await execInReader(userId, `SELECT series_id, hidden_at FROM marks WHERE hidden_at IS NOT NULL ORDER BY series_id`)).map((r) => [
    r.series_id,
    r.hidden_at,
  ]),
})
