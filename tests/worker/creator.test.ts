/**
 * Creator pages (issue 37 point 2) on real workerd + D1: `GET /api/v1/contents/creators/{id}` gives a creator's series by
 * role, only those the caller's audience may see (no adult series for a guest), and the series detail names each
 * creator by id (the link to their page); the page's JSON-LD is a `Person` whose works are the series it lists. A reader
 * follows a creator (kept in their object, projected into D1's `creator_followers` through the queue), 40 follows at
 * once follow once, and a new episode of one of the creator's series reaches their followers who did not hide it.
 */
import { describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import { call, db, expectError, form, frEdition, newReader, newSeries, read, type Reader } from './comment.helpers.ts'
import { expectHandled } from './app.ts'
import { alarmsIn, execInReader } from './reader.helpers.ts'
import { localQueue } from './alarm-queue.helpers.ts'
import { runFanout } from '../../src/features/alarm/alarm.server.ts'
import { jsonLdText, personLd } from '../../src/features/catalogue/seo.ts'
import type { CreatorWorks } from '../../src/features/catalogue/catalogue.server.ts'

async function newCreator(name: string, works: { seriesId: number; role: string }[]): Promise<number> {
  const c = await db.first<{ id: number }>(`INSERT INTO creators (name) VALUES (?) RETURNING id`, name)
  for (const w of works)
    await db.run(`INSERT INTO series_creators (series_id, creator_id, role) VALUES (?, ?, ?)`, w.seriesId, c!.id, w.role)
  return c!.id
}

describe('creator pages', () => {
  it("lists a creator's series by role, in the roles' order, for the caller's audience", async () => {
    const drawn = await newSeries({ episodes: 1 })
    const written = await newSeries({ episodes: 1 })
    const adult = await newSeries({ episodes: 1, adult: true })
    const hidden = await newSeries({ episodes: 1 })
    await db.run(`UPDATE series SET is_published = 0 WHERE id = ?`, hidden.seriesId)
    const id = await newCreator('Mina Park', [
      { seriesId: drawn.seriesId, role: 'ARTIST' },
      { seriesId: written.seriesId, role: 'WRITER' },
      { seriesId: drawn.seriesId, role: 'WRITER' },
      { seriesId: adult.seriesId, role: 'ARTIST' },
      { seriesId: hidden.seriesId, role: 'ARTIST' },
    ])
    const ids = (c: CreatorWorks) => c.works.map((w) => [w.role, w.series.map((s) => s.id).sort((a, b) => a - b)])
    const guest = (await read(await call(null, 'GET', `/api/v1/contents/creators/${id}`))).data as CreatorWorks
    expect(guest).toMatchObject({ id, name: 'Mina Park' })
    expect(ids(guest)).toEqual([
      ['WRITER', [drawn.seriesId, written.seriesId]],
      ['ARTIST', [drawn.seriesId]],
    ])
    // the series page names its creators by id, for the link to their page
    const detail = (await read(await call(null, 'GET', `/api/v1/contents/${drawn.seriesId}`))).data as { creators: unknown[] }
    expect(detail.creators).toEqual(
      expect.arrayContaining([
        { id, name: 'Mina Park', role: 'WRITER' },
        { id, name: 'Mina Park', role: 'ARTIST' },
      ]),
    )
    // JSON-LD: a Person, each series once, never an adult one (here added to the list by hand)
    const withAdult = {
      ...guest,
      works: [
        ...guest.works,
        { role: 'ORIGINAL' as const, series: [{ ...guest.works[0]!.series[0]!, id: adult.seriesId, isAdult: true }] },
      ],
    }
    const ld = JSON.parse(jsonLdText(personLd(withAdult, frEdition.siteUrl))) as {
      '@type': string
      url: string
      workExample: { '@id': string }[]
    }
    expect(ld['@type']).toBe('Person')
    expect(ld.url).toBe(`${frEdition.siteUrl}/creator/${id}`)
    expect(ld.workExample.map((w) => w['@id']).sort()).toEqual(
      [drawn.seriesId, written.seriesId].map((s) => `${frEdition.siteUrl}/detail/${s}`).sort(),
    )
  })

  it('a creator without a series the audience may see has an empty page; an unknown one is NOT_EXIST', async () => {
    const adult = await newSeries({ episodes: 1, adult: true })
    const id = await newCreator('Only Adult', [{ seriesId: adult.seriesId, role: 'AUTHOR' }])
    expect((await read(await call(null, 'GET', `/api/v1/contents/creators/${id}`))).data).toEqual({ id, name: 'Only Adult', works: [] })
    await expectError(await call(null, 'GET', '/api/v1/contents/creators/999999999'), 404, 'NOT_EXIST')
    await expectError(await call(null, 'GET', '/api/v1/contents/creators/abc'), 404, 'NOT_EXIST')
    await expectError(await call(null, 'GET', '/api/v1/contents/creators/0'), 404, 'NOT_EXIST')
  })
})

const follow = (reader: Reader | null, creatorId: number | string, on = true) =>
  call(reader, on ? 'PUT' : 'DELETE', `/api/v1/contents/creators/${creatorId}/follow`)
const followersOf = async (creatorId: number) =>
  (await db.all<{ id: number }>(`SELECT user_id AS id FROM creator_followers WHERE creator_id = ? ORDER BY user_id`, creatorId)).map(
    (r) => r.id,
  )
const followsIn = async (reader: Reader) => (await execInReader(reader.id, `SELECT creator_id AS id FROM follows`)).map((r) => r.id)
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 })

describe('following a creator', () => {
  it("follows and stops: the reader's object keeps it, D1's followers follow through the queue", async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 1 })
    const id = await newCreator('Lee Follow', [{ seriesId: s.seriesId, role: 'AUTHOR' }])
    expect((await read(await call(reader, 'GET', `/api/v1/contents/creators/${id}/me`))).data).toEqual({ creatorId: id, following: false })
    expect((await read(await follow(reader, id))).data).toEqual({ creatorId: id, following: true })
    expect((await read(await call(reader, 'GET', `/api/v1/contents/creators/${id}/me`))).data).toEqual({ creatorId: id, following: true })
    expect(await followsIn(reader)).toEqual([id])
    await eventually(async () => expect(await followersOf(id)).toEqual([reader.id]))
    expect((await read(await follow(reader, id, false))).data).toEqual({ creatorId: id, following: false })
    expect(await followsIn(reader)).toEqual([])
    await eventually(async () => expect(await followersOf(id)).toEqual([]))
  })

  it('40 follows at once by one reader follow once', async () => {
    const reader = await newReader()
    const id = await newCreator('Forty', [])
    const answers = await Promise.all(Array.from({ length: 40 }, () => follow(reader, id)))
    expect(answers.map((r) => r.status)).toEqual(Array<number>(40).fill(200))
    expect(await followsIn(reader)).toEqual([id])
    await eventually(async () => expect(await followersOf(id)).toEqual([reader.id]))
  })

  it("a new episode of a creator's series reaches their followers who did not hide it, once, beside the favourites", async () => {
    const follower = await newReader()
    const fan = await newReader()
    const hider = await newReader()
    const s = await newSeries({ episodes: 1 })
    const id = await newCreator('Fan Out', [
      { seriesId: s.seriesId, role: 'WRITER' },
      { seriesId: s.seriesId, role: 'ARTIST' },
    ])
    for (const r of [follower, hider]) await follow(r, id)
    expect((await call(fan, 'POST', `/api/v1/library/favorite/${s.seriesId}`)).status).toBe(200)
    expect((await call(hider, 'POST', '/api/v1/library/hidden', { seriesId: s.seriesId, hidden: true })).status).toBe(200)
    await eventually(async () => expect(await followersOf(id)).toEqual([follower.id, hider.id].sort((a, b) => a - b)))
    // the favourite and the hidden mark reach D1 through the queue too
    await eventually(async () =>
      expect(
        await db.all(`SELECT user_id, favorite, hidden FROM library_marks WHERE series_id = ? ORDER BY user_id`, s.seriesId),
      ).toHaveLength(2),
    )
    const episodeId = s.episodeIds[0]!
    const q = localQueue(new Date())
    await runFanout(db, q.queue, { kind: 'episode', episodeId, after: 0 })
    await runFanout(db, q.queue, { kind: 'episode', episodeId, after: 0 }) // delivered again: one alarm each
    await q.drain()
    const episodeAlarms = async (r: Reader) => (await alarmsIn(r.id)).filter((a) => a.dedupKey === `EPISODE:${episodeId}`).length
    expect(await episodeAlarms(follower)).toBe(1)
    expect(await episodeAlarms(hider)).toBe(0)
    expect(await episodeAlarms(fan)).toBe(1)
  })

  it('refuses guests and unknown creators, and never answers 5xx to generated ids and forms', async () => {
    const reader = await newReader()
    await expectError(await follow(null, 1), 401, 'NOT_LOGIN_USER')
    await expectError(await follow(reader, 999_999_999), 404, 'NOT_EXIST')
    await expectError(await follow(reader, 'x'), 404, 'NOT_EXIST')
    expect(await followsIn(reader)).toEqual([])
    const id = await newCreator('Formed', [])
    const done = await form(reader, '/api/v1/contents/web/follow', { creatorId: String(id), follow: '1' })
    expect(done.headers.get('location')).toBe(`/creator/${id}?following=1#follow`)
    expect(await followsIn(reader)).toEqual([id])
    const guest = await form(null, '/api/v1/contents/web/follow', { creatorId: String(id), follow: '1' })
    expect(decodeURIComponent(guest.headers.get('location')!)).toContain(`callback=/creator/${id}`)
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 20 }),
        fc.constantFrom('PUT', 'DELETE', 'GET'),
        fc.string({ maxLength: 8 }),
        async (raw, method, f) => {
          if (/^\s*[1-9]\d*\s*$/.test(raw)) return // an id: maybe a real creator
          await expectHandled(
            await call(reader, method, `/api/v1/contents/creators/${encodeURIComponent(raw) || 'x'}/${method === 'GET' ? 'me' : 'follow'}`),
          )
          const res = await form(reader, '/api/v1/contents/web/follow', { creatorId: raw, follow: f })
          expect(res.status).toBe(303)
        },
      ),
      { numRuns: 1000 },
    )
    expect(await followsIn(reader)).toEqual([id])
  }, 120_000)
})
