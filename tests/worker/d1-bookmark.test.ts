/**
 * D1 read replicas (docs/ARCHITECTURE.md "Read replicas"): every request's statements run in one D1 session; a request
 * that wrote gives its bookmark back (header and a one-minute HttpOnly cookie), the reader's next request starts from it
 * and so reads at least their own writes whichever replica answers; a request that wrote nothing, or a bookmark that is
 * not one, changes nothing. Real workerd + D1 (locally every session is served by the primary).
 */
import { describe, expect, it } from 'vitest'
import { buy, get, give, newReader, newSeries, read, send } from './purchase.helpers.ts'

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/

describe('D1 session bookmarks', () => {
  it('a D1 write gives its bookmark back and a read from it sees the write; a rental (the reader object only) and a read give none', async () => {
    const reader = await newReader()
    await give(reader.id, 'COIN', 10)
    const { episodeIds } = await newSeries({ episodes: 2, priceRent: 2, priceBuy: 4 })
    const before = await get(reader, '/api/v1/coin')
    expect(before.status).toBe(200)
    expect(before.headers.get('x-d1-bookmark')).toBeNull()
    expect(before.headers.get('set-cookie') ?? '').not.toMatch(/wt_d1=/)

    // a rental writes only in the reader's object: no bookmark, and the next read already shows it
    const rented = await buy(reader, { episodeIds: [episodeIds[0]], kind: 'RENT' })
    expect(rented.status).toBe(200)
    expect(rented.headers.get('x-d1-bookmark')).toBeNull()
    expect((await read(await get(reader, '/api/v1/coin'))).data.coin).toBe(8)

    // push settings are written in D1: the answer carries the session's bookmark
    const body = { isAgreePush: true, isAgreePushNight: false, isAgreePushFreetime: true, isAgreePushContents: false }
    const saved = await send(reader, 'PUT', '/api/v1/user/push', JSON.stringify(body))
    expect(saved!.status).toBe(200)
    const bookmark = saved!.headers.get('x-d1-bookmark')!
    expect(bookmark).toMatch(BOOKMARK)
    expect(saved!.headers.get('set-cookie')).toMatch(new RegExp(`wt_d1=${bookmark}; Max-Age=60; Path=/; HttpOnly; SameSite=Lax`))

    // the next request from the bookmark (an app's header or the browser's cookie) reads the write
    const carriers: Record<string, string>[] = [{ 'x-d1-bookmark': bookmark }, { cookie: `wt_d1=${bookmark}` }]
    for (const carried of carriers) {
      const after = await get({ headers: { ...reader.headers, ...carried } }, '/api/v1/user/push')
      expect((await read(after)).data).toMatchObject(body)
    }
    // anything else is ignored: the request runs as without one
    for (const odd of ['', 'first-primary', 'x'.repeat(200), "1' OR 1=1", bookmark.toUpperCase()]) {
      const res = await get({ headers: { ...reader.headers, 'x-d1-bookmark': odd } }, '/api/v1/user/push')
      expect(res.status).toBe(200)
      expect((await read(res)).data).toMatchObject(body)
    }
  })
})
