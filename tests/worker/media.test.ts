import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
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
