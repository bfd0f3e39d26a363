/**
 * Series import through the operator API (docs/API.md "Operator API": `POST /api/ops/series/import`,
 * `PUT /api/ops/media/{key}`, `POST /api/ops/series/{id}/import/finish|abort`; `npm run ops -- import`) on the real
 * edge app, D1 and R2: a small generated series end to end (listed in /api/v1 with its episodes, its slices served
 * from /media), uploads refused outside the import, a finish with an object missing refused with nothing published,
 * the abort's clean-up, 1,000 bad bodies per changing route and 40 concurrent finishes publishing once.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, auditLines, expectBadBodiesRefused, logSpy } from './ops.helpers.ts'
import { app, db, expectError, read } from './comment.helpers.ts'
import { request } from './app.ts'
import { IMPORT_ABANDONED_MS, importKeys, SeriesManifest } from '../../src/features/catalogue/series-import.ts'
import { abortAbandonedImports } from '../../src/features/catalogue/series-import.server.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

/** A valid 1×1 WebP (lossless), and a variant per key so each object's bytes are its own. */
const WEBP = Uint8Array.from(atob('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='), (c) => c.charCodeAt(0))
const webpFor = (key: string) => new Uint8Array([...WEBP, ...new TextEncoder().encode(key)])

let n = 0
/** A small series: episode 1 free with two slices, episode 2 paid with one. */
function importRequest(title = `Import test ${++n}`) {
  const manifest = SeriesManifest.parse({
    title,
    genre: 'DRAMA',
    status: 'SCHEDULED',
    creators: [{ name: 'Ana Import', role: 'AUTHOR' }],
    tags: ['phare'],
    schedule: ['FRIDAY'],
    cover: 'cover.png',
    episodes: [
      { no: 1, title: 'Un', free: true, images: ['1-1.png', '1-2.png'], alt: ['premier', 'second'] },
      { no: 2, title: 'Deux', priceRent: 2, priceBuy: 4, images: ['2-1.png'], publishedAt: '2026-01-02T00:00:00Z' },
    ],
  })
  return {
    manifest,
    sizes: {
      cover: { width: 480, height: 640 },
      slices: [
        [
          { width: 800, height: 1000 },
          { width: 800, height: 1300 },
        ],
        [{ width: 800, height: 900 }],
      ],
    },
    reason: 'new series from the publisher',
  }
}

const post = (path: string, body: unknown, headers: Record<string, string> = OPS.headers) =>
  request(app, `/api/ops${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
const put = (key: string, bytes: Uint8Array, type = 'image/webp', headers: Record<string, string> = OPS.headers) =>
  request(app, `/api/ops/media/${key}`, { method: 'PUT', headers: { ...headers, 'content-type': type }, body: new Uint8Array(bytes) })

async function start(body = importRequest()): Promise<{ seriesId: number; keys: string[] }> {
  const res = await post('/series/import', body)
  expect(res.status).toBe(201)
  return (await read(res)).data as { seriesId: number; keys: string[] }
}
const uploadAll = async (keys: string[]) => {
  for (const key of keys) expect((await put(key, webpFor(key))).status, key).toBe(200)
}
const objectsOf = async (seriesId: number) =>
  [
    ...(await env.MEDIA.list({ prefix: `covers/${seriesId}/` })).objects,
    ...(await env.MEDIA.list({ prefix: `series/${seriesId}/` })).objects,
  ].map((o) => o.key)
const rowsOf = (seriesId: number) =>
  db.first<{ series: number; published: number | null; episodes: number; imports: number; fts: number }>(
    `SELECT (SELECT count(*) FROM series WHERE id = ?1) AS series, (SELECT is_published FROM series WHERE id = ?1) AS published,
            (SELECT count(*) FROM episodes WHERE series_id = ?1) AS episodes, (SELECT count(*) FROM series_imports WHERE series_id = ?1) AS imports,
            (SELECT count(*) FROM series_fts WHERE rowid = ?1) AS fts`,
    seriesId,
  )

describe('operator API: series import', () => {
  it('is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, on every route', async () => {
    const wrong = { authorization: 'Bearer wrong' }
    const calls = [
      (h: Record<string, string>) => post('/series/import', importRequest(), h),
      (h: Record<string, string>) => put('covers/1/256.webp', WEBP, 'image/webp', h),
      (h: Record<string, string>) => post('/series/1/import/finish', { reason: 'r' }, h),
      (h: Record<string, string>) => post('/series/1/import/abort', { reason: 'r' }, h),
    ]
    const before = await db.first('SELECT count(*) AS n FROM series')
    for (const call of calls) {
      const off = (await withEnv({ ...env, OPS_TOKEN: '' }, () => call(OPS.headers))) as Response
      await expectError(off, 404, 'NOT_EXIST')
      await expectError(await call(wrong), 401, 'NOT_LOGIN_USER')
    }
    expect(await db.first('SELECT count(*) AS n FROM series')).toEqual(before)
  })

  it('imports end to end: unpublished until finished, then listed with its episodes, its slices served from /media', async () => {
    logSpy()
    const body = importRequest('Le Phare des Essais')
    const { seriesId, keys } = await start(body)
    expect(keys).toEqual(importKeys(seriesId, body.manifest))
    expect(keys).toContain(`covers/${seriesId}/1200.webp`)
    expect(keys).toContain(`series/${seriesId}/ep/2/1/1080.webp`)
    expect(keys).toHaveLength(4 + 3 * 3)
    expect(await rowsOf(seriesId)).toEqual({ series: 1, published: 0, episodes: 0, imports: 1, fts: 0 })
    await expectError(await request(app, `/api/v1/contents/${seriesId}`), 404, 'INVALID_CONTENTS')

    await uploadAll(keys)
    const finish = await post(`/series/${seriesId}/import/finish`, { reason: 'ready' })
    expect(finish.status).toBe(200)
    expect((await read(finish)).data).toEqual({ seriesId, episodes: 2, slices: 3, objects: 13 })
    expect(await rowsOf(seriesId)).toEqual({ series: 1, published: 1, episodes: 2, imports: 0, fts: 1 })

    const detail = (await read(await request(app, `/api/v1/contents/${seriesId}`))).data as {
      title: string
      episodes: { id: number; no: number }[]
      schedule: string[]
    }
    expect(detail.title).toBe('Le Phare des Essais')
    expect(detail.episodes.map((e) => e.no).sort()).toEqual([1, 2])
    expect(detail.schedule).toContain('FRIDAY')
    const free = detail.episodes.find((e) => e.no === 1)!
    const viewer = (await read(await request(app, `/api/v1/viewer/${free.id}`))).data as { slices: { src: string; alt: string }[] }
    expect(viewer.slices.map((s) => s.alt)).toEqual(['premier', 'second'])
    const slice = await request(app, viewer.slices[0]!.src)
    expect(slice.status, viewer.slices[0]!.src).toBe(200)
    expect(new Uint8Array(await slice.arrayBuffer())).toEqual(webpFor(viewer.slices[0]!.src.split('?')[0]!.slice('/media/'.length)))
    const cover = await request(app, `/media/covers/${seriesId}/256.webp`)
    expect(cover.status).toBe(200)
    expect(cover.headers.get('content-type')).toBe('image/webp')
    expect(auditLines().map((l) => [l.ops, l.seriesId, l.reason])).toEqual([
      ['series.import.start', seriesId, 'new series from the publisher'],
      ['series.import.finish', seriesId, 'ready'],
    ])
    // closed: no more uploads, no second finish, no abort of a published series
    await expectError(await put(keys[0]!, webpFor('again')), 404, 'NOT_EXIST')
    await expectError(await post(`/series/${seriesId}/import/finish`, { reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await post(`/series/${seriesId}/import/abort`, { reason: 'r' }), 404, 'NOT_EXIST')
    expect(await rowsOf(seriesId)).toEqual({ series: 1, published: 1, episodes: 2, imports: 0, fts: 1 })
  })

  it('refuses an upload outside the open import, of another type, not WebP or too large; nothing stored', async () => {
    const { seriesId, keys } = await start()
    const cases: [Response | Promise<Response>, number, string][] = [
      [put('covers/1/256.webp', WEBP), 404, 'NOT_EXIST'], // a published seed series
      [put(`covers/${seriesId + 1000}/256.webp`, WEBP), 404, 'NOT_EXIST'],
      [put(`series/${seriesId}/ep/9/1/640.webp`, WEBP), 400, 'INVALID_PARAMETER'], // no episode 9
      [put(`covers/${seriesId}/100.webp`, WEBP), 400, 'INVALID_PARAMETER'], // no such width
      [put(`covers/${seriesId}/../1/256.webp`, WEBP), 404, 'NOT_EXIST'],
      [put(`banners/${seriesId}/640.webp`, WEBP), 404, 'NOT_EXIST'],
      [put(keys[0]!, WEBP, 'image/png'), 400, 'INVALID_PARAMETER'],
      [put(keys[0]!, new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), 400, 'INVALID_PARAMETER'],
      [put(keys[0]!, new Uint8Array(8 * 1024 * 1024 + 1)), 413, 'PAYLOAD_TOO_LARGE'],
    ]
    for (const [res, status, code] of cases) await expectError(await res, status, code)
    expect(await objectsOf(seriesId)).toEqual([])
    expect(await env.MEDIA.head('covers/1/256.webp').then((o) => o?.size ?? 0)).not.toBe(WEBP.length)
    await post(`/series/${seriesId}/import/abort`, { reason: 'clean up' })
  })

  it('refuses a finish with an object missing, publishing nothing; the abort removes the series, its search row and objects', async () => {
    const { seriesId, keys } = await start()
    await uploadAll(keys.slice(0, -1))
    const res = await post(`/series/${seriesId}/import/finish`, { reason: 'too soon' })
    await expectError(res.clone(), 400, 'INVALID_PARAMETER')
    expect(((await res.json()) as { message: string }).message).toContain(`1 of 13 objects are not uploaded: ${keys.at(-1)}`)
    expect(await rowsOf(seriesId)).toEqual({ series: 1, published: 0, episodes: 0, imports: 1, fts: 0 })

    // the last object arrives, but the operator gives up: the abort removes everything
    await uploadAll(keys.slice(-1))
    expect(await objectsOf(seriesId)).toHaveLength(13)
    logSpy()
    const abort = await post(`/series/${seriesId}/import/abort`, { reason: 'wrong files' })
    expect(abort.status).toBe(200)
    expect((await read(abort)).data).toEqual({ seriesId, objects: 13 })
    expect(await rowsOf(seriesId)).toEqual({ series: 0, published: null, episodes: 0, imports: 0, fts: 0 })
    expect(await objectsOf(seriesId)).toEqual([])
    expect(auditLines().map((l) => [l.ops, l.seriesId, l.reason])).toEqual([['series.import.abort', seriesId, 'wrong files']])
    await expectError(await post(`/series/${seriesId}/import/abort`, { reason: 'again' }), 404, 'NOT_EXIST')
    await expectError(await post(`/series/${seriesId}/import/finish`, { reason: 'r' }), 404, 'NOT_EXIST')
  })

  it('a finish that stopped part-way is named as such on the next finish, and only the abort clears it', async () => {
    const { seriesId, keys } = await start()
    await uploadAll(keys)
    // what a finish that failed after its claim leaves: the claim, some rows, the series unpublished
    await db.run(`UPDATE series_imports SET finishing_at = '2026-11-27T11:00:00.000Z' WHERE series_id = ?`, seriesId)
    const res = await post(`/series/${seriesId}/import/finish`, { reason: 'again' })
    await expectError(res.clone(), 404, 'NOT_EXIST')
    expect(((await res.json()) as { message: string }).message).toBe(
      `the import of series ${seriesId} is being finished since 2026-11-27T11:00:00.000Z; if that call failed, abort it and import again`,
    )
    expect(await rowsOf(seriesId)).toEqual({ series: 1, published: 0, episodes: 0, imports: 1, fts: 0 })
    expect((await post(`/series/${seriesId}/import/abort`, { reason: 'stuck' })).status).toBe(200)
    expect(await rowsOf(seriesId)).toEqual({ series: 0, published: null, episodes: 0, imports: 0, fts: 0 })
  })

  it('the cron aborts an import open for a day (the command line was killed half-way); a younger one stays', async () => {
    const old = await start()
    await uploadAll(old.keys.slice(0, 3))
    const young = await start()
    await uploadAll(young.keys.slice(0, 3))
    const now = new Date()
    await db.run(
      `UPDATE series_imports SET created_at = ? WHERE series_id = ?`,
      new Date(now.getTime() - IMPORT_ABANDONED_MS).toISOString(),
      old.seriesId,
    )
    await db.run(
      `UPDATE series_imports SET created_at = ? WHERE series_id = ?`,
      new Date(now.getTime() - IMPORT_ABANDONED_MS + 60_000).toISOString(),
      young.seriesId,
    )
    expect(await abortAbandonedImports(db, env.MEDIA, now)).toBe(1)
    expect(await rowsOf(old.seriesId)).toEqual({ series: 0, published: null, episodes: 0, imports: 0, fts: 0 })
    expect(await objectsOf(old.seriesId)).toEqual([])
    expect(await rowsOf(young.seriesId)).toEqual({ series: 1, published: 0, episodes: 0, imports: 1, fts: 0 })
    expect(await objectsOf(young.seriesId)).toHaveLength(3)
    await post(`/series/${young.seriesId}/import/abort`, { reason: 'clean up' })
  })

  it('publishes once under 40 concurrent finish calls (one conditional claim)', async () => {
    logSpy()
    const { seriesId, keys } = await start()
    await uploadAll(keys)
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(`/series/${seriesId}/import/finish`, { reason: 'go' })))
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array<number>(39).fill(404)])
    expect(await rowsOf(seriesId)).toEqual({ series: 1, published: 1, episodes: 2, imports: 0, fts: 1 })
    const slices = await db.first<{ n: number }>(
      'SELECT count(*) AS n FROM episode_images WHERE episode_id IN (SELECT id FROM episodes WHERE series_id = ?)',
      seriesId,
    )
    expect(slices!.n).toBe(3)
    expect(await db.first<{ n: number }>('SELECT count(*) AS n FROM series_creators WHERE series_id = ?', seriesId)).toEqual({ n: 1 })
    expect(auditLines().filter((l) => l.ops === 'series.import.finish')).toHaveLength(1)
  })
})

describe('operator API: series import, 1,000 bad bodies per route', () => {
  const state = () =>
    db.first(`SELECT (SELECT count(*) FROM series) AS series, (SELECT count(*) FROM series_imports) AS imports,
      (SELECT group_concat(series_id || coalesce(finishing_at, '-')) FROM series_imports) AS claims,
      (SELECT count(*) FROM episodes) AS episodes`)

  it('POST /series/import: never 5xx, nothing stored', async () => {
    const before = await state()
    const good = importRequest()
    await expectBadBodiesRefused(['/api/ops/series/import'], {
      manifest: fc.oneof(fc.constant(good.manifest), fc.jsonValue()),
      sizes: fc.oneof(fc.constant(good.sizes), fc.jsonValue()),
    })
    expect(await state()).toEqual(before)
  })

  it('POST …/import/finish and …/import/abort: never 5xx, nothing changed', async () => {
    const { seriesId, keys } = await start()
    await uploadAll(keys)
    const before = await state()
    await expectBadBodiesRefused([`/api/ops/series/${seriesId}/import/finish`, `/api/ops/series/${seriesId}/import/abort`], {})
    expect(await state()).toEqual(before)
    expect(await objectsOf(seriesId)).toHaveLength(13)
  })

  it('PUT /media/{key}: 1,000 bad bodies and types never 5xx, nothing stored', async () => {
    const { seriesId, keys } = await start()
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.string().map((s) => new TextEncoder().encode(s)),
    )
    const types = fc.constantFrom('image/webp', 'image/webp', 'application/json', 'text/plain', 'image/png', '')
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), bodies, types, async (key, body, type) => {
        const res = await put(key, body, type)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
      }),
      { numRuns: 1000 },
    )
    expect(await objectsOf(seriesId)).toEqual([])
  })
})
