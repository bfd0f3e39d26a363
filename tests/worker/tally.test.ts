/**
 * A series' tally (issue 38, counting outside D1; src/features/catalogue/tally.server.ts) on real workerd + D1 +
 * Durable Objects: readers' views, reads and purchases are counted once each, by reader and number, and added to D1 in
 * one batch per flush whose size follows the episodes and days counted, not the readers; a flush D1 applied but the
 * tally did not record is sent again and adds nothing; a flush D1 refused keeps its sums for the next try.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { db, newSeries } from './purchase.helpers.ts'
import { flushTally } from './reader.helpers.ts'
import { tallyOf, type Tally } from '../../src/features/catalogue/tally.server.ts'
import type { TallyItem } from '../../src/features/catalogue/tally.ts'

const counts = async (seriesId: number) => ({
  series: await db.first(`SELECT view_count AS views, tally_flush AS flush FROM series WHERE id = ?`, seriesId),
  episodes: await db.all(`SELECT id, view_count AS views FROM episodes WHERE series_id = ? ORDER BY id`, seriesId),
  days: await db.all(`SELECT day, readers, purchases FROM series_daily WHERE series_id = ? ORDER BY day`, seriesId),
})

/** 40 readers' events about a series: each views both episodes, reads it on 2026-11-20 and buys once; reader 1 moves to the 21st. */
function events(seriesId: number, episodeIds: number[]): TallyItem[] {
  return Array.from({ length: 40 }, (_, i) => [
    { readerId: 1000 + i, seq: 1, event: { kind: 'view' as const, seriesId, episodeId: episodeIds[0]!, day: '2026-11-20' } },
    { readerId: 1000 + i, seq: 2, event: { kind: 'view' as const, seriesId, episodeId: episodeIds[1]!, day: '2026-11-20' } },
    { readerId: 1000 + i, seq: 3, event: { kind: 'read' as const, seriesId, from: null, to: '2026-11-20' } },
    { readerId: 1000 + i, seq: 4, event: { kind: 'purchase' as const, seriesId, day: '2026-11-20' } },
  ]).flat()
}

describe("a series' tally", () => {
  it('counts each event once, however often and concurrently it is handed over, and adds the sums in one flush', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const items = events(s.seriesId, s.episodeIds)
    const tally = tallyOf(s.seriesId)
    const log = vi.spyOn(console, 'log')
    // 40 deliveries at once of every event, each reader's in order
    const counted = await Promise.all(Array.from({ length: 40 }, () => tally.count(s.seriesId, items)))
    expect(counted.reduce((a, b) => a + b, 0)).toBe(160)
    // the flush (its alarm: now, or by itself 2 s after the count in a local run)
    await flushTally(s.seriesId)
    const usage = log.mock.calls.map((c) => String(c[0])).find((l) => l.includes('"tally.usage"'))
    log.mockRestore()
    // one statement per episode viewed, one for the series' views, one per day, one for the flush's number
    expect(JSON.parse(usage!)).toMatchObject({ seriesId: s.seriesId, statements: 5 })
    expect(await counts(s.seriesId)).toEqual({
      series: { views: 80, flush: 1 },
      episodes: s.episodeIds.map((id) => ({ id, views: 40 })),
      days: [{ day: '2026-11-20', readers: 40, purchases: 40 }],
    })
    // reader 1000 reads again on the 21st: their count moves; an older event of theirs counts nothing
    await tally.count(s.seriesId, [
      { readerId: 1000, seq: 2, event: { kind: 'purchase', seriesId: s.seriesId, day: '2026-11-20' } },
      { readerId: 1000, seq: 5, event: { kind: 'read', seriesId: s.seriesId, from: '2026-11-20', to: '2026-11-21' } },
    ])
    await flushTally(s.seriesId)
    expect((await counts(s.seriesId)).days).toEqual([
      { day: '2026-11-20', readers: 39, purchases: 40 },
      { day: '2026-11-21', readers: 1, purchases: 0 },
    ])
    // nothing left to add: no alarm
    expect(await flushTally(s.seriesId)).toBe(false)
  })

  it('adds a flush D1 applied once, when the tally sends it again; keeps the sums of a flush D1 refused', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const tally = tallyOf(s.seriesId)
    await tally.count(s.seriesId, events(s.seriesId, s.episodeIds).slice(0, 4))
    await flushTally(s.seriesId)
    const once = await counts(s.seriesId)
    expect(once.series).toEqual({ views: 2, flush: 1 })
    // the tally stopped after D1 applied flush 1 and before it recorded it: it sends flush 1 again, D1 adds nothing
    await runInDurableObject(tally, (_instance: Tally, state) => {
      const sql = state.storage.sql
      const sent = {
        n: 1,
        counts: [
          { day: '', episodeId: s.episodeIds[0], views: 1, readers: 0, purchases: 0 },
          { day: '2026-11-20', episodeId: 0, views: 0, readers: 1, purchases: 1 },
        ],
      }
      sql.exec(
        `INSERT INTO facts (key, value) VALUES ('flushing', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        JSON.stringify(sent),
      )
      sql.exec(`UPDATE facts SET value = '0' WHERE key = 'flushed'`)
    })
    expect(await tally.flush()).toBe(1)
    expect(await counts(s.seriesId)).toEqual(once)

    // D1 refuses a flush: it throws (the alarm tries again), the sums wait, and the next flush adds them with what came since
    await tally.count(s.seriesId, [
      { readerId: 7, seq: 1, event: { kind: 'view', seriesId: s.seriesId, episodeId: s.episodeIds[0]!, day: '2026-11-20' } },
    ])
    // this part flushes by hand: the alarms the counts set are taken off
    const noAlarm = () => runInDurableObject(tally, (_instance: Tally, state) => state.storage.deleteAlarm())
    await noAlarm()
    await runInDurableObject(tally, async (instance: Tally) => {
      const own = instance as unknown as { env: Cloudflare.Env }
      const down = {
        prepare: (sql: string) => env.DB.prepare(sql),
        batch: () => Promise.reject(new Error('D1 down')),
        getBookmark: () => null,
      }
      own.env = { ...env, DB: { withSession: () => down } as unknown as D1Database }
      try {
        await expect(instance.flush()).rejects.toThrow('D1 down')
      } finally {
        own.env = env
      }
    })
    await tally.count(s.seriesId, [
      { readerId: 8, seq: 1, event: { kind: 'view', seriesId: s.seriesId, episodeId: s.episodeIds[0]!, day: '2026-11-20' } },
    ])
    await noAlarm()
    expect(await counts(s.seriesId)).toEqual(once)
    expect(await tally.flush()).toBe(2) // the refused one, under its number
    expect(await tally.flush()).toBe(3) // what came since
    expect((await counts(s.seriesId)).series).toEqual({ views: 4, flush: 3 })
  })
})
