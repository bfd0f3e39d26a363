/**
 * Episode likes (issue 37 point 3) on real workerd + D1 + Durable Objects + the queue: a reader likes an episode once
 * (`PUT`/`DELETE /api/v1/viewer/{id}/like`, and the plain form), the like is kept in their own object and reaches the
 * episode's count through the series' tally (no D1 write in the request); 40 likes at once by one reader count once;
 * refusals write nothing; generated bad input never gets a 5xx.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled } from './app.ts'
import { call, db, expectError, form, newReader, newSeries, read, type Reader } from './comment.helpers.ts'
import { afterTally, execInReader } from './reader.helpers.ts'

const like = (reader: Reader | null, episodeId: number | string, on = true) =>
  call(reader, on ? 'PUT' : 'DELETE', `/api/v1/viewer/${episodeId}/like`)
const countOf = async (episodeId: number) =>
  (await db.first<{ n: number }>(`SELECT like_count AS n FROM episodes WHERE id = ?`, episodeId))!.n
const likesIn = async (reader: Reader) =>
  (await execInReader(reader.id, `SELECT episode_id AS id FROM likes ORDER BY episode_id`)).map((r) => r.id)
const expectCount = (seriesId: number, episodeId: number, n: number) =>
  afterTally(seriesId, async () => expect(await countOf(episodeId)).toBe(n))

describe('episode likes', () => {
  it('a like and its withdrawal reach the episode count through the tally; the viewer tells the reader', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 2 })
    const id = episodeIds[0]!
    const res = await like(reader, id)
    expect(res.status).toBe(200)
    expect((await read(res)).data).toEqual({ episodeId: id, liked: true, likes: 1 })
    // the request wrote nothing in D1: the count follows through the queue and the tally's flush
    expect(await countOf(id)).toBe(0)
    await expectCount(seriesId, id, 1)
    expect(await likesIn(reader)).toEqual([id])
    const opened = (await read(await call(reader, 'GET', `/api/v1/viewer/${id}`))).data
    expect(opened).toMatchObject({ liked: true, likes: 1 })
    expect((await read(await call(reader, 'GET', `/api/v1/viewer/${episodeIds[1]}`))).data).toMatchObject({ liked: false, likes: 0 })
    // another reader's like adds; the first one's withdrawal takes one away
    expect((await read(await like(await newReader(), id))).data).toEqual({ episodeId: id, liked: true, likes: 2 })
    expect((await read(await like(reader, id, false))).data).toEqual({ episodeId: id, liked: false, likes: 0 })
    await expectCount(seriesId, id, 1)
    expect(await likesIn(reader)).toEqual([])
    // the series page's list shows each episode's count
    const series = (await read(await call(null, 'GET', `/api/v1/contents/${seriesId}`))).data as {
      episodes: { id: number; likes: number }[]
    }
    expect(series.episodes.map((e) => [e.id, e.likes])).toEqual([
      [id, 1],
      [episodeIds[1], 0],
    ])
  })

  it('40 likes at once by one reader count once; 40 withdrawals at once take it back once', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 1 })
    const id = episodeIds[0]!
    const liked = await Promise.all(Array.from({ length: 40 }, () => like(reader, id)))
    expect(liked.map((r) => r.status)).toEqual(Array<number>(40).fill(200))
    const answers = await Promise.all(liked.map(async (r) => (await read(r)).data as { liked: boolean; likes: number }))
    expect(answers.every((a) => a.liked)).toBe(true)
    expect(answers.filter((a) => a.likes === 1)).toHaveLength(1) // the one call that changed it
    expect(await likesIn(reader)).toEqual([id])
    await expectCount(seriesId, id, 1)
    const others = await Promise.all(Array.from({ length: 3 }, () => newReader()))
    for (const other of others) await like(other, id)
    await expectCount(seriesId, id, 4)
    const unliked = await Promise.all(Array.from({ length: 40 }, () => like(reader, id, false)))
    expect(unliked.map((r) => r.status)).toEqual(Array<number>(40).fill(200))
    await expectCount(seriesId, id, 3)
  })

  it('refuses guests, unknown and unpublished episodes, an adult series to a minor: nothing written', async () => {
    const minor = await newReader({ adult: false })
    const { seriesId, episodeIds } = await newSeries({ episodes: 1 })
    const adult = await newSeries({ episodes: 1, adult: true })
    const later = await db.first<{ id: number }>(
      `INSERT INTO episodes (series_id, no, title, is_free, price_rent, price_buy, published_at)
       VALUES (?, 2, 'Bientôt', 1, 2, 4, '2999-01-01T00:00:00.000Z') RETURNING id`,
      seriesId,
    )
    await expectError(await like(null, episodeIds[0]!), 401, 'NOT_LOGIN_USER')
    await expectError(await like(minor, 999_999_999), 404, 'NOT_FOUND_EPISODE')
    await expectError(await like(minor, later!.id), 404, 'NOT_FOUND_EPISODE')
    await expectError(await like(minor, 'abc'), 404, 'NOT_FOUND_EPISODE')
    await expectError(await like(minor, adult.episodeIds[0]!), 403, 'ADULT_ONLY_CONTENTS')
    expect(await likesIn(minor)).toEqual([])
    // an adult reader may like it
    expect((await like(await newReader({ adult: true }), adult.episodeIds[0]!)).status).toBe(200)
  })

  it('the plain form likes and unlikes, back at the episode end; a guest signs in first', async () => {
    const reader = await newReader()
    const { seriesId, episodeIds } = await newSeries({ episodes: 1 })
    const id = episodeIds[0]!
    const res = await form(reader, '/api/v1/viewer/web/like', { episodeId: String(id), liked: '1' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/viewer/${id}#like-${id}`)
    expect(await likesIn(reader)).toEqual([id])
    await expectCount(seriesId, id, 1)
    expect((await form(reader, '/api/v1/viewer/web/like', { episodeId: String(id), liked: '0' })).headers.get('location')).toBe(
      `/viewer/${id}#like-${id}`,
    )
    expect(await likesIn(reader)).toEqual([])
    const guest = await form(null, '/api/v1/viewer/web/like', { episodeId: String(id), liked: '1' })
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?/)
    expect(decodeURIComponent(guest.headers.get('location')!)).toContain(`callback=/viewer/${id}`)
    const minor = await newReader({ adult: false })
    const adult = await newSeries({ episodes: 1, adult: true })
    const refused = await form(minor, '/api/v1/viewer/web/like', { episodeId: String(adult.episodeIds[0]), liked: '1' })
    expect(refused.headers.get('location')).toBe(`/viewer/${adult.episodeIds[0]}?error=ADULT_ONLY_CONTENTS#like-${adult.episodeIds[0]}`)
    expect(await likesIn(minor)).toEqual([])
  })

  it('never answers 5xx to 1,000 generated ids, bodies and forms; writes nothing for them', async () => {
    const reader = await newReader()
    const { episodeIds } = await newSeries({ episodes: 1 })
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 24 }), fc.integer().map(String), fc.constant('0')),
        fc.constantFrom('PUT', 'DELETE', 'POST', 'GET'),
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        async (raw, method, body) => {
          const path = `/api/v1/viewer/${encodeURIComponent(raw) || 'x'}/like`
          // a real episode's id (another one's digits) may come out: its like is allowed, and left out here
          if (parseInt(raw, 10) > 0 && String(parseInt(raw, 10)) === raw.trim()) return
          await expectHandled(await call(reader, method, path, method === 'GET' ? undefined : body))
        },
      ),
      { numRuns: 1000 },
    )
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), fc.string({ maxLength: 5 }), async (episodeId, liked) => {
        if (episodeId === String(episodeIds[0]) && (liked === '0' || liked === '1')) return
        const res = await form(reader, '/api/v1/viewer/web/like', { episodeId, liked })
        expect(res.status).toBe(303)
      }),
      { numRuns: 200 },
    )
    expect(await likesIn(reader)).toEqual([])
  }, 180_000)
})
