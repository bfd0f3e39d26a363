import { describe, expect, it } from 'vitest'
import type { MiddlewareHandler } from 'hono'
import { createApp } from '../../functions/app.ts'
import { frEdition, frMessages, request } from './app.ts'

/** A page that counts its renders and declares itself cacheable like the catalogue pages do. */
function countingApp(cacheControl: string, buildId = `test-${Math.random()}`) {
  let renders = 0
  const page: MiddlewareHandler = async (c) => {
    renders++
    c.header('Cache-Control', cacheControl)
    return c.html(`<p>render ${renders}</p>`)
  }
  return { app: createApp({ edition: frEdition, messages: frMessages, pages: [page], buildId }), renders: () => renders }
}

describe('edge cache of catalogue pages', () => {
  it('serves a guest the cached page without rendering again', async () => {
    const { app, renders } = countingApp('public, max-age=0, s-maxage=60, stale-while-revalidate=600')
    const first = await request(app, '/home/free')
    expect(first.headers.get('x-edge-cache')).toBe('MISS')
    const second = await request(app, '/home/free')
    expect(second.headers.get('x-edge-cache')).toBe('HIT')
    expect(await second.text()).toBe('<p>render 1</p>')
    expect(renders()).toBe(1)
    expect(second.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const forced = await request(app, '/home/free', { headers: { 'cache-control': 'no-cache' } })
    expect(await forced.text()).toBe('<p>render 2</p>')
  })

  it('never caches for a bearer token, nor pages that are not public (readers with a session: edge-cache.audience.test.ts)', async () => {
    const { app, renders } = countingApp('public, max-age=0, s-maxage=60')
    await request(app, '/notice', { headers: { authorization: 'Bearer x' } })
    await request(app, '/notice', { headers: { authorization: 'Bearer x' } })
    expect(renders()).toBe(2)
    const priv = countingApp('private, no-store')
    await request(priv.app, '/notice')
    expect((await request(priv.app, '/notice')).headers.get('x-edge-cache')).toBeNull()
    expect(priv.renders()).toBe(2)
  })

  it('starts empty with a new build', async () => {
    const a = countingApp('public, s-maxage=60', 'build-a')
    await request(a.app, '/faq')
    const b = countingApp('public, s-maxage=60', 'build-b')
    expect((await request(b.app, '/faq')).headers.get('x-edge-cache')).toBe('MISS')
  })
})
