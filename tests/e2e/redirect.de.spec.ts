import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'

const de = JSON.parse(readFileSync(new URL('../../editions/de/edition.json', import.meta.url), 'utf8'))

test('the German edition redirects every path except the health check', async ({ request }) => {
  for (const path of ['/', '/detail/1', '/shop', '/api/v1/contents', '/favicon.svg', '/nothing']) {
    const res = await request.get(path, { maxRedirects: 0 })
    expect(res.status(), path).toBe(302)
    expect(res.headers().location, path).toBe(de.redirectAllUrl)
  }
  const health = await request.get('/_/health')
  expect(health.status()).toBe(200)
  expect(await health.json()).toEqual({ status: 'ok' })
})
