/** Readers' objects in the worker tests (issue 38): a reader's stub, and their places as the object keeps them. */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import type { StoredProgress } from '../../src/features/viewer/progress-store.server.ts'

export const readerObject = (userId: number) => env.READER.getByName(String(userId))

/** The reader's places, newest first (what their object holds). */
export const placesOf = (userId: number): Promise<StoredProgress[]> => readerObject(userId).recentProgress(userId, null, 1000)

/** The reader's newest place, or null. */
export const placeOf = async (userId: number): Promise<StoredProgress | null> => (await placesOf(userId))[0] ?? null

/** Runs one statement on the reader's object's own SQLite (a test's way to age or read a row in place). */
export const execInReader = (userId: number, sql: string, ...params: SqlStorageValue[]) =>
  runInDurableObject(readerObject(userId), (_instance, state) => state.storage.sql.exec(sql, ...params).toArray())
