import { expect, test } from '@playwright/test'
import { newMember, noSeriousViolations, signInTo } from './helpers.ts'
import { shoot } from './steps.ts'

/** The width and height a WebP file declares (VP8, VP8L or VP8X chunk), read from its first bytes. */
function webpSize(b: Buffer): { width: number; height: number } {
  expect(b.subarray(0, 4).toString()).toBe('RIFF')
  expect(b.subarray(8, 12).toString()).toBe('WEBP')
  const chunk = b.subarray(12, 16).toString()
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) }
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21)
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }
  }
  return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff }
}

/**
 * Spec §7/§9's image loader on the real local runtime (the Images binding resizes with the same engine as deployed):
 * a cover at one of the loader's widths, never enlarged, its quality honoured, kept in the edge cache; bad queries and
 * private images refused.
 */
test.describe('the image loader (French edition)', () => {
  test('resizes a cover to a spec width as WebP, keeps it in the edge cache, never enlarges', async ({ request }) => {
    const url = '/media/covers/1/256.webp'
    const stored = await request.get(url)
    expect(stored.status()).toBe(200)
    const source = webpSize(await stored.body())
    expect(source.width).toBe(256)

    const first = await request.get(`/media/image?url=${encodeURIComponent(url)}&w=96`)
    expect(first.status()).toBe(200)
    expect(first.headers()['content-type']).toBe('image/webp')
    expect(first.headers()['cache-control']).toContain('immutable')
    const small = await first.body()
    expect(webpSize(small)).toEqual({ width: 96, height: Math.round((source.height * 96) / 256) })
    const again = await request.get(`/media/image?url=${encodeURIComponent(url)}&w=96&q=75`)
    expect(again.headers()['x-edge-cache']).toBe('HIT')
    expect((await again.body()).equals(small)).toBe(true)

    // another quality is another image (the local engine, sharp in miniflare, ignores it; Cloudflare Images honours it)
    const q = 1 + Math.floor(Math.random() * 74) // a quality no earlier run on this state asked for
    const low = await request.get(`/media/image?url=${encodeURIComponent(url)}&w=96&q=${q}`)
    expect(low.headers()['x-edge-cache']).toBe('MISS')
    expect(webpSize(await low.body()).width).toBe(96)
    // a width above the source's keeps the source's
    const wide = await request.get(`/media/image?url=${encodeURIComponent(url)}&w=3840`)
    expect(webpSize(await wide.body()).width).toBe(256)
  })

  test('refuses widths outside spec §9, bad qualities, other sites and private images', async ({ request }) => {
    const cover = encodeURIComponent('/media/covers/1/256.webp')
    for (const query of [`url=${cover}&w=100`, `url=${cover}&w=96&q=0`, `url=${cover}&w=96&q=101`, `url=${cover}`, 'w=96']) {
      const res = await request.get(`/media/image?${query}`)
      expect(res.status(), query).toBe(400)
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_PARAMETER')
    }
    for (const url of ['https://evil.example/a.webp', '//evil.example/a.webp', '/media/../secret.webp'])
      expect((await request.get(`/media/image?url=${encodeURIComponent(url)}&w=96`)).status(), url).toBe(400)
    // a paid episode's slice is never public, resized or not
    expect((await request.get(`/media/image?url=${encodeURIComponent('/media/series/1/ep/11/1/640.webp')}&w=96`)).status()).toBe(404)
  })

  test.describe('on a screen of density 1', () => {
    test.use({ deviceScaleFactor: 1 })
    test("a 64 px cover of the reader's hidden series loads the loader's 64 px image, not the 256 px file", async ({
      page,
      baseURL,
    }, info) => {
      const member = await newMember(page)
      await signInTo(page, '/library/hidden', member)
      const hide = await page.request.post('/api/v1/library/hidden', { data: { seriesId: 1, hidden: true }, headers: { origin: baseURL! } })
      expect(hide.status()).toBe(200)
      const loaded: string[] = []
      page.on('response', (r) => {
        if (r.url().includes('/media/')) loaded.push(new URL(r.url()).pathname + new URL(r.url()).search)
      })
      await page.goto('/library/hidden')
      const cover = page.locator('.hidden-item img').first()
      await expect(cover).toHaveJSProperty('complete', true)
      expect(await cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64)
      expect(loaded.some((u) => u.startsWith('/media/image?') && u.endsWith('&w=64'))).toBe(true)
      expect(loaded.filter((u) => u.endsWith('/256.webp'))).toEqual([])
      await noSeriousViolations(page)
      await shoot(page, info, 'image-loader-hidden-fr')
    })
  })
})
