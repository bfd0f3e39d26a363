/**
 * Readers' Durable Objects (issue 38, docs/ARCHITECTURE.md "Reader objects"): the object's own schema migrations, the
 * move of a reader's D1 rows on first use and in the background (a state written by the code before the objects), the
 * outbox to the shared side through the reader events' queue — one message on its way at a time, sent again by the
 * object's alarm after a failed send, applied once per event whatever the number of deliveries — and the series readers an operator's notice reaches.
 * Real workerd: D1, the objects' SQLite, the queue and its consumer (tests/worker/main.ts).
 */
import { describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { app, db, get, newReader, newSeries, read, type Reader as TestReader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { tallyOf } from '../../src/features/catalogue/tally.server.ts'
import { couponReaders, couponReport, createCoupon } from '../../src/features/coupon/coupon.server.ts'
import { CouponCreateRequest } from '../../src/features/coupon/coupon.ts'
import { afterTally, deliverReaderEvents, execInReader, flushTally, placesOf, readerObject } from './reader.helpers.ts'
import { migrateReader } from '../../src/objects/reader/schema.server.ts'
import { consumeReaderEvents } from '../../src/objects/reader/events.server.ts'
import { moveWaitingReaders } from '../../src/objects/reader/move.server.ts'
import type { Reader } from '../../src/objects/reader/reader.server.ts'
import type { ReaderEventsJob } from '../../src/features/reader/events.ts'

const save = (reader: TestReader, episodeId: number, position: number) =>
  request(app, `/api/v1/viewer/${episodeId}/progress`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...reader.headers },
    body: JSON.stringify({ position }),
  })

/** A row of D1's reading_progress, as the code before the objects wrote it. */
const legacyRow = (userId: number, seriesId: number, episodeId: number, position: number, updatedAt: string) =>
  db.run(
    `INSERT INTO reading_progress (user_id, series_id, episode_id, position, updated_at) VALUES (?, ?, ?, ?, ?)`,
    userId,
    seriesId,
    episodeId,
    position,
    updatedAt,
  )
const legacyRows = async (userId: number) => (await db.all(`SELECT series_id FROM reading_progress WHERE user_id = ?`, userId)).length
/**
 * Runs `run` in the reader's object `instance` with `queue` as its reader events' queue, then gives it back the real one;
 * `read` saves a place in the series' first episode as a call of the object (one read event in its outbox).
 */
async function withEventsQueue<T>(
  instance: Reader,
  queue: { send: (job: ReaderEventsJob) => Promise<unknown> },
  run: () => Promise<T>,
): Promise<T> {
  const own = instance as unknown as { env: Cloudflare.Env }
  own.env = { ...env, READER_EVENTS: queue as unknown as Queue }
  try {
    return await run()
  } finally {
    own.env = env
  }
}
const readIn = (instance: Reader, readerId: number, s: { seriesId: number; episodeIds: number[] }, updatedAt: string) =>
  instance.saveProgress(readerId, { seriesId: s.seriesId, episodeId: s.episodeIds[0]!, episodeNo: 1, position: 0.5, updatedAt })
const daily = (seriesId: number) =>
  db.all<{ day: string; readers: number }>(`SELECT day, readers FROM series_daily WHERE series_id = ? ORDER BY day`, seriesId)

describe("a reader's object", () => {
  it('starts at the last migration of its own schema, and migrating again changes nothing', async () => {
    const reader = await newReader()
    const tables = await runInDurableObject(readerObject(reader.id), (_instance, state) => {
      const names = state.storage.sql
        .exec<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name`,
        )
        .toArray()
        .map((r) => r.name)
      state.storage.sql.exec(`INSERT INTO facts (key, value) VALUES ('probe', 'kept')`)
      return { names, version: migrateReader(state.storage) }
    })
    expect(tables.names).toEqual([
      'account',
      'address',
      'alarms',
      'auto_unlock',
      'coin_ledger',
      'coin_lots',
      'coupon_redemptions',
      'event_entries',
      'event_tickets',
      'facts',
      'follows',
      'gifts',
      'idempotency_keys',
      'likes',
      'marks',
      'outbox',
      'ownerships',
      'payment_events',
      'payment_reversals',
      'payments',
      'progress',
      'purchases',
      'refresh_tokens',
      'schema_version',
      'sessions',
      'spending_limit',
      'views',
      'wuf_tickets',
    ])
    // `migrateReader` answers the number of the last migration: the object was already at it
    expect(tables.version).toBeGreaterThan(0)
    expect(await execInReader(reader.id, `SELECT version FROM schema_version`)).toEqual([{ version: tables.version }])
    expect(await execInReader(reader.id, `SELECT value FROM facts WHERE key = 'probe'`)).toEqual([{ value: 'kept' }])
  })

  it("takes the reader's D1 rows on first use, deletes them there, and changes no counter", async () => {
    const a = await newSeries({ episodes: 3, free: 3 })
    const b = await newSeries({ episodes: 2, free: 2 })
    const reader = await newReader()
    const at = new Date(Date.now() - 3_600_000).toISOString()
    await legacyRow(reader.id, a.seriesId, a.episodeIds[1]!, 0.4, at)
    await legacyRow(reader.id, b.seriesId, b.episodeIds[0]!, 1, new Date(Date.now() - 7_200_000).toISOString())
    const counted = [await daily(a.seriesId), await daily(b.seriesId)]
    expect(counted[0]).toEqual([{ day: at.slice(0, 10), readers: 1 }])

    const list = (await read(await get(reader, '/api/v1/library/recent'))).data.items
    expect(list.map((i: { seriesId: number; episodeNo: number; position: number }) => [i.seriesId, i.episodeNo, i.position])).toEqual([
      [a.seriesId, 2, 0.4],
      [b.seriesId, 1, 1],
    ])
    expect(await legacyRows(reader.id)).toBe(0)
    expect([await daily(a.seriesId), await daily(b.seriesId)]).toEqual(counted)
    // the series page's continue-reading comes from the object too
    const me = (await read(await get(reader, `/api/v1/contents/${a.seriesId}/me`))).data
    expect(me.continueReading).toEqual({ episodeId: a.episodeIds[1], no: 2, position: 0.4 })
  })

  it('moves the readers who make no call in the background, a move made twice keeping the newer place', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const readers = await Promise.all([newReader(), newReader(), newReader()])
    const older = new Date(Date.now() - 86_400_000).toISOString()
    const newer = new Date(Date.now() - 60_000).toISOString()
    for (const r of readers) await legacyRow(r.id, s.seriesId, s.episodeIds[0]!, 0.3, older)
    const first = await moveWaitingReaders(db, env.READER)
    expect(first.rows).toBeGreaterThanOrEqual(3)
    for (const r of readers) expect(await legacyRows(r.id)).toBe(0)
    for (const r of readers)
      expect((await placesOf(r.id)).map((p) => [p.episodeId, p.position, p.updatedAt])).toEqual([[s.episodeIds[0], 0.3, older]])

    // rows written in D1 again (the demo's seed on an old state): an older one loses, a newer one wins
    await legacyRow(readers[0]!.id, s.seriesId, s.episodeIds[1]!, 0.9, new Date(Date.now() - 2 * 86_400_000).toISOString())
    await legacyRow(readers[1]!.id, s.seriesId, s.episodeIds[1]!, 0.9, newer)
    await moveWaitingReaders(db, env.READER)
    expect((await placesOf(readers[0]!.id)).map((p) => [p.episodeId, p.position])).toEqual([[s.episodeIds[0], 0.3]])
    expect((await placesOf(readers[1]!.id)).map((p) => [p.episodeId, p.position])).toEqual([[s.episodeIds[1], 0.9]])
    expect(await legacyRows(readers[0]!.id)).toBe(0)
    expect((await moveWaitingReaders(db, env.READER)).rows).toBe(0)
  })

  it('applies an event once: the same message delivered 40 times at once and again later counts one read', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const first = { seq: 1, event: { kind: 'read' as const, seriesId: s.seriesId, from: null, to: '2026-11-20' } }
    const job = { readerId: reader.id, events: [first] }
    await Promise.all(Array.from({ length: 40 }, () => deliverReaderEvents(db, job)))
    await deliverReaderEvents(db, job)
    await flushTally(s.seriesId)
    expect(await daily(s.seriesId)).toEqual([{ day: '2026-11-20', readers: 1 }])
    // the next event, in a message that carries the first again (sent before the object heard it was applied)
    const next = { seq: 2, event: { ...first.event, from: '2026-11-20', to: '2026-11-21' } }
    await deliverReaderEvents(db, { readerId: reader.id, events: [first, next] })
    await flushTally(s.seriesId)
    expect(await daily(s.seriesId)).toEqual([
      { day: '2026-11-20', readers: 0 },
      { day: '2026-11-21', readers: 1 },
    ])
    // the series' recent readers (its tally): the reader, on their latest day
    expect(await tallyOf(s.seriesId).readers('2026-11-21', 0, 10)).toEqual([reader.id])
    expect(await tallyOf(s.seriesId).readers('2026-11-22', 0, 10)).toEqual([])
    // a read changes nothing in D1 but the counters: the account's event number stays
    expect(await db.first(`SELECT events_applied AS n FROM users WHERE id = ?`, reader.id)).toEqual({ n: 0 })
  })

  it('applies a coupon event once: its counters and who used it (coupon report), 40 deliveries at once, the reward later', async () => {
    const coupon = (await createCoupon(
      db,
      CouponCreateRequest.parse({
        downloadable: true,
        title: 'Once',
        type: 'DISCOUNT',
        rewardType: 'MILEAGE',
        rewardAmount: 10,
        reason: 'test',
      }),
      new Date(),
    ))!
    const reader = await newReader()
    const took = { seq: 1, event: { kind: 'coupon' as const, couponId: coupon.id, received: 1 as const, redeemed: 0 as const } }
    await Promise.all(Array.from({ length: 40 }, () => deliverReaderEvents(db, { readerId: reader.id, events: [took] })))
    const [once] = await couponReaders(db, coupon.id)
    expect(once).toMatchObject({ userId: reader.id, email: expect.stringContaining('@'), receivedAt: expect.any(String), redeemedAt: null })
    const rewarded = { seq: 2, event: { ...took.event, received: 0 as const, redeemed: 1 as const } }
    await Promise.all(Array.from({ length: 40 }, () => deliverReaderEvents(db, { readerId: reader.id, events: [took, rewarded] })))
    expect(await couponReaders(db, coupon.id)).toEqual([{ ...once, redeemedAt: expect.any(String) }])
    expect((await couponReport(db, new Date(), coupon.id))[0]).toMatchObject({ received: 1, used: 1 })
  })

  it('applies a message the queue retries after a failed batch once, and the object forgets what was applied', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const res = await save(reader, s.episodeIds[0]!, 0.2)
    expect(res.status).toBe(200)
    // the consumer applied the save's read event and told the object
    await vi.waitFor(async () => expect(await execInReader(reader.id, `SELECT count(*) AS n FROM outbox`)).toEqual([{ n: 0 }]), {
      timeout: 10_000,
      interval: 50,
    })
    const today = new Date().toISOString().slice(0, 10)
    await flushTally(s.seriesId)
    expect(await daily(s.seriesId)).toEqual([{ day: today, readers: 1 }])

    // a message whose batch fails is retried by the queue and not acknowledged; its delivery later counts once
    const other = await newSeries({ episodes: 1, free: 1 })
    const job = {
      readerId: reader.id,
      events: [
        { seq: 2, event: { kind: 'read' as const, seriesId: other.seriesId, from: null, to: today } },
        { seq: 3, event: { kind: 'marks' as const, seriesId: other.seriesId, favorite: true, hidden: false, version: 1 } },
      ],
    }
    const failing = { ...db, batch: () => Promise.reject(new Error('D1 down')) }
    const retried: unknown[] = []
    const message = {
      id: 'm',
      body: job,
      attempts: 1,
      timestamp: new Date(),
      ack: () => retried.push('ack'),
      retry: () => retried.push('retry'),
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    await consumeReaderEvents({ queue: 'q', messages: [message] } as unknown as MessageBatch<unknown>, failing)
    errors.mockRestore()
    expect(retried).toEqual(['retry'])
    await Promise.all(Array.from({ length: 40 }, () => deliverReaderEvents(db, job)))
    // the series' tally counted the read at the first delivery, and only then
    await flushTally(other.seriesId)
    expect(await daily(other.seriesId)).toEqual([{ day: today, readers: 1 }])
    expect(await db.all(`SELECT user_id, favorite FROM library_marks WHERE series_id = ?`, other.seriesId)).toEqual([
      { user_id: reader.id, favorite: 1 },
    ])
  })

  it("keeps an event the queue refused in its outbox and sends it with the object's alarm", async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const stub = readerObject(reader.id)
    const at = new Date().toISOString()
    await runInDurableObject(stub, (instance: Reader) =>
      withEventsQueue(instance, { send: () => Promise.reject(new Error('queue down')) }, async () => {
        const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
        await readIn(instance, reader.id, s, at)
        expect(errors).toHaveBeenCalledWith(expect.stringContaining('reader.outbox.failed'))
        errors.mockRestore()
      }),
    )
    expect(await execInReader(reader.id, `SELECT count(*) AS n FROM outbox`)).toEqual([{ n: 1 }])
    expect(await daily(s.seriesId)).toEqual([])
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    await afterTally(s.seriesId, async () => expect(await daily(s.seriesId)).toEqual([{ day: at.slice(0, 10), readers: 1 }]))
    // applied, the object was told and forgot it; its next alarm sends nothing again
    await vi.waitFor(async () => expect(await execInReader(reader.id, `SELECT count(*) AS n FROM outbox`)).toEqual([{ n: 0 }]), {
      timeout: 10_000,
      interval: 50,
    })
  })

  it('sends the events written while a message is on its way together, once that message is applied', async () => {
    const series = await Promise.all([1, 2, 3].map(() => newSeries({ episodes: 1, free: 1 })))
    const reader = await newReader()
    const at = new Date().toISOString()
    const sent: ReaderEventsJob[] = []
    const queue = { send: async (job: ReaderEventsJob) => void sent.push(job) }
    const messages = await runInDurableObject(readerObject(reader.id), (instance: Reader) =>
      withEventsQueue(instance, queue, async () => {
        for (const s of series) await readIn(instance, reader.id, s, at)
        const whileOnItsWay = sent.length
        await instance.applied(reader.id, sent[0]!.events.at(-1)!.seq)
        const afterApplied = sent.length
        await instance.applied(reader.id, sent.at(-1)!.events.at(-1)!.seq)
        return {
          whileOnItsWay,
          afterApplied,
          afterAll: sent.length,
          seriesSent: sent.map((m) => m.events.map((e) => ('seriesId' in e.event ? e.event.seriesId : null))),
        }
      }),
    )
    // three reads, two messages: the first read alone, the two written while it was on its way in one
    expect(messages).toEqual({
      whileOnItsWay: 1,
      afterApplied: 2,
      afterAll: 2,
      seriesSent: [[series[0]!.seriesId], [series[1]!.seriesId, series[2]!.seriesId]],
    })
    expect(await execInReader(reader.id, `SELECT count(*) AS n FROM outbox`)).toEqual([{ n: 0 }])
  })

  it("puts a reader among their series' readers once they read it, for an operator's notice", async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const res = await save(reader, s.episodeIds[0]!, 0.2)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-reader-calls')).toBe('1')
    await vi.waitFor(async () => expect(await tallyOf(s.seriesId).readers('2000-01-01', 0, 10)).toEqual([reader.id]), {
      timeout: 10_000,
      interval: 50,
    })
  })
})
