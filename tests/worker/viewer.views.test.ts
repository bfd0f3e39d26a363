/**
 * View counts (issue 12 point 9, docs/API.md "View counts") on real workerd + D1: opening an episode counts one view
 * per signed-in reader, episode and UTC day, decided in the reader's object (no D1 write on the open) and added to D1 by
 * the series' tally, even under 40 concurrent opens and 40 deliveries of one event; guests and locked episodes count
 * nothing; `GET /api/v1/viewcount/{episodeId}` answers the episode's and the series' counts, which the series detail and
 * the ranking read; 1,000 bad ids never get a 5xx.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { app, db, expectError, get, newReader, newSeries, read } from './purchase.helpers.ts'
import { expectApiAnswer, onOneUtcDay, request } from './app.ts'
import { own } from './viewer.helpers.ts'
import { afterTally, deliverReaderEvents, execInReader, flushTally } from './reader.helpers.ts'
import { openEpisode } from '../../src/features/viewer/viewer.server.ts'
import { seriesDetail } from '../../src/features/catalogue/catalogue.server.ts'
import { refreshRanking } from '../../src/features/catalogue/ranking.server.ts'
import { DAY_MS } from '../../src/lib/time.ts'

import { audienceSees } from '../../src/features/age/age.ts'

/** A guest's view (never an adult or BL series). */
const GUEST = audienceSees('guest')

const counts = async (episodeId: number) => read(await get(null, `/api/v1/viewcount/${episodeId}`))
const views = async (episodeId: number) => (await counts(episodeId)).data as { views: number; seriesViews: number }

describe('counting a view', () => {
  it('counts 40 concurrent opens by one reader as one view, with no D1 write on the open; a second reader adds one', async () => {
    await onOneUtcDay(async () => {
      const s = await newSeries({ episodes: 2, free: 1 })
      const [free] = s.episodeIds as [number]
      const reader = await newReader()
      const opens = await Promise.all(Array.from({ length: 40 }, () => get(reader, `/api/v1/viewer/${free}`)))
      for (const res of opens) {
        expect(res.status).toBe(200)
        // one D1 read; one call to the reader's object checks the session, gives the place and the holdings of the
        // paid next episode, and takes the view
        expect([res.headers.get('x-d1-queries'), res.headers.get('x-reader-calls')]).toEqual(['1', '1'])
        expect(res.headers.get('x-d1-usage')).toMatch(/; 0 written$/)
      }
      await afterTally(s.seriesId, async () => expect(await views(free)).toMatchObject({ views: 1, seriesViews: 1 }))
      expect(await execInReader(reader.id, `SELECT episode_id FROM views`)).toEqual([{ episode_id: free }])
      await get(await newReader(), `/api/v1/viewer/${free}`)
      await afterTally(s.seriesId, async () => expect(await views(free)).toMatchObject({ views: 2, seriesViews: 2 }))
    })
  })

  it('counts the same reader again the next UTC day, and the series sums its episodes', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const [first, second] = s.episodeIds as [number, number]
    const reader = await newReader()
    const edition = { krAdultAuth: false, adultNeedsBirthDate: false, notLoggedInAdultCookie: false, timeZone: 'Europe/Paris' }
    const today = new Date()
    await openEpisode(db, first, { userId: reader.id }, edition, today)
    await openEpisode(db, first, { userId: reader.id }, edition, today)
    await openEpisode(db, second, { userId: reader.id }, edition, today)
    await openEpisode(db, first, { userId: reader.id }, edition, new Date(today.getTime() + DAY_MS))
    await afterTally(s.seriesId, async () => {
      expect(await views(first)).toMatchObject({ views: 2, seriesViews: 3 })
      expect(await views(second)).toMatchObject({ views: 1, seriesViews: 3 })
    })
  })

  it('counts nothing for a guest, a locked paid episode, or an ended session', async () => {
    const s = await newSeries({ episodes: 2, free: 1 })
    const [free, paid] = s.episodeIds as [number, number]
    expect((await get(null, `/api/v1/viewer/${free}`)).status).toBe(200)
    const reader = await newReader()
    await expectError(await get(reader, `/api/v1/viewer/${paid}`), 403, 'UNAUTHORIZED_CONTENTS')
    const ended = await newReader()
    await db.run(`UPDATE users SET session_version = session_version + 1 WHERE id = ?`, ended.id)
    await expectError(await get(ended, `/api/v1/viewer/${free}`), 401, 'NEED_TO_REFRESH')
    // the queue has had its time, and the tally had nothing to add
    await new Promise((r) => setTimeout(r, 300))
    expect(await flushTally(s.seriesId)).toBe(false)
    expect(await views(free)).toMatchObject({ views: 0, seriesViews: 0 })
    expect(await views(paid)).toMatchObject({ views: 0, seriesViews: 0 })
    // once held, the paid episode counts: 40 opens at once, one view, told by the reader's object through the queue
    await own(reader, s.seriesId, paid, 'POSSESSION', null)
    const opens = await Promise.all(Array.from({ length: 40 }, () => get(reader, `/api/v1/viewer/${paid}`)))
    expect(opens.map((r) => r.status)).toEqual(Array(40).fill(200))
    await afterTally(s.seriesId, async () => expect(await views(paid)).toMatchObject({ views: 1, seriesViews: 1 }))
    // and nothing more once every event is in
    await new Promise((r) => setTimeout(r, 300))
    await flushTally(s.seriesId)
    expect(await views(paid)).toMatchObject({ views: 1, seriesViews: 1 })
  })

  it('counts a view event once: delivered 40 times at once, again later, or after its UTC day has ended', async () => {
    const s = await newSeries({ episodes: 2, free: 1 })
    const paid = s.episodeIds[1]!
    const reader = await newReader()
    const job = (seq: number, day: string) => ({
      readerId: reader.id,
      events: [{ seq, event: { kind: 'view' as const, seriesId: s.seriesId, episodeId: paid, day } }],
    })
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10)
    await Promise.all(Array.from({ length: 40 }, () => deliverReaderEvents(db, job(1, yesterday))))
    await deliverReaderEvents(db, job(1, yesterday))
    await flushTally(s.seriesId)
    expect(await views(paid)).toMatchObject({ views: 1, seriesViews: 1 })
    // a view told before views named their series finds it through its episode
    await deliverReaderEvents(db, { readerId: reader.id, events: [{ seq: 2, event: { kind: 'view', episodeId: paid, day: yesterday } }] })
    await flushTally(s.seriesId)
    expect(await views(paid)).toMatchObject({ views: 2, seriesViews: 2 })
  })
})

describe('GET /api/v1/viewcount/{episodeId}', () => {
  it('answers the episode’s and the series’ counts, the same to everyone; unknown or unpublished is NOT_FOUND_EPISODE', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const [episode, unpublished] = s.episodeIds as [number, number]
    const reader = await newReader()
    await get(reader, `/api/v1/viewer/${episode}`)
    const expected = { episodeId: episode, views: 1, seriesId: s.seriesId, seriesViews: 1 }
    await afterTally(s.seriesId, async () => expect(await counts(episode)).toEqual({ result: 'SUCCESS', data: expected }))
    // nothing personal: another account reads the same answer, and reading counts no view
    expect((await read(await get(await newReader(), `/api/v1/viewcount/${episode}`))).data).toEqual(expected)
    expect((await read(await get(reader, `/api/v1/viewcount/${episode}`))).data).toEqual(expected)
    await db.run(`UPDATE episodes SET published_at = '2999-01-01T00:00:00.000Z' WHERE id = ?`, unpublished)
    await expectError(await get(null, `/api/v1/viewcount/${unpublished}`), 404, 'NOT_FOUND_EPISODE')
    await expectError(await get(null, `/api/v1/viewcount/2147483647`), 404, 'NOT_FOUND_EPISODE')
    await expectError(await get(null, `/api/v1/viewcount/abc`), 404, 'NOT_FOUND_EPISODE')
  })

  it('never answers 5xx to 1,000 generated bad ids and query strings, every error a catalogue code, no count changed', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const episode = s.episodeIds[0]!
    await get(await newReader(), `/api/v1/viewer/${episode}`)
    const before = await db.first(`SELECT (SELECT sum(view_count) FROM episodes) AS e, (SELECT sum(view_count) FROM series) AS s`)
    const id = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('0', '-1', '1.5', '1e3', '99999999999', '2147483648', ' 1', '0x10', '%00', '..', `${episode}/x`),
      fc.bigInt().map(String),
    )
    const query = fc.array(fc.tuple(fc.constantFrom('episodeId', 'seriesId', 'x', ''), fc.string()), { maxLength: 3 })
    await fc.assert(
      fc.asyncProperty(id, query, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), async (raw, pairs, method) => {
        const path = `/api/v1/viewcount/${encodeURIComponent(raw)}?${new URLSearchParams(pairs).toString()}`
        let res: Response
        try {
          res = await request(app, path, { method })
        } catch {
          return // the URL itself could not be built: no request reached the worker
        }
        await expectApiAnswer(res, `${method} ${path}`)
      }),
      { numRuns: 1000 },
    )
    expect(await db.first(`SELECT (SELECT sum(view_count) FROM episodes) AS e, (SELECT sum(view_count) FROM series) AS s`)).toEqual(before)
  }, 120_000)
})

describe('where the count shows', () => {
  it('gives the series detail (page and GET /contents/{id}) and the ranking the real count', async () => {
    const a = await newSeries({ episodes: 2, free: 2 })
    const b = await newSeries({ episodes: 1, free: 1 })
    for (const episode of a.episodeIds)
      for (const reader of [await newReader(), await newReader()]) await get(reader, `/api/v1/viewer/${episode}`)
    await afterTally(a.seriesId, async () => expect((await seriesDetail(db, a.seriesId, GUEST))?.views).toBe(4))
    expect((await seriesDetail(db, b.seriesId, GUEST))?.views).toBe(0)
    expect((await read(await get(null, `/api/v1/contents/${a.seriesId}`))).data.views).toBe(4)
    await refreshRanking(db)
    const ranked = await db.all<{ series_id: number; views: number; score: number }>(
      `SELECT series_id, views, score FROM series_ranking WHERE series_id IN (?, ?) ORDER BY score DESC`,
      a.seriesId,
      b.seriesId,
    )
    expect(ranked.map((r) => [r.series_id, r.views])).toEqual([
      [a.seriesId, 4],
      [b.seriesId, 0],
    ])
  })
})
