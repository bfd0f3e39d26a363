/** Readers' objects in the worker tests (issue 38): a reader's stub, and their places, marks and alarms as the object keeps them. */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { vi } from 'vitest'
import { env } from 'cloudflare:workers'
import type { StoredProgress } from '../../src/features/viewer/progress-store.server.ts'
import type { NewAlarm } from '../../src/features/alarm/alarm.ts'
import { consumeReaderEvents } from '../../src/objects/reader/events.server.ts'
import type { ReaderEventsJob } from '../../src/features/reader/events.ts'
import type { Db } from '../../src/lib/server/db.ts'

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

/** Alarms handed to the reader's object as a delivery hands them (test data); answers the ids of the new ones. */
export const giveAlarms = (userId: number, alarms: NewAlarm[]) => readerObject(userId).addAlarms(userId, alarms)

/** A test alarm: a support answer's, with `key` as its dedup key (and its title's parameter). */
export const testAlarm = (key: string, createdAt = new Date().toISOString()): NewAlarm => ({
  kind: 'QNA',
  title: 'alarm.text.qnaAnswered',
  body: JSON.stringify({ title: key }),
  link: '/qna',
  dedupKey: key,
  createdAt,
})

/** The reader's alarms as their object holds them, oldest first (its first call moves D1's rows in). */
export const alarmsIn = async (userId: number) => {
  await readerObject(userId).unreadAlarms(userId)
  return (await execInReader(
    userId,
    `SELECT id, kind, title, link, dedup_key AS dedupKey, read_at AS readAt, pushed_at AS pushedAt FROM alarms ORDER BY id`,
  )) as { id: number; kind: string; title: string; link: string | null; dedupKey: string; readAt: string | null; pushedAt: string | null }[]
}

/** Of `readers`, how many alarms with dedup key `key` their objects hold (`n`) and how many readers hold one. */
export const alarmReach = async (readers: readonly number[], key: string) => {
  const counts = await Promise.all(
    readers.map(async (id) => Number((await execInReader(id, `SELECT count(*) AS n FROM alarms WHERE dedup_key = ?`, key))[0]!.n)),
  )
  return { n: counts.reduce((a, b) => a + b, 0), readers: counts.filter((c) => c > 0).length }
}

/** Delivers one message of reader events as the queue does (`consumeReaderEvents`, a batch of one); throws unless it is acknowledged. */
export async function deliverReaderEvents(db: Db, job: ReaderEventsJob): Promise<void> {
  let acked = false
  const message = { id: crypto.randomUUID(), body: job, attempts: 1, timestamp: new Date(), ack: () => (acked = true), retry: () => {} }
  const batch = { queue: 'webtoon-reader-events-test', messages: [message], ackAll: () => {}, retryAll: () => {} }
  await consumeReaderEvents(batch as unknown as MessageBatch<unknown>, db)
  if (!acked) throw new Error(`reader events of reader ${job.readerId} were not acknowledged`)
}

/** Runs series `seriesId`'s tally's flush now, as its alarm does TALLY_FLUSH_MS after it counted; false when none was set. */
export const flushTally = (seriesId: number) => runDurableObjectAlarm(env.TALLY.getByName(String(seriesId)))

/**
 * Waits until `check` passes, flushing series `seriesId`'s tally before each try: a view, read or purchase reaches it
 * through the queue, and D1's counts through its flush.
 */
export const afterTally = (seriesId: number, check: () => Promise<void>) =>
  vi.waitFor(
    async () => {
      await flushTally(seriesId)
      await check()
    },
    { timeout: 10_000, interval: 50 },
  )
