/**
 * `GET /api/v1/library/recent` (spec §2 /library/recent): the series a reader read lately, newest first, with
 * the episode and position reached — stored server-side, so every device of the reader sees the same list.
 */
import { describe, expect, it } from 'vitest'
import { app, expectError, get, newReader, newSeries, read, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { execInReader } from './reader.helpers.ts'

const progress = (reader: Reader, episodeId: number, position: number) =>
  request(app, `/api/v1/viewer/${episodeId}/progress`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...reader.headers },
    body: JSON.stringify({ position }),
  })

describe('GET /api/v1/library/recent', () => {
  it('lists the series read, newest first, with where the reader stopped and the episode after it', async () => {
    const a = await newSeries({ episodes: 3, free: 3 })
    const b = await newSeries({ episodes: 2, free: 2 })
    const reader = await newReader()
    expect((await read(await get(reader, '/api/v1/library/recent'))).data).toEqual({ items: [], next: null })
    expect((await progress(reader, a.episodeIds[1]!, 0.5)).status).toBe(200)
    expect((await progress(reader, b.episodeIds[1]!, 1)).status).toBe(200)
    await execInReader(reader.id, `UPDATE progress SET updated_at = '2026-01-01T00:00:00.000Z' WHERE series_id = ?`, a.seriesId)
    const res = await get(reader, '/api/v1/library/recent')
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const { data } = await read(res)
    expect(data.items.map((i: any) => [i.seriesId, i.episodeId, i.position, i.nextEpisodeId])).toEqual([
      [b.seriesId, b.episodeIds[1], 1, null],
      [a.seriesId, a.episodeIds[1], 0.5, a.episodeIds[2]],
    ])
    expect(data.items[1]).toMatchObject({ episodeNo: 2, episodeTitle: 'Épisode 2', updatedAt: '2026-01-01T00:00:00.000Z' })
    // the same reader on "another device" (a second token) sees the same list; another reader sees nothing
    expect((await read(await get({ headers: reader.headers }, '/api/v1/library/recent'))).data.items).toHaveLength(2)
    expect((await read(await get(await newReader(), '/api/v1/library/recent'))).data.items).toEqual([])
  })

  it('pages with a cursor and refuses a malformed one; a guest must sign in', async () => {
    const reader = await newReader()
    for (let i = 0; i < 22; i++) {
      const s = await newSeries({ episodes: 1, free: 1 })
      await progress(reader, s.episodeIds[0]!, 0.1)
    }
    const first = (await read(await get(reader, '/api/v1/library/recent'))).data
    expect(first.items).toHaveLength(20)
    expect(first.next).toEqual(expect.any(String))
    const second = (await read(await get(reader, `/api/v1/library/recent?cursor=${first.next}`))).data
    expect(second.items).toHaveLength(2)
    expect(second.next).toBeNull()
    const ids = [...first.items, ...second.items].map((i: any) => i.seriesId)
    expect(new Set(ids).size).toBe(22)
    for (const c of ['%%%', 'abc', 'W10', 'x'.repeat(300)])
      await expectError(await get(reader, `/api/v1/library/recent?cursor=${c}`), 400, 'INVALID_PARAMETER')
    await expectError(await get(null, '/api/v1/library/recent'), 401, 'NOT_LOGIN_USER')
  })
})
