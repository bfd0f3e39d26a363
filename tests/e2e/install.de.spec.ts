import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'

const de = JSON.parse(readFileSync(new URL('../../editions/de/edition.json', import.meta.url), 'utf8'))

/**
 * Issue 19 point 1 in the German edition: it sends every path to `redirectAllUrl` (redirect.de.spec.ts), so there
 * is no page here to install; its manifest and icons are built (src/features/install/install.test.ts checks the
 * manifest of every edition) but redirected like everything else.
 */
test('the German edition redirects its manifest and icons too: nothing to install on this host', async ({ request }) => {
  for (const path of ['/manifest.webmanifest', '/icons/icon-192.png', '/apple-touch-icon.png', '/offline']) {
    const res = await request.get(path, { maxRedirects: 0 })
    expect(res.status(), path).toBe(302)
    expect(res.headers().location, path).toBe(de.redirectAllUrl)
  }
})
