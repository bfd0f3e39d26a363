/**
 * `/api/v1/viewer` on real workerd + D1 + R2 (spec §2 viewer, §8 Viewer errors): free episodes open with
 * public image URLs; paid ones only with a holding, through per-reader signed slice URLs (served without a query:
 * viewer.slices.test.ts); reading progress saved and restored; bad input never answers 5xx.
 */
import { describe, expect, it } from 'vitest'
import { app, expectError, get, newReader, read, type Reader } from './purchase.helpers.ts'
import { request } from './app.ts'
import { placesOf } from './reader.helpers.ts'
import { fixture, own, PIXELS } from './viewer.helpers.ts'
import { readerRows } from './reader-rows.ts'

const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString()

describe('GET /api/v1/viewer/{episodeId}', () => {
  it('opens a free episode for a guest: slices with their size, alt text and public widths of §9, neighbours', async () => {
    const f = await fixture()
    const res = await get(null, `/api/v1/viewer/${f.free}`)
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data.access).toEqual({ open: true, via: 'FREE', expiresAt: null })
    expect(data.slices).toHaveLength(2)
    const base = `/media/series/${f.seriesId}/ep/1`
    expect(data.slices[0]).toMatchObject({ n: 1, width: 720, height: 800, alt: 'Image 1' })
    expect(data.slices[0].src).toMatch(new RegExp(`^${base}/1/640\\.webp\\?s=[A-Za-z0-9_-]{43}$`))
    const sig = data.slices[1].src.split('?s=')[1]
    expect(data.slices[1].srcset).toBe([640, 828, 1080].map((w) => `${base}/2/${w}.webp?s=${sig} ${w}w`).join(', '))
    expect(data.prev).toBeNull()
    expect(data.next).toMatchObject({ id: f.paid, no: 2 })
    expect(data.progress).toBeNull()
    const image = await get(null, data.slices[0].src)
    expect(image.status).toBe(200)
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PIXELS)
  })

  it('keeps a paid episode locked without a holding: no image URL anywhere, the slice route refuses', async () => {
    const f = await fixture()
    const reader = await newReader()
    for (const who of [null, reader]) {
      const res = await get(who, `/api/v1/viewer/${f.paid}`)
      const text = await res.clone().text()
      expect(text).not.toMatch(/\/media\/|\/slice\//)
      await expectError(res, 403, 'UNAUTHORIZED_CONTENTS')
      await expectError(await get(who, `/api/v1/viewer/${f.paid}/slice/1?w=640`), 403, 'UNAUTHORIZED_CONTENTS')
    }
  })

  it('opens an owned episode with signed URLs that only its reader can use, for that slice and width only', async () => {
    const f = await fixture()
    const [reader, other] = [await newReader(), await newReader()]
    await own(reader, f.seriesId, f.paid, 'POSSESSION', null)
    await own(other, f.seriesId, f.paid, 'POSSESSION', null)
    const { data } = await read(await get(reader, `/api/v1/viewer/${f.paid}`))
    expect(data.access).toMatchObject({ open: true, via: 'POSSESSION' })
    const url: string = data.slices[1].src
    expect(url).toMatch(
      new RegExp(`^/api/v1/viewer/${f.paid}/slice/2\\?w=640&exp=\\d+&k=series%2F${f.seriesId}%2Fep%2F2%2F2&sig=[A-Za-z0-9_-]{43}$`),
    )
    expect(JSON.stringify(data)).not.toContain('/media/')
    expect(data.slices[1].srcset.split(', ')).toHaveLength(3)

    const mine = await get(reader, url)
    expect(mine.status).toBe(200)
    expect(mine.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    expect(new Uint8Array(await mine.arrayBuffer())).toEqual(PIXELS)
    // another account (even one that owns the episode too), a guest, or an edited URL: refused
    await expectError(await get(other, url), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await get(null, url), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await get(reader, url.replace('w=640', 'w=1080')), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await get(reader, url.replace('/slice/2', '/slice/1')), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await get(reader, url.replace(`/viewer/${f.paid}/`, `/viewer/${f.paid2}/`)), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await get(reader, url.replace('%2F2&sig', '%2F1&sig')), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(
      await get(
        reader,
        url.replace(/exp=\d+/, (m) => `exp=${Number(m.slice(4)) + 600}`),
      ),
      403,
      'UNAUTHORIZED_CONTENTS',
    )
    await expectError(await get(reader, `/api/v1/viewer/${f.paid}/slice/2?w=640`), 403, 'UNAUTHORIZED_CONTENTS')
    // a refused session cookie is told to sign in again
    await expectError(await request(app, url, { headers: { authorization: 'Bearer not.a.token' } }), 401, 'NOT_FOUND_ACCESS_TOKEN')
  })

  it('opens a running rental until it ends: its URLs never outlive it, an ended rental refuses the page', async () => {
    const f = await fixture()
    const reader = await newReader()
    const soon = new Date(Date.now() + 3 * 60_000).toISOString()
    await own(reader, f.seriesId, f.paid, 'RENT', soon)
    await own(reader, f.seriesId, f.paid2, 'FREETIME', anHourAgo())
    const { data } = await read(await get(reader, `/api/v1/viewer/${f.paid}`))
    expect(data.access).toMatchObject({ open: true, via: 'RENT' })
    const url: string = data.slices[0].src
    expect(Number(/exp=(\d+)/.exec(url)![1])).toBe(Math.floor(Date.parse(soon) / 1000)) // the rental's end, not 10 minutes
    expect((await get(reader, url)).status).toBe(200)
    await readerRows.run(
      reader.id,
      `UPDATE ownerships SET expires_at = ? WHERE user_id = ? AND episode_id = ?`,
      anHourAgo(),
      reader.id,
      f.paid,
    )
    await expectError(await get(reader, `/api/v1/viewer/${f.paid}`), 403, 'UNAUTHORIZED_CONTENTS')
    await expectError(await get(reader, `/api/v1/viewer/${f.paid2}`), 403, 'UNAUTHORIZED_CONTENTS')
  })

  it('asks a minor or a guest for the age check on an adult series, free episode included; its slices are never public', async () => {
    const f = await fixture({ adult: true })
    const minor = await newReader({ adult: false })
    await expectError(await get(minor, `/api/v1/viewer/${f.free}`), 403, 'ADULT_ONLY_CONTENTS')
    await expectError(await get(null, `/api/v1/viewer/${f.free}`), 403, 'ADULT_ONLY_CONTENTS')
    const adult = await newReader()
    const { data } = await read(await get(adult, `/api/v1/viewer/${f.free}`))
    expect(JSON.stringify(data.slices)).not.toContain('/media/')
    expect((await get(adult, data.slices[0].src)).status).toBe(200)
    for (const who of [null, minor]) await expectError(await get(who, data.slices[0].src), 403, 'UNAUTHORIZED_CONTENTS')
    expect((await get(null, `/media/series/${f.seriesId}/ep/1/1/640.webp`)).status).toBe(404)
  })
})

describe('POST /api/v1/viewer/{episodeId}/progress', () => {
  const post = (reader: Reader | null, episodeId: number | string, body: unknown) =>
    request(app, `/api/v1/viewer/${episodeId}/progress`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(reader?.headers ?? {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  it('saves where the reader is (one row per series) and gives it back when the episode opens again', async () => {
    const f = await fixture()
    const reader = await newReader()
    await own(reader, f.seriesId, f.paid, 'POSSESSION', null)
    expect((await post(reader, f.free, { position: 0.9 })).status).toBe(200)
    const res = await post(reader, f.paid, { position: 0.42 })
    expect(res.status).toBe(200)
    expect((await read(res)).data).toMatchObject({ episodeId: f.paid, position: 0.42 })
    expect((await placesOf(reader.id)).map((p) => [p.episodeId, p.position])).toEqual([[f.paid, 0.42]])
    expect((await read(await get(reader, `/api/v1/viewer/${f.paid}`))).data.progress).toBe(0.42)
    expect((await read(await get(reader, `/api/v1/viewer/${f.free}`))).data.progress).toBeNull()
    // another reader sees none of it
    expect((await read(await get(await newReader(), `/api/v1/viewer/${f.free}`))).data.progress).toBeNull()
  })

  it('needs a reader who may open the episode, and a position between 0 and 1', async () => {
    const f = await fixture()
    const reader = await newReader()
    await expectError(await post(null, f.free, { position: 0.5 }), 401, 'NOT_LOGIN_USER')
    await expectError(await post(reader, f.paid, { position: 0.5 }), 403, 'UNAUTHORIZED_CONTENTS')
    for (const body of [{ position: 1.5 }, { position: -0.1 }, { position: '0.5' }, {}, 'not json', { position: null }]) {
      await expectError(await post(reader, f.free, body), 400, 'INVALID_PARAMETER')
    }
    await expectError(await post(reader, 'abc', { position: 0.5 }), 404, 'NOT_FOUND_EPISODE')
    expect(await placesOf(reader.id)).toEqual([])
  })
})

describe('bad ids and parameters', () => {
  it('answer 404 NOT_FOUND_EPISODE or 400 INVALID_PARAMETER, never 5xx', async () => {
    const f = await fixture()
    for (const p of ['abc', '0', '-1', '99999999', '1e3', '9'.repeat(30), '%00', "1' OR 1=1"]) {
      await expectError(await get(null, `/api/v1/viewer/${encodeURIComponent(p)}`), 404, 'NOT_FOUND_EPISODE')
      // the slice route reads no episode: an unsigned or unknown one is simply not signed for the caller
      await expectError(
        await get(null, `/api/v1/viewer/${encodeURIComponent(p)}/slice/1`),
        p === '99999999' ? 403 : 404,
        p === '99999999' ? 'UNAUTHORIZED_CONTENTS' : 'NOT_FOUND_EPISODE',
      )
    }
    await expectError(await get(null, `/api/v1/viewer/${f.free}/slice/9`), 403, 'UNAUTHORIZED_CONTENTS')
    for (const q of [
      'slice/0',
      'slice/abc',
      'slice/1?w=abc',
      'slice/1?w=0',
      'slice/1?w=99999',
      'slice/1?exp=x',
      `slice/1?sig=${'a'.repeat(100)}`,
      `slice/1?k=${'a'.repeat(600)}`,
    ]) {
      await expectError(await get(null, `/api/v1/viewer/${f.free}/${q}`), 400, 'INVALID_PARAMETER')
    }
    const fuzz = [
      '/api/v1/viewer/',
      '/api/v1/viewer/1/slice/',
      `/api/v1/viewer/${f.paid}/slice/1?w=640&exp=1&sig=${'A'.repeat(43)}`,
      `/api/v1/viewer/${f.paid}/slice/1?exp=99999999999&sig=%ZZ`,
      `/api/v1/viewer/${f.paid}/slice/1?w=640&exp=99999999999&k=..%2F..%2Fprivate%2Fx&sig=${'A'.repeat(43)}`,
      `/media/series/${f.seriesId}/ep/1/1/640.webp?s=%ZZ`,
      `/media/series/${f.seriesId}/ep/1/1/640.webp?s=${'A'.repeat(43)}`,
    ]
    for (const p of fuzz) expect((await get(null, p)).status).toBeLessThan(500)
  })
})
