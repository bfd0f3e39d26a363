/**
 * GET /api/v1/library/my and /library/favorite (spec §2 library shelves, §6 login required): owned and rented
 * episodes grouped by series with the rental's end, favourites newest first, both cursor-paginated; another
 * reader's rows never show; the favourite toggle of the existing library routes still answers next to them.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, get, newReader, newSeries, read } from './purchase.helpers.ts'
import { request } from './app.ts'
import { readerRows } from './reader-rows.ts'

const HOUR = 3_600_000
async function own(userId: number, episodeId: number, kind: string, expiresInHours: number | null, createdAt: string) {
  const expiresAt = expiresInHours === null ? null : new Date(Date.now() + expiresInHours * HOUR).toISOString()
  const episode = await db.first<{ series_id: number; id: number }>(`SELECT series_id, id FROM episodes WHERE id = ?`, episodeId)
  if (!episode) return // the INSERT … SELECT it stands for inserted nothing for an unknown episode
  await readerRows.run(
    userId,
    `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
    userId,
    episode.series_id,
    episode.id,
    kind,
    expiresAt,
    createdAt,
  )
}

describe('library shelves', () => {
  it('/library/my: live episodes by series, latest acquisition first, rentals with their end, expired ones gone', async () => {
    const reader = await newReader()
    const other = await newReader()
    const a = await newSeries({ episodes: 4 })
    const b = await newSeries({ episodes: 3 })
    const c = await newSeries({ episodes: 2 })
    await own(reader.id, a.episodeIds[1]!, 'POSSESSION', null, '2026-11-01T00:00:00.000Z')
    await own(reader.id, a.episodeIds[0]!, 'RENT', 48, '2026-11-03T00:00:00.000Z')
    await own(reader.id, a.episodeIds[1]!, 'RENT', 24, '2026-11-02T00:00:00.000Z') // owned for good too: shows POSSESSION
    await own(reader.id, b.episodeIds[2]!, 'POSSESSION', null, '2026-11-05T00:00:00.000Z')
    await own(reader.id, c.episodeIds[0]!, 'RENT', -1, '2026-11-06T00:00:00.000Z') // expired: the series is not on the shelf
    await own(other.id, c.episodeIds[1]!, 'POSSESSION', null, '2026-11-07T00:00:00.000Z')

    const res = await get(reader, '/api/v1/library/my')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const { items, next } = (await read(res)).data
    expect(next).toBeNull()
    expect(items.map((s: { seriesId: number }) => s.seriesId)).toEqual([b.seriesId, a.seriesId])
    const shelfA = items[1]
    expect(shelfA.episodes.map((e: { no: number; kind: string }) => [e.no, e.kind])).toEqual([
      [1, 'RENT'],
      [2, 'POSSESSION'],
    ])
    expect(Date.parse(shelfA.episodes[0].expiresAt) - Date.now()).toBeGreaterThan(47 * HOUR)
    expect(shelfA.nextExpiry).toBe(shelfA.episodes[0].expiresAt)
    expect(items[0]).toMatchObject({ nextExpiry: null, episodes: [{ no: 3, kind: 'POSSESSION', expiresAt: null }] })

    expect((await read(await get(other, '/api/v1/library/my'))).data.items.map((s: { seriesId: number }) => s.seriesId)).toEqual([
      c.seriesId,
    ])
  })

  it('/library/my pages by cursor: every series once, in order', async () => {
    const reader = await newReader()
    const ids: number[] = []
    for (let i = 0; i < 23; i++) {
      const s = await newSeries({ episodes: 1 })
      ids.push(s.seriesId)
      await own(reader.id, s.episodeIds[0]!, 'POSSESSION', null, `2026-10-${String(1 + (i % 5)).padStart(2, '0')}T00:00:00.000Z`) // ties on the date
    }
    const seen: number[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: { items: { seriesId: number }[]; next: string | null } = (
        await read(await get(reader, `/api/v1/library/my${cursor ? `?cursor=${cursor}` : ''}`))
      ).data
      seen.push(...page.items.map((s) => s.seriesId))
      cursor = page.next
      pages++
    } while (cursor)
    expect(pages).toBe(2)
    expect(seen.slice().sort((x, y) => x - y)).toEqual(ids.slice().sort((x, y) => x - y))
    expect(new Set(seen).size).toBe(23)
  })

  it('/library/favorite: newest first, paginated, toggles of the existing route show up', async () => {
    const reader = await newReader()
    const series = [] as number[]
    for (let i = 0; i < 22; i++) series.push((await newSeries({ episodes: 1 })).seriesId)
    for (const [i, id] of series.entries()) {
      await db.run(
        `INSERT INTO favorites (user_id, series_id, created_at) VALUES (?, ?, ?)`,
        reader.id,
        id,
        `2026-09-${String(1 + i).padStart(2, '0')}T00:00:00.000Z`,
      )
    }
    const first = (await read(await get(reader, '/api/v1/library/favorite'))).data
    expect(first.items).toHaveLength(20)
    expect(first.items[0]).toMatchObject({ seriesId: series[21], favoritedAt: '2026-09-22T00:00:00.000Z' })
    const second = (await read(await get(reader, `/api/v1/library/favorite?cursor=${first.next}`))).data
    expect(second.items.map((s: { seriesId: number }) => s.seriesId)).toEqual([series[1], series[0]])
    expect(second.next).toBeNull()

    // the existing toggle under the same /library mount still works
    const extra = (await newSeries({ episodes: 1 })).seriesId
    const toggled = await request(app, `/api/v1/library/favorite/${extra}`, { method: 'POST', headers: reader.headers })
    expect(toggled.status).toBeLessThan(300)
    expect((await read(await get(reader, '/api/v1/library/favorite'))).data.items[0].seriesId).toBe(extra)
    expect((await get(reader, '/api/v1/library/recent')).status).toBe(200)
    expect((await read(await get(await newReader(), '/api/v1/library/favorite'))).data).toEqual({ items: [], next: null })
  })

  it('guests get NOT_LOGIN_USER; a malformed cursor is INVALID_PARAMETER', async () => {
    await expectError(await get(null, '/api/v1/library/my'), 401, 'NOT_LOGIN_USER')
    await expectError(await get(null, '/api/v1/library/favorite'), 401, 'NOT_LOGIN_USER')
    const reader = await newReader()
    for (const q of ['cursor=', 'cursor=%%%', 'cursor=WzEsMl0', 'x=1']) {
      await expectError(await get(reader, `/api/v1/library/my?${q}`), 400, 'INVALID_PARAMETER')
      await expectError(await get(reader, `/api/v1/library/favorite?${q}`), 400, 'INVALID_PARAMETER')
    }
  })
})
