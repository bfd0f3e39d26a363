import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import fc from 'fast-check'
import { appFor, expectHandled, request } from './app.ts'
import { seedDemo } from './seed.ts'

const app = appFor()
let free: { id: number; series_id: number; no: number }
let paid: { id: number; series_id: number; no: number }

beforeAll(async () => {
  await seedDemo(env.DB)
  free = (await env.DB.prepare(
    'SELECT e.id, e.series_id, e.no FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.is_free = 1 AND s.is_adult = 0 AND EXISTS (SELECT 1 FROM episode_images i WHERE i.episode_id = e.id AND i.position = 1) LIMIT 1',
  ).first())!
  paid = (await env.DB.prepare('SELECT id, series_id, no FROM episodes WHERE is_free = 0 LIMIT 1').first())!
  for (const e of [free, paid]) await env.MEDIA.put(`series/${e.series_id}/ep/${e.no}/1/640.webp`, new Uint8Array([1, 2, 3]))
  await env.MEDIA.put('covers/1/256.webp', new Uint8Array([4]))
})

describe('public /media', () => {
  it('serves covers and free episodes (by the URL their page gives) with immutable caching', async () => {
    const slice = ((await (await request(app, `/api/v1/viewer/${free.id}`)).json()) as { data: { slices: { src: string }[] } }).data
      .slices[0]!
    expect(slice.src).toMatch(new RegExp(`^/media/series/${free.series_id}/ep/${free.no}/1/640\\.webp\\?s=`))
    for (const path of ['/media/covers/1/256.webp', slice.src]) {
      const res = await request(app, path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('cache-control')).toContain('immutable')
    }
  })

  it("never serves a paid episode's slices, whose key is guessable, nor a free one's without its signature", async () => {
    for (const e of [paid, free]) {
      const res = await request(app, `/media/series/${e.series_id}/ep/${e.no}/1/640.webp`)
      expect(res.status).toBe(404)
      expect(await res.arrayBuffer()).toHaveProperty('byteLength', 0)
    }
  })
})

/** A 256 × 384 WebP cover (made with sharp), as R2 holds covers. */
const COVER = Uint8Array.from(
  atob(
    'UklGRvoAAABXRUJQVlA4IO4AAABQGACdASoAAYABPm02mUmkIyKhICgAgA2JaW7hd2Ee3AfgAAAWlsnIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99smIAD+/31z///ILlhdcjX//6En4JPwSfuAAAAAAAAAAAAAAAAA',
  ),
  (ch) => ch.charCodeAt(0),
)
/** The width a lossy WebP (VP8) declares. */
const widthOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint16(26, true) & 0x3fff

describe('the image loader (GET /media/image)', () => {
  it('resizes a public image to a spec §9 width through the Images binding, never enlarging, and keeps it in the edge cache', async () => {
    await env.MEDIA.put('covers/7/256.webp', COVER)
    const url = encodeURIComponent('/media/covers/7/256.webp')
    const first = await request(app, `/media/image?url=${url}&w=96`)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/webp')
    expect(first.headers.get('cache-control')).toContain('immutable')
    expect(first.headers.get('x-edge-cache')).toBe('MISS')
    expect(widthOf(new Uint8Array(await first.arrayBuffer()))).toBe(96)
    // the same image again, even spelled with the default quality: from the edge cache
    const again = await request(app, `/media/image?url=${url}&w=96&q=75`)
    expect(again.headers.get('x-edge-cache')).toBe('HIT')
    expect(widthOf(new Uint8Array(await again.arrayBuffer()))).toBe(96)
    expect(widthOf(new Uint8Array(await (await request(app, `/media/image?url=${url}&w=3840`)).arrayBuffer()))).toBe(256)
  })

  it('refuses other widths, qualities and addresses; never resizes a private slice', async () => {
    const url = encodeURIComponent('/media/covers/7/256.webp')
    for (const query of [
      `url=${url}&w=100`,
      `url=${url}&w=96&q=0`,
      `url=${url}&w=96&q=101`,
      `url=${url}`,
      'w=96',
      `url=${encodeURIComponent('https://x.example/a.webp')}&w=96`,
      `url=${encodeURIComponent('/media/../a.webp')}&w=96`,
    ])
      expect((await request(app, `/media/image?${query}`)).status, query).toBe(400)
    const slice = `/media/series/${paid.series_id}/ep/${paid.no}/1/640.webp`
    expect((await request(app, `/media/image?url=${encodeURIComponent(slice)}&w=96`)).status).toBe(404)
  })

  it('never answers 5xx to 1,000 generated queries', async () => {
    await env.MEDIA.put('covers/7/256.webp', COVER)
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.constantFrom('/media/covers/7/256.webp', '/media/covers/7/9.webp', '/media/private/x.png'),
        ),
        fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -10, max: 5000 }).map(String)),
        fc.option(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 200 }).map(String))),
        async (url, w, q) => {
          const params = new URLSearchParams({ url, w, ...(q === null ? {} : { q }) })
          const res = await request(app, `/media/image?${params}`)
          if (res.status === 200) expect(res.headers.get('content-type')).toBe('image/webp')
          else if (res.status !== 404) await expectHandled(res)
        },
      ),
      { numRuns: 1000 },
    )
  }, 120_000)
})
