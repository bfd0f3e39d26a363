/**
 * Favourites and hidden series in readers' objects (issue 38): the move of D1's `favorites` and `hidden_series` rows on
 * first use and in the background (also into an object moved before they moved), and the shared side's copy
 * `library_marks` that the fan-outs read, kept by the object's `marks` events through the queue: the newest version wins
 * whatever the number and order of deliveries. Real workerd: D1, the objects' SQLite, the queue and its consumer.
 */
import { describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { db, get, newReader, newSeries, read, send, type Reader as TestReader } from './purchase.helpers.ts'
import { deliverReaderEvents, marksIn, readerObject } from './reader.helpers.ts'
import { moveWaitingReaders } from '../../src/objects/reader/move.server.ts'
import type { ReaderEventsJob } from '../../src/features/reader/events.ts'

/** Rows as the code before the objects wrote them. */
const legacy = (table: 'favorites' | 'hidden_series', userId: number, seriesId: number, createdAt: string) =>
  db.run(`INSERT INTO ${table} (user_id, series_id, created_at) VALUES (?, ?, ?)`, userId, seriesId, createdAt)
const legacyRows = async (userId: number) =>
  (
    await db.all(
      `SELECT series_id FROM favorites WHERE user_id = ?1 UNION ALL SELECT series_id FROM hidden_series WHERE user_id = ?1`,
      userId,
    )
  ).length
const copyOf = (userId: number) =>
  db.all<{ series_id: number; favorite: number; hidden: number; version: number }>(
    `SELECT series_id, favorite, hidden, version FROM library_marks WHERE user_id = ? ORDER BY series_id`,
    userId,
  )
const shelf = async (reader: TestReader, name: 'favorite' | 'hidden') =>
  (await read(await get(reader, `/api/v1/library/${name}`))).data.items.map((i: { seriesId: number }) => i.seriesId)
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

describe("a reader's marks in their object", () => {
  it('take the D1 rows on first use, in their order, and delete them there; the shared copy already has them', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => newSeries({ episodes: 1, free: 1 })))
    const reader = await newReader()
    await legacy('favorites', reader.id, a!.seriesId, ago(3_000))
    await legacy('favorites', reader.id, b!.seriesId, ago(1_000))
    await legacy('favorites', reader.id, c!.seriesId, ago(2_000))
    await legacy('hidden_series', reader.id, c!.seriesId, ago(500))
    const copied = [
      { series_id: a!.seriesId, favorite: 1, hidden: 0, version: 0 },
      { series_id: b!.seriesId, favorite: 1, hidden: 0, version: 0 },
      { series_id: c!.seriesId, favorite: 1, hidden: 1, version: 0 },
    ]
    expect(await copyOf(reader.id)).toEqual(copied)

    expect(await shelf(reader, 'favorite')).toEqual([b!.seriesId, a!.seriesId]) // c is hidden
    expect(await shelf(reader, 'hidden')).toEqual([c!.seriesId])
    expect(await legacyRows(reader.id)).toBe(0)
    expect(await copyOf(reader.id)).toEqual(copied)
  })

  it('are moved in the background, and into an object moved before they moved', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const quiet = await newReader()
    await legacy('favorites', quiet.id, s.seriesId, ago(1_000))
    // an object that took its reading progress only (the code of the first move), its reader's favourite still in D1
    const earlier = await newReader()
    await readerObject(earlier.id).positionAt(earlier.id, 0)
    await runInDurableObject(readerObject(earlier.id), (instance, state) => {
      state.storage.sql.exec(`DELETE FROM facts WHERE key = 'moved'`)
      ;(instance as unknown as { moved: boolean }).moved = false
    })
    await legacy('favorites', earlier.id, s.seriesId, ago(1_000))

    expect(await shelf(earlier, 'favorite')).toEqual([s.seriesId])
    expect(await legacyRows(earlier.id)).toBe(0)
    await moveWaitingReaders(db, env.READER)
    expect(await legacyRows(quiet.id)).toBe(0)
    expect((await marksIn(quiet.id)).favorite).toEqual([s.seriesId])
    expect((await moveWaitingReaders(db, env.READER)).rows).toBe(0)
  })

  it('reach the shared copy through the queue: favourite, hide, unfavourite, each a newer version', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const settled = (want: object) =>
      vi.waitFor(async () => expect(await copyOf(reader.id)).toEqual([{ series_id: s.seriesId, ...want }]), {
        timeout: 10_000,
        interval: 50,
      })

    const answers = await Promise.all(Array.from({ length: 40 }, () => send(reader, 'POST', `/api/v1/library/favorite/${s.seriesId}`, '')))
    expect(answers.map((r) => r!.status)).toEqual(Array(40).fill(200))
    expect(answers[0]!.headers.get('x-reader-calls')).toBe('2') // the session check, the mark
    await settled({ favorite: 1, hidden: 0, version: 1 }) // 40 asks, one change
    expect((await send(reader, 'POST', '/api/v1/library/hidden', JSON.stringify({ seriesId: s.seriesId, hidden: true })))!.status).toBe(200)
    await settled({ favorite: 1, hidden: 1, version: 2 })
    expect((await send(reader, 'DELETE', `/api/v1/library/favorite/${s.seriesId}`, ''))!.status).toBe(200)
    await settled({ favorite: 0, hidden: 1, version: 3 })
    expect(await marksIn(reader.id)).toEqual({ favorite: [], hidden: [[s.seriesId, expect.any(String)]] })

    // neither mark left: the row says since when, for the retention sweep; a new mark takes that back
    const clearedAt = () => db.first<{ at: string | null }>(`SELECT cleared_at AS at FROM library_marks WHERE user_id = ?`, reader.id)
    expect((await send(reader, 'POST', '/api/v1/library/hidden', JSON.stringify({ seriesId: s.seriesId, hidden: false })))!.status).toBe(
      200,
    )
    await settled({ favorite: 0, hidden: 0, version: 4 })
    expect((await clearedAt())?.at).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/))
    expect((await send(reader, 'POST', `/api/v1/library/favorite/${s.seriesId}`, ''))!.status).toBe(200)
    await settled({ favorite: 1, hidden: 0, version: 5 })
    expect((await clearedAt())?.at).toBeNull()
  })

  it('keeps the newest state in the shared copy whatever the order and number of deliveries', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const states = [
      { favorite: true, hidden: false },
      { favorite: true, hidden: true },
      { favorite: false, hidden: true },
      { favorite: false, hidden: false },
      { favorite: true, hidden: false },
    ]
    // the messages an object sends while none is applied yet: each carries the events before it again
    const events = states.map((state, i) => ({
      seq: i + 1,
      event: { kind: 'marks' as const, seriesId: s.seriesId, ...state, version: i + 1 },
    }))
    const jobs: ReaderEventsJob[] = events.map((_, i) => ({ readerId: reader.id, events: events.slice(0, i + 1) }))
    // every message 8 times, newest first then shuffled: 40 deliveries at once
    const deliveries = [...jobs].reverse().flatMap((job) => Array<ReaderEventsJob>(8).fill(job))
    deliveries.sort(() => Math.random() - 0.5)
    await Promise.all(deliveries.map((job) => deliverReaderEvents(db, job)))
    expect(await copyOf(reader.id)).toEqual([{ series_id: s.seriesId, favorite: 1, hidden: 0, version: 5 }])
    await deliverReaderEvents(db, jobs[2]!) // a late older one
    expect(await copyOf(reader.id)).toEqual([{ series_id: s.seriesId, favorite: 1, hidden: 0, version: 5 }])

    // nothing for an unknown series or a withdrawn reader
    await deliverReaderEvents(db, { readerId: reader.id, events: [{ seq: 6, event: { ...events[4]!.event, seriesId: 2_000_000_000 } }] })
    const gone = await newReader()
    await db.run(`UPDATE users SET deleted_at = ? WHERE id = ?`, new Date().toISOString(), gone.id)
    await deliverReaderEvents(db, { ...jobs[4]!, readerId: gone.id })
    expect(await copyOf(gone.id)).toEqual([])
    expect(await copyOf(reader.id)).toHaveLength(1)
  })
})
