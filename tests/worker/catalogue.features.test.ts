/**
 * Issue 5 step 1: rankings from real reads and purchases, related series and schedule on the detail,
 * tag search counts fed by searches, and the notice count cached 5 minutes in KV. Real D1 and KV.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
import { seedDemo } from './seed.ts'
import { readerRows } from './reader-rows.ts'
import { afterTally } from './reader.helpers.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { listContents, seriesDetail, type SeriesCard } from '../../src/features/catalogue/catalogue.server.ts'
import { resolveContents } from '../../src/features/catalogue/catalogue.ts'
import { refreshRanking } from '../../src/features/catalogue/ranking.server.ts'
import { noticeCount } from '../../src/features/notice/notice.server.ts'
import type { DemoCatalogue } from '../../scripts/seed/data.ts'

import { audienceSees } from '../../src/features/age/age.ts'

/** A guest's view (never an adult or BL series). */
const GUEST = audienceSees('guest')

let demo: DemoCatalogue
const app = appFor()
const ADULT: typeof GUEST = { showAdult: true, showBl: true }

beforeAll(async () => {
  demo = await seedDemo(env.DB)
})

async function ranking(audience = GUEST, size = 50): Promise<SeriesCard[]> {
  const r = resolveContents({ tab: 'RANKING', size: String(size) }, audience, 'MONDAY')
  if (!r.ok) throw new Error('bad request')
  return (await listContents(createDb(env.DB), r.request, audience)).items
}

describe('ranking from real reads and purchases', () => {
  it('moves the least-read public series to the top once readers and buyers show up, and keeps the aggregate', async () => {
    await refreshRanking(createDb(env.DB))
    const before = await ranking()
    const last = before[before.length - 1]!
    expect(before[0]!.id).not.toBe(last.id)

    const users = (await env.DB.prepare('SELECT id FROM users ORDER BY id').all<{ id: number }>()).results.map((u) => u.id)
    expect(users.length).toBeGreaterThan(1)
    const episode = await env.DB.prepare('SELECT id FROM episodes WHERE series_id = ? ORDER BY no LIMIT 1')
      .bind(last.id)
      .first<{ id: number }>()
    const now = new Date().toISOString()
    for (const uid of users) {
      await env.DB.prepare(
        `INSERT OR REPLACE INTO reading_progress (user_id, series_id, episode_id, position, updated_at) VALUES (?, ?, ?, 0.5, ?)`,
      )
        .bind(uid, last.id, episode!.id, now)
        .run()
    }
    for (let i = 0; i < 4; i++) {
      await readerRows.run(
        users[0]!,
        `INSERT INTO purchases (user_id, series_id, episode_id, type, coins, created_at) VALUES (?, ?, ?, 'RENT', 0, ?)`,
        users[0],
        last.id,
        episode!.id,
        now,
      )
    }
    // Old activity (outside the 30-day window) does not count.
    const old = new Date(Date.now() - 60 * 86_400_000).toISOString()
    const second = before[1]!
    const secondEpisode = await env.DB.prepare('SELECT id FROM episodes WHERE series_id = ? LIMIT 1')
      .bind(second.id)
      .first<{ id: number }>()
    for (let i = 0; i < 500; i++) {
      await readerRows.run(
        users[0]!,
        `INSERT INTO purchases (user_id, series_id, episode_id, type, coins, created_at) VALUES (?, ?, ?, 'RENT', 0, ?)`,
        users[0],
        second.id,
        secondEpisode?.id ?? null,
        old,
      )
    }

    // the purchases' events leave the reader's object through its outbox and the queue, to the series' tally, whose
    // flush adds them to the daily counters
    await afterTally(last.id, async () =>
      expect(
        await env.DB.prepare(`SELECT coalesce(sum(purchases), 0) AS n FROM series_daily WHERE series_id = ?`).bind(last.id).first('n'),
      ).toBe(4),
    )
    await refreshRanking(createDb(env.DB))
    const after = await ranking()
    expect(after[0]!.id).toBe(last.id)
    const row = await env.DB.prepare('SELECT readers, purchases, score FROM series_ranking WHERE series_id = ?')
      .bind(last.id)
      .first<{ readers: number; purchases: number; score: number }>()
    expect(row).toMatchObject({ readers: users.length, purchases: 4 })
    const oldRow = await env.DB.prepare('SELECT purchases FROM series_ranking WHERE series_id = ?')
      .bind(second.id)
      .first<{ purchases: number }>()
    expect(oldRow!.purchases).toBe(0)
    // The API tab and the ranked home row read the same order.
    const res = await request(app, '/api/v1/contents?tab=RANKING&size=3')
    expect(((await res.json()) as { data: { items: SeriesCard[] } }).data.items[0]!.id).toBe(last.id)
  })

  it('never lists adult series to a guest, nor BL where BL is toggled off, after a refresh', async () => {
    await refreshRanking(createDb(env.DB))
    expect((await ranking(GUEST)).some((s) => s.isAdult)).toBe(false)
    expect((await ranking(ADULT)).some((s) => s.isAdult)).toBe(true)
    expect((await ranking({ showAdult: false, showBl: false })).some((s) => s.genre === 'BL')).toBe(false)
  })
})

describe('detail: related series and schedule', () => {
  it('lists related series sharing tags or genre, never itself, never adult ones for a guest, in the same single query', async () => {
    const db = createDb(env.DB)
    const d = await seriesDetail(db, 1, GUEST)
    expect(db.queryCount).toBe(1)
    expect(d!.related.length).toBeGreaterThan(0)
    expect(d!.related.length).toBeLessThanOrEqual(6)
    expect(d!.related.map((r) => r.id)).not.toContain(1)
    const adultSeries = demo.tables.series!.filter((s) => s.is_adult === 1).map((s) => Number(s.id))
    for (const s of demo.tables.series!.filter((x) => x.is_adult === 0).slice(0, 10)) {
      const detail = await seriesDetail(createDb(env.DB), Number(s.id), GUEST)
      for (const r of detail!.related) expect(adultSeries, `${s.id} → ${r.id}`).not.toContain(r.id)
    }
    // Related ones share a tag or the genre.
    const tagsOf = async (id: number) =>
      (await env.DB.prepare('SELECT tag_id FROM series_tags WHERE series_id = ?').bind(id).all<{ tag_id: number }>()).results.map(
        (r) => r.tag_id,
      )
    const mine = await tagsOf(1)
    for (const r of d!.related) {
      const theirs = await tagsOf(r.id)
      expect(r.genre === d!.genre || theirs.some((t) => mine.includes(t)), String(r.id)).toBe(true)
    }
  })

  it('orders related series by tags shared, then the same genre, then rank, as a reader would rank them by hand', async () => {
    type Row = { id: number; genre: string; rank_score: number; is_adult: number; is_bl: number; is_published: number }
    const series = (await env.DB.prepare('SELECT id, genre, rank_score, is_adult, is_bl, is_published FROM series').all<Row>()).results
    const pairs = (await env.DB.prepare('SELECT series_id, tag_id FROM series_tags').all<{ series_id: number; tag_id: number }>()).results
    const tags = (id: number) => new Set(pairs.filter((p) => p.series_id === id).map((p) => p.tag_id))
    const guestSees = (s: Row) => s.is_published === 1 && (GUEST.showAdult || s.is_adult === 0) && (GUEST.showBl || s.is_bl === 0)
    let checked = 0
    for (const s of series.filter(guestSees).slice(0, 20)) {
      const mine = tags(s.id)
      const expected = series
        .filter((r) => r.id !== s.id && guestSees(r))
        .map((r) => ({ r, shared: [...tags(r.id)].filter((t) => mine.has(t)).length, same: r.genre === s.genre ? 1 : 0 }))
        .filter((c) => c.shared > 0 || c.same === 1)
        .sort((a, b) => b.shared - a.shared || b.same - a.same || b.r.rank_score - a.r.rank_score || a.r.id - b.r.id)
        .slice(0, 6)
        .map((c) => c.r.id)
      const detail = await seriesDetail(createDb(env.DB), s.id, GUEST)
      expect(
        detail!.related.map((r) => r.id),
        `series ${s.id}`,
      ).toEqual(expected)
      checked += expected.length
    }
    expect(checked).toBeGreaterThan(60)
  })

  it("shows at most 2 of the series' notices, newest first, none dated in the future", async () => {
    const row = await env.DB.prepare(`SELECT series_id AS id FROM notices WHERE series_id IS NOT NULL LIMIT 1`).first<{ id: number }>()
    const id = row!.id
    const at = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()
    await env.DB.batch([
      env.DB.prepare(`INSERT INTO notices (series_id, title, body, published_at) VALUES (?, 'old', 'b', ?)`).bind(id, at(-300)),
      env.DB.prepare(`INSERT INTO notices (series_id, title, body, published_at) VALUES (?, 'newest', 'b', ?)`).bind(id, at(-0.01)),
      env.DB.prepare(`INSERT INTO notices (series_id, title, body, published_at) VALUES (?, 'tomorrow', 'b', ?)`).bind(id, at(1)),
    ])
    const d = await seriesDetail(createDb(env.DB), id, GUEST)
    expect(d!.notices.length).toBe(2)
    expect(d!.notices[0]!.title).toBe('newest')
    expect(d!.notices.map((n) => n.title)).not.toContain('tomorrow')
    expect(d!.notices[0]!.publishedAt >= d!.notices[1]!.publishedAt).toBe(true)
  })

  it('gives the schedule days in week order and the next update of a scheduled series', async () => {
    const row = await env.DB.prepare(
      `SELECT s.id, s.next_update_at AS next, (SELECT json_group_array(weekday) FROM schedules WHERE series_id = s.id) AS days
       FROM series s WHERE s.status = 'SCHEDULED' AND s.is_adult = 0 AND EXISTS (SELECT 1 FROM schedules WHERE series_id = s.id) LIMIT 1`,
    ).first<{ id: number; next: string | null; days: string }>()
    const d = await seriesDetail(createDb(env.DB), row!.id, GUEST)
    expect([...d!.schedule].sort()).toEqual([...JSON.parse(row!.days)].sort())
    expect(d!.nextUpdateAt).toBe(row!.next)
  })
})

describe('tag top 10 follows searches', () => {
  it('counts a submitted search for a tag, not a suggestion while typing, and the tag climbs the top 10', async () => {
    const tag = await env.DB.prepare('SELECT name, search_count AS n FROM tags ORDER BY search_count ASC, id DESC LIMIT 1').first<{
      name: string
      n: number
    }>()
    const max = (await env.DB.prepare('SELECT MAX(search_count) AS n FROM tags').first<{ n: number }>())!.n
    const top0 = async () => ((await (await request(app, '/api/v1/search/tags')).json()) as { data: { top: string[] } }).data.top
    expect(await top0()).not.toContain(tag!.name)
    // Bring it just below the leader, then searches decide.
    await env.DB.prepare('UPDATE tags SET search_count = ? WHERE name = ?')
      .bind(max - 3, tag!.name)
      .run()
    tag!.n = max - 3
    const count = async () =>
      (await env.DB.prepare('SELECT search_count AS n FROM tags WHERE name = ?').bind(tag!.name).first<{ n: number }>())!.n
    const suggest = await request(app, `/api/v1/search?${new URLSearchParams({ keyword: tag!.name, suggest: '1' })}`)
    expect(suggest.status).toBe(200)
    await suggest.arrayBuffer()
    for (let i = 0; i < 5; i++) {
      const res = await request(app, `/api/v1/search?${new URLSearchParams({ keyword: tag!.name })}`)
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    }
    for (let i = 0; i < 50 && (await count()) < tag!.n + 5; i++) await new Promise((r) => setTimeout(r, 20))
    expect(await count()).toBe(tag!.n + 5)
    expect((await top0())[0]).toBe(tag!.name)
  })

  it('counts nothing for a keyword that is no tag', async () => {
    const sum = async () => (await env.DB.prepare('SELECT SUM(search_count) AS n FROM tags').first<{ n: number }>())!.n
    const before = await sum()
    const res = await request(app, `/api/v1/search?${new URLSearchParams({ keyword: 'zzqx-no-such-tag' })}`)
    await res.arrayBuffer()
    await new Promise((r) => setTimeout(r, 100))
    expect(await sum()).toBe(before)
  })
})

describe('notice count, cached 5 minutes in KV', () => {
  it('answers from KV until the entry expires, then recounts', async () => {
    await env.CACHE.delete('notice:count')
    const now = new Date()
    const first = await noticeCount(createDb(env.DB), env.CACHE, now)
    expect(first).toBeGreaterThan(0)
    await env.DB.prepare(`INSERT INTO notices (category, title, body, published_at) VALUES ('NOTICE', 'n', 'b', ?)`)
      .bind(new Date(now.getTime() - 1000).toISOString())
      .run()
    const db = createDb(env.DB)
    expect(await noticeCount(db, env.CACHE, now)).toBe(first) // cached: no D1 query
    expect(db.queryCount).toBe(0)
    await env.CACHE.delete('notice:count') // what expiry does after 300 s
    expect(await noticeCount(createDb(env.DB), env.CACHE, now)).toBe(first + 1)
  })
})

describe('GET /api/v1/contents/{id} errors (spec §8 detail)', () => {
  it('answers a withdrawn series with INVALID_CONTENTS and an unknown one with NOT_EXIST, both 404', async () => {
    const id = Number(demo.tables.series!.find((s) => s.is_adult === 0)!.id)
    expect((await request(app, `/api/v1/contents/${id}`)).status).toBe(200)
    await env.DB.prepare('UPDATE series SET is_published = 0 WHERE id = ?').bind(id).run()
    const withdrawn = await request(app, `/api/v1/contents/${id}`)
    expect(withdrawn.status).toBe(404)
    expect(((await withdrawn.json()) as { code: string }).code).toBe('INVALID_CONTENTS')
    const unknown = await request(app, '/api/v1/contents/999999')
    expect(((await unknown.json()) as { code: string }).code).toBe('NOT_EXIST')
    await env.DB.prepare('UPDATE series SET is_published = 1 WHERE id = ?').bind(id).run()
  })
})
