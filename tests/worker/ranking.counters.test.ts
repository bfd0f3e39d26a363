/**
 * Issue 24 point 4, ranking without rescans: the daily counters (migration 0015 series_daily, kept by triggers on
 * purchases and on rows written to D1's reading_progress — the demo's, the generated readers' — and, since issue 38,
 * by the `read` and `purchase` events of readers' objects through the reader events' queue and the series' tally) give the same ranking as the full
 * recount the cron used to run, count a read and a purchase once however often or concurrently they are sent, and
 * the cron's rows read do not grow with the number of readers. Real workerd + D1 + Durable Objects + queue.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { app, buy, db, give, newReader, newSeries, read, type Reader } from './purchase.helpers.ts'
import { onOneUtcDay, request } from './app.ts'
import { afterTally, placesOf, readerObject } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'
import { refreshRanking } from '../../src/features/catalogue/ranking.server.ts'
import { ACTIVITY_UNIT, RANKING_WEIGHTS, VIEWS_CAP, rankingFirstDay } from '../../src/features/catalogue/ranking.ts'

type Ranked = { seriesId: number; readers: number; purchases: number; score: number }

/**
 * The reference: the cron's query before issue 24 (a full recount of reading_progress and purchases since ?1),
 * kept only here, over D1's rows and the places (?2, JSON) and purchases (?3, JSON) of the readers whose rows are in
 * their objects. Its
 * window was the last 30 × 24 h; the counters' is the last 30 UTC days (`rankingFirstDay`).
 */
const RECOUNT_SQL = `WITH rp AS (SELECT series_id, updated_at FROM reading_progress
      UNION ALL SELECT json_extract(value, '$.seriesId'), json_extract(value, '$.updatedAt') FROM json_each(?2)),
    pu AS (SELECT series_id, created_at FROM purchases
      UNION ALL SELECT json_extract(value, '$.seriesId'), json_extract(value, '$.createdAt') FROM json_each(?3))
  SELECT id AS seriesId, readers, purchases,
    (readers * ${RANKING_WEIGHTS.reader} + purchases * ${RANKING_WEIGHTS.purchase}) * ${ACTIVITY_UNIT} + MIN(views, ${VIEWS_CAP}) AS score FROM (
    SELECT s.id,
      (SELECT COUNT(*) FROM rp WHERE rp.series_id = s.id AND rp.updated_at >= ?1) AS readers,
      (SELECT COUNT(*) FROM pu p WHERE p.series_id = s.id AND p.created_at >= ?1) AS purchases,
      s.view_count AS views
    FROM series s)
  ORDER BY id`

/** Readers whose places are in their objects (they saved through the API). */
const objectReaders: number[] = []
/** Readers whose purchases are in their objects (they bought through the API). */
const objectBuyers: number[] = []

async function recount(now: Date, since = rankingFirstDay(now)): Promise<{ rows: Ranked[]; rowsRead: number }> {
  const places = (await Promise.all(objectReaders.map(placesOf))).flat()
  const bought = (
    await Promise.all(
      objectBuyers.map((id) =>
        readerRows.all(id, `SELECT series_id AS seriesId, created_at AS createdAt FROM purchases WHERE user_id = ?`, id),
      ),
    )
  ).flat()
  const r = await env.DB.prepare(RECOUNT_SQL).bind(since, JSON.stringify(places), JSON.stringify(bought)).all<Ranked>()
  return { rows: r.results, rowsRead: r.meta.rows_read }
}

async function stored(): Promise<Ranked[]> {
  return db.all<Ranked>(`SELECT series_id AS seriesId, readers, purchases, score FROM series_ranking ORDER BY series_id`)
}

async function expectSameAsRecount(now: Date) {
  await refreshRanking(db, now)
  const reference = (await recount(now)).rows
  expect(await stored()).toEqual(reference)
  // every ranked list orders by series.rank_score
  const scores = await db.all<{ seriesId: number; score: number }>(`SELECT id AS seriesId, rank_score AS score FROM series ORDER BY id`)
  expect(scores).toEqual(reference.map((r) => ({ seriesId: r.seriesId, score: r.score })))
  return reference
}

let generated = 0
/**
 * `perCell` generated readers for every (series with episodes, day) of the last 35 UTC days (5 of them before
 * the window), each reading one series (a row of D1's reading_progress, as before the move to readers' objects),
 * a third of them buying an episode of it. Reading again is a reader object's event (the test below).
 */
async function generateReaders(perCell: number, now: Date) {
  const tag = `gen${++generated}`
  const series = await db.all<{ id: number; episodeId: number }>(
    `SELECT s.id, min(e.id) AS episodeId FROM series s JOIN episodes e ON e.series_id = s.id GROUP BY s.id ORDER BY s.id`,
  )
  const n = series.length * 35 * perCell
  await db.run(
    `WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ? - 1)
     INSERT INTO users (email) SELECT ? || '-' || i || '@example.com' FROM k`,
    n,
    tag,
  )
  // reader i reads series i % S on day (i / S) % 35 before today, at hour i % 24
  const day = (i: string) =>
    `strftime('%Y-%m-%d', ?3, '-' || ((${i} / ?2) % 35) || ' days') || 'T' || printf('%02d', ${i} % 24) || ':17:00.000Z'`
  const source = `WITH g AS (SELECT id, CAST(substr(email, length(?1) + 2) AS INTEGER) AS i FROM users WHERE email LIKE ?1 || '-%'),
      sl AS (SELECT value AS v, key AS k FROM json_each(?4))
    SELECT g.id AS uid, g.i AS i, json_extract(sl.v, '$.id') AS sid, json_extract(sl.v, '$.episodeId') AS eid, ${day('g.i')} AS at
    FROM g JOIN sl ON sl.k = g.i % ?2`
  const params = [tag, series.length, now.toISOString(), JSON.stringify(series)]
  await db.run(
    `INSERT INTO reading_progress (user_id, series_id, episode_id, position, updated_at) SELECT uid, sid, eid, 0.5, at FROM (${source}) WHERE true`,
    ...params,
  )
  await db.run(
    `INSERT INTO purchases (user_id, series_id, episode_id, type, coins, created_at) SELECT uid, sid, eid, 'RENT', 2, at FROM (${source}) WHERE i % 3 = 0`,
    ...params,
  )
}

function saveProgress(reader: Reader, episodeId: number, position: number) {
  return request(app, `/api/v1/viewer/${episodeId}/progress`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...reader.headers },
    body: JSON.stringify({ position }),
  })
}

async function counters(seriesId: number) {
  return db.all<{ day: string; readers: number; purchases: number }>(
    `SELECT day, readers, purchases FROM series_daily WHERE series_id = ? ORDER BY day`,
    seriesId,
  )
}

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('ranking from daily counters', () => {
  it('equals the full recount on the demo, then after generated reads and purchases', async () => {
    const now = new Date()
    const demo = await expectSameAsRecount(now)
    expect(demo.some((r) => r.readers > 0)).toBe(true) // the demo's reads count (counters filled by the seed's inserts)
    // on the demo, the same figures as the old rolling window too
    expect((await recount(now, new Date(now.getTime() - 30 * 86_400_000).toISOString())).rows).toEqual(demo)
    await generateReaders(1, now)
    const after = await expectSameAsRecount(now)
    expect(after.reduce((n, r) => n + r.readers, 0)).toBeGreaterThan(1000)
    expect(after.reduce((n, r) => n + r.purchases, 0)).toBeGreaterThan(400)
    // rows older than the window are gone after a refresh
    expect(await db.first(`SELECT count(*) AS n FROM series_daily WHERE day < ?`, rankingFirstDay(now))).toEqual({ n: 0 })
  })

  it('counts a reader once per series: 40 concurrent saves, and again on another day, move one count', async () => {
    await onOneUtcDay(async () => {
      const reader = await newReader()
      objectReaders.push(reader.id)
      const { seriesId, episodeIds } = await newSeries({ episodes: 2, free: 2 })
      const saves = await Promise.all(Array.from({ length: 40 }, (_, i) => saveProgress(reader, episodeIds[i % 2]!, i / 40)))
      expect(saves.map((r) => r.status)).toEqual(Array(40).fill(200))
      const today = new Date().toISOString().slice(0, 10)
      const settled = (expected: Awaited<ReturnType<typeof counters>>) =>
        afterTally(seriesId, async () => expect(await counters(seriesId)).toEqual(expected))
      await settled([{ day: today, readers: 1, purchases: 0 }])

      // their last read three days ago (the object's own call, with that time): the count moves to that day;
      // reading again today moves it back, once
      const earlier = new Date(Date.parse(`${today}T12:00:00Z`) - 3 * 86_400_000).toISOString()
      await readerObject(reader.id).saveProgress(reader.id, {
        seriesId,
        episodeId: episodeIds[0]!,
        episodeNo: 1,
        position: 0.2,
        updatedAt: earlier,
      })
      await settled([
        { day: earlier.slice(0, 10), readers: 1, purchases: 0 },
        { day: today, readers: 0, purchases: 0 },
      ])
      const again = await Promise.all(Array.from({ length: 40 }, () => saveProgress(reader, episodeIds[0]!, 0.9)))
      expect(again.map((r) => r.status)).toEqual(Array(40).fill(200))
      await settled([
        { day: earlier.slice(0, 10), readers: 0, purchases: 0 },
        { day: today, readers: 1, purchases: 0 },
      ])

      await refreshRanking(db)
      expect(await db.first(`SELECT readers, purchases FROM series_ranking WHERE series_id = ?`, seriesId)).toEqual({
        readers: 1,
        purchases: 0,
      })
    })
  })

  it('counts a purchase once: 40 concurrent sends with one Idempotency-Key, 40 rentals of one episode with distinct keys', async () => {
    await onOneUtcDay(async () => {
      const reader = await newReader()
      objectBuyers.push(reader.id)
      await give(reader.id, 'COIN', 100)
      const { seriesId, episodeIds } = await newSeries({ episodes: 3, priceRent: 2 })
      const key = crypto.randomUUID()
      const same = await Promise.all(Array.from({ length: 40 }, () => buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' }, key)))
      expect(same.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1)
      const distinct = await Promise.all(Array.from({ length: 40 }, () => buy(reader, { episodeIds: [episodeIds[1]], kind: 'RENT' })))
      const ok = await Promise.all(distinct.filter((r) => r.status === 200).map(read))
      expect(ok).toHaveLength(1)
      const bought = await readerRows.all<{ d: string }>(
        reader.id,
        `SELECT substr(created_at, 1, 10) AS d FROM purchases WHERE user_id = ?`,
        reader.id,
      )
      expect(bought).toHaveLength(2)
      // each purchase's event leaves the reader's object through its outbox and the queue, to the series' tally
      await afterTally(seriesId, async () => expect(await counters(seriesId)).toEqual([{ day: bought[0]!.d, readers: 0, purchases: 2 }]))
      await refreshRanking(db)
      expect(await db.first(`SELECT purchases FROM series_ranking WHERE series_id = ?`, seriesId)).toEqual({ purchases: 2 })
    })
  })

  it("reads the same number of rows at 1× and 10× the readers (the old recount's grow)", async () => {
    const now = new Date()
    const measure = async () => {
      await refreshRanking(db, now) // drops the generated rows older than the window (once a day in real use)
      const run = await refreshRanking(db, now)
      return {
        readers: (await db.first<{ n: number }>(`SELECT count(*) AS n FROM reading_progress`))!.n,
        run,
        old: (await recount(now)).rowsRead,
      }
    }
    await generateReaders(1, now)
    const one = await measure()
    await generateReaders(1, now)
    const added = (await measure()).readers - one.readers
    await generateReaders(Math.ceil((9 * one.readers) / added) - 1, now)
    const ten = await measure()
    console.log(
      `ranking cron rows read (${(await db.first<{ n: number }>(`SELECT count(*) AS n FROM series`))!.n} series): ${one.readers} progress rows → ${one.run.rowsRead} (recount ${one.old}); ${ten.readers} → ${ten.run.rowsRead} (recount ${ten.old})`,
    )
    expect(ten.readers).toBeGreaterThanOrEqual(one.readers * 10)
    expect(ten.run.rowsRead).toBe(one.run.rowsRead)
    expect(ten.old).toBeGreaterThan(one.old * 5)
    await expectSameAsRecount(now)
  }, 60_000)
})
