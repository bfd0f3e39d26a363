/**
 * Private media stay private (issue 26 point 6), on real workerd + D1 + R2 through the app's router: a support
 * question's images are stored under the private prefix; the public /media route refuses them (and the images
 * stored before under `qna/`), whoever knows the key; only the author's route serves them, never cached.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { app, askWithImage, call, db, newReader, PNG } from './comment.helpers.ts'
import { request } from './app.ts'

describe('private media', () => {
  it("a support question's image: not served by /media to anyone with the key; the author's route serves it private, no-store", async () => {
    const author = await newReader()
    const id = await askWithImage(author, {
      category: 'VIEWER',
      title: 'Capture',
      text: 'Voir la capture de mon relevé bancaire',
      file: 'releve.png',
    })
    const [key] = JSON.parse((await db.first<{ images: string }>(`SELECT images FROM qnas WHERE id = ?`, id))!.images) as string[]
    expect(key).toMatch(/^private\/qna\//)
    expect(await env.MEDIA.head(key!)).not.toBeNull()
    for (const headers of [{}, author.headers]) {
      const res = await request(app, `/media/${key}`, { headers })
      expect(res.status).toBe(404)
      expect(res.headers.get('cache-control') ?? '').not.toMatch(/public/)
    }
    expect((await request(app, `/media/${encodeURIComponent(key!)}`)).status).toBe(404)
    const own = await call(author, 'GET', `/api/v1/qna/${id}/image/1`)
    expect(own.status).toBe(200)
    expect(own.headers.get('cache-control')).toBe('private, no-store')
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(PNG)
    expect((await call(await newReader(), 'GET', `/api/v1/qna/${id}/image/1`)).status).toBe(404)
  })

  it('images stored before the private prefix (qna/…) are refused by /media too', async () => {
    const key = `qna/999/${crypto.randomUUID()}.png`
    await env.MEDIA.put(key, PNG, { httpMetadata: { contentType: 'image/png' } })
    expect((await request(app, `/media/${key}`)).status).toBe(404)
    // a public image next to it is still served publicly
    await env.MEDIA.put('banners/security-test.png', PNG, { httpMetadata: { contentType: 'image/png' } })
    const banner = await request(app, '/media/banners/security-test.png')
    expect(banner.status).toBe(200)
    expect(banner.headers.get('cache-control')).toMatch(/public/)
  })
})
