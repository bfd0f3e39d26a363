/**
 * Uploads into a running series through the operator API (docs/API.md "Operator API": `POST /api/ops/series/{id}/episodes`,
 * `POST /api/ops/episodes/{id}/slices/{n}`, `PUT /api/ops/media/{key}`, `POST /api/ops/episodes/{id}/upload/finish|abort`;
 * `npm run ops -- episode add|replace-slice`) on the real edge app, D1 and R2: episode 12 added to a series of 11 and
 * served, a scheduled one left to the cron, refusals (a taken number, an unknown series, a bad image) that change
 * nothing, the abort's clean-up, a replaced slice served under a new URL, and 40 concurrent adds of one number.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, auditLines, expectBadBodiesRefused, logSpy } from './ops.helpers.ts'
import { app, db, expectError, newSeries, read } from './comment.helpers.ts'
import { request } from './app.ts'
import { EPISODE_UNPUBLISHED_AT } from '../../src/features/catalogue/catalogue-ops.ts'
import { deleteRetiredMedia } from '../../src/features/catalogue/episode-upload.server.ts'

/** How long a replaced slice's objects stay in R2 before `deleteRetiredMedia` removes them: an hour. */
const RETIRED_MEDIA_MS = 60 * 60 * 1000

beforeAll(async () => {
  await seedDemo(env.DB)
})

const WEBP = Uint8Array.from(atob('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='), (c) => c.charCodeAt(0))
const webpFor = (key: string) => new Uint8Array([...WEBP, ...new TextEncoder().encode(key)])

const post = (path: string, body: unknown, headers: Record<string, string> = OPS.headers) =>
  request(app, `/api/ops${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const put = (key: string, bytes: Uint8Array, type = 'image/webp') =>
  request(app, `/api/ops/media/${key}`, { method: 'PUT', headers: { ...OPS.headers, 'content-type': type }, body: new Uint8Array(bytes) })
const uploadAll = async (keys: string[]) => {
  for (const key of keys) expect((await put(key, webpFor(key))).status, key).toBe(200)
}

/** Episode 12's request: free, two slices, out now unless `publishedAt`. */
function addRequest(episode: Record<string, unknown> = {}) {
  return {
    episode: { title: 'Douze', free: true, images: ['1.png', '2.png'], alt: ['haut', 'bas'], ...episode },
    sizes: [
      { width: 800, height: 1000 },
      { width: 800, height: 1200 },
    ],
    reason: 'the weekly upload',
  }
}

type Started = { episodeId: number; seriesId: number; no: number; keys: string[] }
const snapshot = (seriesId: number) =>
  db.first<{ episodes: number; uploads: number; images: number; objects: null }>(
    `SELECT (SELECT count(*) FROM episodes WHERE series_id = ?1) AS episodes,
            (SELECT count(*) FROM episode_uploads u JOIN episodes e ON e.id = u.episode_id WHERE e.series_id = ?1) AS uploads,
            (SELECT count(*) FROM episode_images i JOIN episodes e ON e.id = i.episode_id WHERE e.series_id = ?1) AS images`,
    seriesId,
  )
const objectsOf = async (seriesId: number) => (await env.MEDIA.list({ prefix: `series/${seriesId}/` })).objects.map((o) => o.key)

describe('operator API: a new episode of a running series', () => {
  it('is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token', async () => {
    const calls = [
      (h: Record<string, string>) => post('/series/1/episodes', addRequest(), h),
      (h: Record<string, string>) => post('/episodes/1/slices/1', { size: { width: 1, height: 1 }, reason: 'r' }, h),
      (h: Record<string, string>) => post('/episodes/1/upload/finish', { reason: 'r' }, h),
      (h: Record<string, string>) => post('/episodes/1/upload/abort', { reason: 'r' }, h),
    ]
    for (const call of calls) {
      await expectError((await withEnv({ ...env, OPS_TOKEN: '' }, () => call(OPS.headers))) as Response, 404, 'NOT_EXIST')
      await expectError(await call({ authorization: 'Bearer wrong' }), 401, 'NOT_LOGIN_USER')
    }
    expect(await db.first(`SELECT count(*) AS n FROM episode_uploads`)).toEqual({ n: 0 })
  })

  it('adds episode 12 to a series of 11: unpublished until finished, then listed, served and announced', async () => {
    const { seriesId } = await newSeries({ episodes: 11 })
    logSpy()
    const res = await post(`/series/${seriesId}/episodes`, addRequest())
    expect(res.status).toBe(201)
    const started = (await read(res)).data as Started
    expect(started).toMatchObject({ seriesId, no: 12 })
    expect(started.keys).toEqual(
      [640, 828, 1080]
        .flatMap((w) => [`series/${seriesId}/ep/12/1/${w}.webp`])
        .concat([640, 828, 1080].map((w) => `series/${seriesId}/ep/12/2/${w}.webp`)),
    )
    expect(await snapshot(seriesId)).toEqual({ episodes: 12, uploads: 1, images: 0 })
    const hidden = (await read(await request(app, `/api/v1/contents/${seriesId}`))).data as { episodes: { no: number }[] }
    expect(hidden.episodes.map((e) => e.no)).not.toContain(12)
    const listed = async () =>
      (
        (await read(await request(app, `/api/ops/series/${seriesId}/episodes?limit=1`, { headers: OPS.headers }))).data as {
          items: { no: number; state: string }[]
        }
      ).items[0]
    expect(await listed()).toMatchObject({ no: 12, state: 'UPLOADING' })
    // not published nor dated by hand before its slices are in: its finish dates it
    await expectError(await post(`/episodes/${started.episodeId}/publish`, {}), 400, 'INVALID_PARAMETER')
    await expectError(
      await post(`/episodes/${started.episodeId}/schedule`, { publishedAt: '2027-01-01', reason: 'r' }),
      400,
      'INVALID_PARAMETER',
    )

    await uploadAll(started.keys)
    const finish = await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'ready' })
    expect(finish.status).toBe(200)
    const done = (await read(finish)).data as {
      kind: string
      no: number
      slices: number
      objects: number
      announced: boolean
      publishedAt: string
    }
    expect(done).toMatchObject({ kind: 'EPISODE', no: 12, slices: 2, objects: 6, announced: true })
    expect(await snapshot(seriesId)).toEqual({ episodes: 12, uploads: 0, images: 2 })
    expect(await listed()).toMatchObject({ no: 12, state: 'PUBLISHED' })
    const row = await db.first<{ announcedAt: string | null; publishedAt: string }>(
      `SELECT announced_at AS announcedAt, published_at AS publishedAt FROM episodes WHERE id = ?`,
      started.episodeId,
    )
    expect(row!.announcedAt).not.toBeNull()
    expect(row!.publishedAt < EPISODE_UNPUBLISHED_AT).toBe(true)

    const detail = (await read(await request(app, `/api/v1/contents/${seriesId}`))).data as { episodes: { id: number; no: number }[] }
    expect(detail.episodes.map((e) => e.no)).toContain(12)
    const viewer = (await read(await request(app, `/api/v1/viewer/${started.episodeId}`))).data as {
      slices: { src: string; alt: string }[]
    }
    expect(viewer.slices.map((s) => s.alt)).toEqual(['haut', 'bas'])
    const slice = await request(app, viewer.slices[0]!.src)
    expect(slice.status).toBe(200)
    expect(new Uint8Array(await slice.arrayBuffer())).toEqual(webpFor(viewer.slices[0]!.src.split('?')[0]!.slice('/media/'.length)))
    expect(auditLines().map((l) => [l.ops, l.episodeId, l.reason])).toEqual([
      ['episode.add.start', started.episodeId, 'the weekly upload'],
      ['episode.add.finish', started.episodeId, 'ready'],
    ])
    // closed: no second finish, no abort of a published episode, no upload under its keys
    await expectError(await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await post(`/episodes/${started.episodeId}/upload/abort`, { reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await put(started.keys[0]!, webpFor('again')), 404, 'NOT_EXIST')
  })

  it('leaves an episode dated later to the cron: published at its time, not announced now', async () => {
    const { seriesId } = await newSeries({ episodes: 3 })
    const at = new Date(Date.now() + 86_400_000).toISOString()
    const started = (await read(await post(`/series/${seriesId}/episodes`, addRequest({ no: 4, publishedAt: at })))).data as Started
    await uploadAll(started.keys)
    const done = (await read(await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'friday' }))).data
    expect(done).toMatchObject({ no: 4, publishedAt: at, announced: false })
    const row = await db.first(
      `SELECT announced_at AS announcedAt, published_at AS publishedAt FROM episodes WHERE id = ?`,
      started.episodeId,
    )
    expect(row).toEqual({ announcedAt: null, publishedAt: at })
  })

  it('refuses a taken number, an unknown series and bad images with catalogue codes; nothing changes', async () => {
    const { seriesId } = await newSeries({ episodes: 11 })
    const before = await snapshot(seriesId)
    const cases: [Response | Promise<Response>, number, string][] = [
      [post(`/series/${seriesId}/episodes`, addRequest({ no: 11 })), 400, 'INVALID_PARAMETER'],
      [post(`/series/999999/episodes`, addRequest()), 404, 'NOT_EXIST'],
      [post(`/series/${seriesId}/episodes`, addRequest({ images: ['1.png'] })), 400, 'INVALID_PARAMETER'], // one size too many
      [post(`/series/${seriesId}/episodes`, addRequest({ images: [], alt: [] })), 400, 'INVALID_PARAMETER'],
      [
        post(`/series/${seriesId}/episodes`, {
          ...addRequest(),
          sizes: [
            { width: 0, height: 5 },
            { width: 800, height: 1 },
          ],
        }),
        400,
        'INVALID_PARAMETER',
      ],
      [post(`/series/${seriesId}/episodes`, addRequest({ free: false })), 400, 'INVALID_PARAMETER'], // no price
    ]
    for (const [res, status, code] of cases) await expectError(await res, status, code)
    expect(await snapshot(seriesId)).toEqual(before)

    // an upload that is not WebP, or outside the open upload, is refused; the abort removes the episode and its objects
    const started = (await read(await post(`/series/${seriesId}/episodes`, addRequest()))).data as Started
    await expectError(await put(started.keys[0]!, new TextEncoder().encode('<svg/>')), 400, 'INVALID_PARAMETER')
    await expectError(await put(started.keys[0]!, WEBP, 'image/png'), 400, 'INVALID_PARAMETER')
    await expectError(await put(`series/${seriesId}/ep/12/3/640.webp`, WEBP), 400, 'INVALID_PARAMETER')
    await uploadAll(started.keys.slice(0, 2))
    const early = await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'too soon' })
    await expectError(early, 400, 'INVALID_PARAMETER')
    expect(await objectsOf(seriesId)).toHaveLength(2)
    const abort = await post(`/episodes/${started.episodeId}/upload/abort`, { reason: 'wrong files' })
    expect((await read(abort)).data).toEqual({ episodeId: started.episodeId, kind: 'EPISODE', objects: 6 })
    expect(await snapshot(seriesId)).toEqual(before)
    expect(await objectsOf(seriesId)).toEqual([])
  })

  it('40 concurrent adds of the same number make exactly one episode', async () => {
    const { seriesId } = await newSeries({ episodes: 11 })
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(`/series/${seriesId}/episodes`, addRequest({ no: 12 }))))
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 400)).toHaveLength(39)
    for (const r of answers.filter((a) => a.status === 400)) expect(((await r.json()) as { code: string }).code).toBe('INVALID_PARAMETER')
    expect(await snapshot(seriesId)).toEqual({ episodes: 12, uploads: 1, images: 0 })
  })
})

describe('operator API: a replaced slice', () => {
  it('serves the new image under a new URL; the old objects go; refusals change nothing', async () => {
    const { seriesId } = await newSeries({ episodes: 11 })
    const started = (await read(await post(`/series/${seriesId}/episodes`, addRequest()))).data as Started
    await uploadAll(started.keys)
    await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'ready' })
    const slicesOf = async () =>
      ((await read(await request(app, `/api/v1/viewer/${started.episodeId}`))).data as { slices: { src: string }[] }).slices.map(
        (s) => s.src,
      )
    const [first, second] = await slicesOf()
    expect((await request(app, second!)).status).toBe(200) // in the edge cache now

    await expectError(
      await post(`/episodes/${started.episodeId}/slices/3`, { size: { width: 800, height: 900 }, reason: 'r' }),
      404,
      'NOT_EXIST',
    )
    await expectError(await post(`/episodes/99999999/slices/1`, { size: { width: 800, height: 900 }, reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(
      await post(`/episodes/${started.episodeId}/slices/2`, { size: { width: 0, height: 900 }, reason: 'r' }),
      400,
      'INVALID_PARAMETER',
    )

    logSpy()
    const res = await post(`/episodes/${started.episodeId}/slices/2`, { size: { width: 800, height: 900 }, reason: 'broken panel' })
    expect(res.status).toBe(201)
    const replace = (await read(res)).data as { key: string; previous: string; keys: string[] }
    expect(replace.previous).toBe(`series/${seriesId}/ep/12/2`)
    expect(replace.key).toMatch(new RegExp(`^series/${seriesId}/ep/12/2-[0-9a-z]+$`))
    // one upload at a time on an episode
    await expectError(
      await post(`/episodes/${started.episodeId}/slices/1`, { size: { width: 800, height: 900 }, reason: 'r' }),
      400,
      'INVALID_PARAMETER',
    )
    expect(await slicesOf()).toEqual([first, second]) // unchanged until finished
    await expectError(await put(replace.keys[0]!, new TextEncoder().encode('not an image')), 400, 'INVALID_PARAMETER')
    const fresh = (key: string) => webpFor(`new ${key}`)
    for (const key of replace.keys) expect((await put(key, fresh(key))).status).toBe(200)
    const done = await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'broken panel' })
    expect((await read(done)).data).toMatchObject({ kind: 'SLICE', n: 2, key: replace.key, objects: 3, retired: replace.previous })

    const [first2, second2] = await slicesOf()
    expect(first2).toBe(first)
    expect(second2).not.toBe(second)
    const served = await request(app, second2!)
    expect(served.status).toBe(200)
    expect(served.headers.get('X-Edge-Cache')).toBe('MISS')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(fresh(second2!.split('?')[0]!.slice('/media/'.length)))
    // the old renditions stay an hour (pages cached before still name them), then the cron deletes them
    expect(await env.MEDIA.head(`series/${seriesId}/ep/12/2/640.webp`)).not.toBeNull()
    expect(await deleteRetiredMedia(db, env.MEDIA, new Date(Date.now() + RETIRED_MEDIA_MS - 60_000))).toBe(0)
    expect(await deleteRetiredMedia(db, env.MEDIA, new Date(Date.now() + RETIRED_MEDIA_MS + 1000))).toBeGreaterThanOrEqual(1)
    for (const w of [640, 828, 1080]) expect(await env.MEDIA.head(`series/${seriesId}/ep/12/2/${w}.webp`)).toBeNull()
    expect(await env.MEDIA.head(`${replace.key}/640.webp`)).not.toBeNull()
    expect(await env.MEDIA.head(`series/${seriesId}/ep/12/1/640.webp`)).not.toBeNull()
    expect(await db.first(`SELECT width, height FROM episode_images WHERE episode_id = ? AND position = 2`, started.episodeId)).toEqual({
      width: 800,
      height: 900,
    })
    expect(auditLines().map((l) => [l.ops, l.reason])).toEqual([
      ['episode.slice.replace.start', 'broken panel'],
      ['episode.slice.replace.finish', 'broken panel'],
    ])
  })

  it('an aborted replacement keeps the slice and removes the new objects', async () => {
    const { seriesId } = await newSeries({ episodes: 11 })
    const started = (await read(await post(`/series/${seriesId}/episodes`, addRequest()))).data as Started
    await uploadAll(started.keys)
    await post(`/episodes/${started.episodeId}/upload/finish`, { reason: 'ready' })
    const replace = (await read(await post(`/episodes/${started.episodeId}/slices/1`, { size: { width: 800, height: 900 }, reason: 'r' })))
      .data as { keys: string[] }
    await uploadAll(replace.keys)
    const abort = await post(`/episodes/${started.episodeId}/upload/abort`, { reason: 'wrong file' })
    expect((await read(abort)).data).toEqual({ episodeId: started.episodeId, kind: 'SLICE', objects: 3 })
    expect((await objectsOf(seriesId)).sort()).toEqual([...started.keys].sort())
    expect(await snapshot(seriesId)).toEqual({ episodes: 12, uploads: 0, images: 2 })
  })
})

describe('operator API: uploads into a running series, 1,000 bad bodies per route', () => {
  it('POST /series/{id}/episodes, /episodes/{id}/slices/{n}, …/upload/finish|abort: never 5xx, nothing changed', async () => {
    const { seriesId } = await newSeries({ episodes: 11 })
    const started = (await read(await post(`/series/${seriesId}/episodes`, addRequest()))).data as Started
    const before = await snapshot(seriesId)
    const size = fc.record({ width: fc.oneof(fc.integer(), fc.string()), height: fc.integer() })
    await expectBadBodiesRefused([`/api/ops/series/${seriesId}/episodes`], {
      episode: fc.oneof(fc.constant(addRequest().episode), fc.jsonValue()),
      sizes: fc.oneof(fc.constant(addRequest().sizes), fc.array(size)),
    })
    await expectBadBodiesRefused([`/api/ops/episodes/${started.episodeId}/slices/1`], { size })
    await expectBadBodiesRefused(
      [`/api/ops/episodes/${started.episodeId}/upload/finish`, `/api/ops/episodes/${started.episodeId}/upload/abort`],
      {},
    )
    expect(await snapshot(seriesId)).toEqual(before)
    expect(await objectsOf(seriesId)).toEqual([])
  }, 120_000)
})
