import { expect, test, type Page } from '@playwright/test'
import { hydrated, reader } from './viewer.helpers.ts'

/**
 * Offline reading through the service worker (public/sw.js, scope /viewer/; issue 6 §5): an owned episode
 * saved on the device reads with the network off, an episode never saved opens the offline start page; a saved
 * rental that has ended is refused and deleted.
 * Series 1 episodes 9 and 10 are paid (rent 2, buy 4); each test signs up its own reader.
 */
async function purchase(page: Page, baseURL: string, episodeId: number, kind: 'RENT' | 'POSSESSION') {
  const res = await page.request.post('/api/v1/purchase', {
    data: { episodeIds: [episodeId], kind },
    headers: { origin: baseURL, 'idempotency-key': `e2e-offline-${Date.now()}-${episodeId}` },
  })
  expect(res.status()).toBe(200)
}

async function saveOffline(page: Page, episodeId: number) {
  await page.goto(`/viewer/${episodeId}`)
  await hydrated(page)
  await page.getByRole('button', { name: 'Enregistrer pour lire hors ligne' }).click()
  await expect(page.locator('.viewer-offline [role="status"]')).toHaveText('Disponible hors ligne sur cet appareil')
  // once saved, the page also registers the worker for the whole site (the offline start page, src/features/install);
  // that registration's worker sweeps the ended rentals when it activates: what a test does to the saved copy waits for
  // it (a rental ended before that activation was deleted, and opened offline gave the start page: 4 runs in 24)
  await expect
    .poll(() =>
      page.evaluate(async () =>
        (await navigator.serviceWorker.getRegistrations()).map((r) => `${new URL(r.scope).pathname} ${r.active?.state}`).sort(),
      ),
    )
    .toEqual(['/ activated', '/viewer/ activated'])
}

test.describe('offline reading', () => {
  test('an owned episode saved on the device reads with the network off', async ({ page, context, baseURL }) => {
    await reader(page, baseURL!)
    await purchase(page, baseURL!, 9, 'POSSESSION')
    await saveOffline(page, 9)
    await context.setOffline(true)
    await page.goto('/viewer/9')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Épisode 9')
    const slices = page.locator('#viewer-content img')
    await expect(slices).toHaveCount(3)
    for (const img of await slices.all()) {
      await img.scrollIntoViewIfNeeded()
      await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true)
    }
    // an episode never saved is not there offline: the start page (issue 19) leads to the one that is
    await page.goto('/viewer/10')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vous êtes hors ligne')
    await expect(page.getByRole('list', { name: 'Épisodes lisibles hors ligne' }).getByRole('link')).toHaveAttribute('href', '/viewer/9')
    await expect(page.locator('img')).toHaveCount(0)
    await context.setOffline(false)
  })

  test('a saved rental that has ended is refused offline and deleted from the device', async ({ page, context, baseURL }) => {
    await reader(page, baseURL!)
    await purchase(page, baseURL!, 10, 'RENT')
    await saveOffline(page, 10)
    const saved = () =>
      page.evaluate(async () =>
        (await (await caches.open('viewer-offline-v1')).keys()).map((r) => new URL(r.url).pathname).filter((p) => p.includes('/10')),
      )
    expect((await saved()).length).toBeGreaterThan(3)
    // time passes: the rental's end (kept with the saved copy) is now behind us
    await page.evaluate(async () => {
      const cache = await caches.open('viewer-offline-v1')
      const meta = (await (await cache.match('/__viewer-offline/10'))!.json()) as Record<string, unknown>
      await cache.put(
        '/__viewer-offline/10',
        new Response(JSON.stringify({ ...meta, expiresAt: new Date(Date.now() - 1000).toISOString() })),
      )
    })
    await context.setOffline(true)
    const res = await page.goto('/viewer/10')
    expect(res?.status()).toBe(403)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Location terminée')
    await expect(page.locator('img')).toHaveCount(0)
    await context.setOffline(false)
    expect(await saved()).toEqual([])
  })
})
