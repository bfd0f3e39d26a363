/**
 * `POST /api/v1/viewer/{episodeId}/progress` as the viewer now calls it (issue 24 §2, docs/API.md "Reading
 * progress"): one D1 read per save — the session check and the episode's access condition — and one call to the reader's
 * object, which keeps the place (issue 38);
 * the viewer's `navigator.sendBeacon` body (text/plain) accepted from the site's own Origin only, and every save the
 * session may not make refused without changing the reader's row.
 */
import { describe, expect, it } from 'vitest'
import { app, db, expectError, newReader, newSeries, read, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { makeUser, ORIGIN, webCookie } from './account.helpers.ts'
import { execInReader, placeOf } from './reader.helpers.ts'
import { accountChanged } from '../../src/features/age/age.server.ts'
import { readerRows } from './reader-rows.ts'

const save = (headers: Record<string, string>, episodeId: number, body: string, contentType = 'application/json') =>
  request(app, `/api/v1/viewer/${episodeId}/progress`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body })
const post = (reader: Pick<Reader, 'headers'>, episodeId: number, position: number) =>
  save(reader.headers, episodeId, JSON.stringify({ position }))

const rowOf = placeOf

async function own(userId: number, seriesId: number, episodeId: number, kind: string, expiresAt: string | null) {
  await readerRows.run(
    userId,
    `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at) VALUES (?, ?, ?, ?, ?)`,
    userId,
    seriesId,
    episodeId,
    kind,
    expiresAt,
  )
}

describe('saving progress', () => {
  it("takes one D1 read and one call to the reader's object per save (which checks the session and, for a paid episode, the reader's rights), for an app (Bearer) and for the web (cookie), the beacon body included", async () => {
    const s = await newSeries({ episodes: 3, free: 1 })
    const [free, paid] = s.episodeIds as [number, number]
    const app = await newReader()
    await own(app.id, s.seriesId, paid, 'POSSESSION', null)
    for (const [episodeId, position, calls] of [
      [free, 0.25, '1'],
      [paid, 0.5, '1'],
    ] as const) {
      const res = await post(app, episodeId, position)
      expect(res.headers.get('x-d1-queries')).toBe('1')
      expect(res.headers.get('x-reader-calls')).toBe(calls)
      expect((await read(res)).data).toMatchObject({ episodeId, position })
    }
    expect(await rowOf(app.id)).toMatchObject({ episodeId: paid, position: 0.5 })

    const user = await makeUser()
    const web = { cookie: await webCookie(user.email), origin: ORIGIN }
    const res = await save(web, free, JSON.stringify({ position: 0.75 }))
    expect(res.headers.get('x-d1-queries')).toBe('1')
    expect(res.status).toBe(200)
    // what navigator.sendBeacon sends: a string body as text/plain, the cookie, the page's Origin
    const beacon = await save(web, free, JSON.stringify({ position: 1 }), 'text/plain;charset=UTF-8')
    expect(beacon.headers.get('x-d1-queries')).toBe('1')
    expect((await read(beacon)).data).toMatchObject({ episodeId: free, position: 1 })
    expect(await rowOf(user.id)).toMatchObject({ episodeId: free, position: 1 })
  })

  it('refuses a beacon from another Origin, and a text/plain body that is not the JSON, changing nothing', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const free = s.episodeIds[0]!
    const user = await makeUser()
    const cookie = await webCookie(user.email)
    expect((await save({ cookie, origin: ORIGIN }, free, JSON.stringify({ position: 0.2 }))).status).toBe(200)
    const before = await rowOf(user.id)
    const body = JSON.stringify({ position: 0.9 })
    await expectError(await save({ cookie, origin: 'https://evil.example' }, free, body, 'text/plain'), 403, 'FORBIDDEN_ORIGIN')
    await expectError(await save({ cookie }, free, body, 'text/plain'), 403, 'FORBIDDEN_ORIGIN')
    for (const bad of ['position=0.9', '{"position":"0.9"}', '', '{"position":2}'])
      await expectError(await save({ cookie, origin: ORIGIN }, free, bad, 'text/plain;charset=UTF-8'), 400, 'INVALID_PARAMETER')
    await expectError(await save({ cookie, origin: ORIGIN }, free, body, 'text/html'), 400, 'INVALID_PARAMETER')
    expect(await rowOf(user.id)).toEqual(before)
  })

  it("refuses what the session may not write — a paid episode not held, an ended rental, another reader's ended session — without a change", async () => {
    const s = await newSeries({ episodes: 4, free: 1 })
    const [free, paid, rented, unpublished] = s.episodeIds as [number, number, number, number]
    await db.run(`UPDATE episodes SET published_at = ? WHERE id = ?`, new Date(Date.now() + 86_400_000).toISOString(), unpublished)
    const reader = await newReader()
    expect((await post(reader, free, 0.3)).status).toBe(200)
    const before = await rowOf(reader.id)
    expect(before).toMatchObject({ episodeId: free, position: 0.3 })

    await expectError(await post(reader, paid, 0.5), 403, 'UNAUTHORIZED_CONTENTS')
    await own(reader.id, s.seriesId, rented, 'RENT', new Date(Date.now() - 60_000).toISOString())
    await expectError(await post(reader, rented, 0.5), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await post(reader, unpublished, 0.5), 404, 'NOT_FOUND_EPISODE')
    await expectError(await post(reader, 99_999_999, 0.5), 404, 'NOT_FOUND_EPISODE')
    expect(await rowOf(reader.id)).toEqual(before)

    // another reader writes their own row only
    const other = await newReader()
    expect((await post(other, free, 0.9)).status).toBe(200)
    expect(await rowOf(reader.id)).toEqual(before)
    expect(await rowOf(other.id)).toMatchObject({ episodeId: free, position: 0.9 })

    // the other reader's sessions ended elsewhere (a password change), then their session logged out: refused
    await db.run(`UPDATE users SET session_version = session_version + 1 WHERE id = ?`, other.id)
    await accountChanged(other.id)
    await expectError(await post(other, free, 0.1), 401, 'NEED_TO_REFRESH')
    await db.run(`UPDATE users SET session_version = session_version - 1 WHERE id = ?`, other.id)
    await accountChanged(other.id)
    expect((await post(other, free, 0.8)).status).toBe(200)
    await execInReader(other.id, `UPDATE sessions SET ended_at = ? WHERE id = ?`, new Date().toISOString(), other.sessionId!) // as a logout ends it
    await expectError(await post(other, free, 0.1), 401, 'NEED_TO_REFRESH')
    expect(await rowOf(other.id)).toMatchObject({ episodeId: free, position: 0.8 })
    expect(await rowOf(reader.id)).toEqual(before)

    // held now: saved
    await own(reader.id, s.seriesId, paid, 'RENT', new Date(Date.now() + 3_600_000).toISOString())
    expect((await post(reader, paid, 0.6)).status).toBe(200)
    expect(await rowOf(reader.id)).toMatchObject({ episodeId: paid, position: 0.6 })
  })

  it("does not re-check the adult rule on a write: a minor's place in an adult series is kept but listed nowhere for them", async () => {
    const s = await newSeries({ episodes: 2, free: 1, adult: true })
    const minor = await newReader({ adult: false })
    await expectError(await request(app, `/api/v1/viewer/${s.episodeIds[0]}`, { headers: minor.headers }), 403, 'ADULT_ONLY_CONTENTS')
    const res = await post(minor, s.episodeIds[0]!, 0.5)
    expect(res.headers.get('x-d1-queries')).toBe('1')
    expect(res.status).toBe(200)
    expect((await read(await request(app, '/api/v1/library/recent', { headers: minor.headers }))).data.items).toEqual([])
    // a paid episode of it, not held: refused with the code the viewer would give
    await expectError(await post(minor, s.episodeIds[1]!, 0.5), 403, 'ADULT_ONLY_CONTENTS')
  })
})
