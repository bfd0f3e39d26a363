/**
 * Issue 5 item 2, the reader's part of a series: `GET /api/v1/contents/{id}` (ownership per episode),
 * `GET /api/v1/contents/{id}/me` and the favourite toggle `POST|DELETE /api/v1/library/favorite/{id}`.
 */
import { describe, expect, it } from 'vitest'
import { app, buy, db, expectError, get, give, newReader, newSeries, read } from './purchase.helpers.ts'
import { request } from './app.ts'
import { execInReader, marksIn } from './reader.helpers.ts'
import { readerRows } from './reader-rows.ts'

const me = (reader: Awaited<ReturnType<typeof newReader>> | null, id: number | string) => get(reader, `/api/v1/contents/${id}/me`)
const favorite = (reader: Awaited<ReturnType<typeof newReader>>, id: number | string, method: 'POST' | 'DELETE') =>
  request(app, `/api/v1/library/favorite/${id}`, { method, headers: reader.headers })

async function ownerWithRentAndBuy() {
  const reader = await newReader()
  await give(reader.id, 'COIN', 100)
  const s = await newSeries({ episodes: 4, free: 1, priceRent: 2, priceBuy: 4 })
  expect((await buy(reader, { episodeIds: [s.episodeIds[1]], kind: 'POSSESSION' })).status).toBe(200)
  expect((await buy(reader, { episodeIds: [s.episodeIds[2]], kind: 'RENT' })).status).toBe(200)
  return { reader, ...s }
}

describe('GET /api/v1/contents/{id}', () => {
  it('gives a guest the detail with prices and no ownership, never cached by a shared cache', async () => {
    const s = await newSeries({ episodes: 3, free: 1, priceRent: 2, priceBuy: 5 })
    const res = await get(null, `/api/v1/contents/${s.seriesId}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    const { data } = await read(res)
    expect(data.id).toBe(s.seriesId)
    expect(data.episodes).toEqual([
      {
        id: s.episodeIds[0],
        no: 1,
        title: 'Épisode 1',
        free: true,
        price: { rent: 2, buy: 5 },
        ownership: null,
        publishedAt: '2026-01-01T00:00:00.000Z',
        likes: 0,
      },
      {
        id: s.episodeIds[1],
        no: 2,
        title: 'Épisode 2',
        free: false,
        price: { rent: 2, buy: 5 },
        ownership: null,
        publishedAt: '2026-01-01T00:00:00.000Z',
        likes: 0,
      },
      {
        id: s.episodeIds[2],
        no: 3,
        title: 'Épisode 3',
        free: false,
        price: { rent: 2, buy: 5 },
        ownership: null,
        publishedAt: '2026-01-01T00:00:00.000Z',
        likes: 0,
      },
    ])
  })

  it('fills the owner’s ownership, drops an expired rental, and shows another reader nothing', async () => {
    const { reader, seriesId, episodeIds } = await ownerWithRentAndBuy()
    const mine = (await read(await get(reader, `/api/v1/contents/${seriesId}`))).data.episodes
    expect(mine.map((e: any) => e.ownership?.kind ?? null)).toEqual([null, 'POSSESSION', 'RENT', null])
    expect(mine[1].ownership.expiresAt).toBeNull()
    expect(Date.parse(mine[2].ownership.expiresAt)).toBeGreaterThan(Date.now())

    const other = await newReader()
    const theirs = (await read(await get(other, `/api/v1/contents/${seriesId}`))).data.episodes
    expect(theirs.map((e: any) => e.ownership)).toEqual([null, null, null, null])

    await readerRows.run(
      reader.id,
      `UPDATE ownerships SET expires_at = ? WHERE user_id = ? AND episode_id = ?`,
      new Date(Date.now() - 1000).toISOString(),
      reader.id,
      episodeIds[2],
    )
    const later = (await read(await get(reader, `/api/v1/contents/${seriesId}`))).data.episodes
    expect(later.map((e: any) => e.ownership?.kind ?? null)).toEqual([null, 'POSSESSION', null, null])
  })

  it('answers NOT_EXIST for unknown or malformed ids and ADULT_ONLY_CONTENTS to guests and minors', async () => {
    for (const id of ['999999999', '0', 'abc', '-1', '1e3', '99999999999999999999', '%00'])
      await expectError(await get(null, `/api/v1/contents/${id}`), 404, 'NOT_EXIST')
    const adult = await newSeries({ episodes: 1, adult: true })
    await expectError(await get(null, `/api/v1/contents/${adult.seriesId}`), 403, 'ADULT_ONLY_CONTENTS')
    await expectError(await get(await newReader({ adult: false }), `/api/v1/contents/${adult.seriesId}`), 403, 'ADULT_ONLY_CONTENTS')
    expect((await get(await newReader(), `/api/v1/contents/${adult.seriesId}`)).status).toBe(200)
  })
})

describe('GET /api/v1/contents/{id}/me', () => {
  it('refuses a guest with NOT_LOGIN_USER', async () => {
    const s = await newSeries({ episodes: 1 })
    await expectError(await me(null, s.seriesId), 401, 'NOT_LOGIN_USER')
  })

  it('gives the reader their ownerships, favourite and where to continue; another reader sees nothing of it', async () => {
    const { reader, seriesId, episodeIds } = await ownerWithRentAndBuy()
    // the reader's place, as their object keeps it
    await execInReader(
      reader.id,
      `INSERT INTO progress (series_id, episode_id, episode_no, position, updated_at) VALUES (?, ?, 2, 0.25, ?)`,
      seriesId,
      episodeIds[1]!,
      new Date().toISOString(),
    )
    expect((await favorite(reader, seriesId, 'POST')).status).toBe(200)
    const res = await me(reader, seriesId)
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    // the session check, then one call for their rights, ticket use, place and marks; the series from D1
    expect([res.headers.get('x-reader-calls'), res.headers.get('x-d1-queries')]).toEqual(['2', '1'])
    const { data } = await read(res)
    expect(data.seriesId).toBe(seriesId)
    expect(data.favorite).toBe(true)
    expect(data.continueReading).toEqual({ episodeId: episodeIds[1], no: 2, position: 0.25 })
    expect(data.ownerships.map((o: any) => [o.episodeId, o.kind])).toEqual([
      [episodeIds[1], 'POSSESSION'],
      [episodeIds[2], 'RENT'],
    ])

    const other = (await read(await me(await newReader(), seriesId))).data
    expect(other).toEqual({ seriesId, favorite: false, continueReading: null, ownerships: [], freetime: null })
  })

  it('says whether the reader’s wait-until-free ticket is ready, and when the next one comes after a use (issue 25 §5)', async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 3, free: 1 })
    await db.run(`UPDATE series SET wuf_hours = 24 WHERE id = ?`, s.seriesId)
    expect((await read(await me(reader, s.seriesId))).data.freetime).toEqual({ hours: 24, available: true, availableAt: null })
    const used = await request(app, '/api/v1/purchase/freetime', {
      method: 'POST',
      headers: { ...reader.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ episodeId: s.episodeIds[1] }),
    })
    expect(used.status).toBe(200)
    const { nextTicketAt } = (await read(used)).data
    expect((await read(await me(reader, s.seriesId))).data.freetime).toEqual({ hours: 24, available: false, availableAt: nextTicketAt })
    // another reader's ticket is their own
    expect((await read(await me(await newReader(), s.seriesId))).data.freetime).toEqual({ hours: 24, available: true, availableAt: null })
  })

  it('answers NOT_EXIST for unknown or malformed ids', async () => {
    const reader = await newReader()
    for (const id of ['999999999', '0', 'x', '1.5']) await expectError(await me(reader, id), 404, 'NOT_EXIST')
  })
})

describe('POST|DELETE /api/v1/library/favorite/{id}', () => {
  it('toggles idempotently and only for the signed-in reader', async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 1 })
    for (const method of ['POST', 'POST'] as const)
      expect((await read(await favorite(reader, s.seriesId, method))).data).toEqual({ seriesId: s.seriesId, favorite: true })
    expect((await marksIn(reader.id)).favorite).toEqual([s.seriesId])
    for (const method of ['DELETE', 'DELETE'] as const)
      expect((await read(await favorite(reader, s.seriesId, method))).data).toEqual({ seriesId: s.seriesId, favorite: false })
    expect((await marksIn(reader.id)).favorite).toEqual([])
    await expectError(await request(app, `/api/v1/library/favorite/${s.seriesId}`, { method: 'POST' }), 401, 'NOT_LOGIN_USER')
  })

  it('answers NOT_EXIST for unknown or malformed ids', async () => {
    const reader = await newReader()
    for (const id of ['999999999', '0', 'abc']) {
      await expectError(await favorite(reader, id, 'POST'), 404, 'NOT_EXIST')
      await expectError(await favorite(reader, id, 'DELETE'), 404, 'NOT_EXIST')
    }
  })
})
