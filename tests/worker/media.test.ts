import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
import { seedDemo } from './seed.ts'

const app = appFor()
let free: { series_id: number; no: number }
let paid: { series_id: number; no: number }

beforeAll(async () => {
  await seedDemo(env.DB)
  free = (await env.DB.prepare('SELECT series_id, no FROM episodes WHERE is_free = 1 LIMIT 1').first())!
  paid = (await env.DB.prepare('SELECT series_id, no FROM episodes WHERE is_free = 0 LIMIT 1').first())!
  for (const e of [free, paid]) await env.MEDIA.put(`series/${e.series_id}/ep/${e.no}/1/640.webp`, new Uint8Array([1, 2, 3]))
  await env.MEDIA.put('covers/1/256.webp', new Uint8Array([4]))
})

describe('public /media', () => {
  it('serves covers and free episodes with immutable caching', async () => {
    for (const path of ['/media/covers/1/256.webp', `/media/series/${free.series_id}/ep/${free.no}/1/640.webp`]) {
      const res = await request(app, path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('cache-control')).toContain('immutable')
    }
  })

  it("never serves a paid episode's slices, whose key is guessable", async () => {
    const res = await request(app, `/media/series/${paid.series_id}/ep/${paid.no}/1/640.webp`)
    expect(res.status).toBe(404)
    expect(await res.arrayBuffer()).toHaveProperty('byteLength', 0)
  })
})
