import { expect, test } from '@playwright/test'
import { wrappedLabels } from './helpers.ts'
import { shoot, signIn } from './steps.ts'
import { hydrated, newAccount } from './viewer.helpers.ts'

/**
 * Issue 35 points 1 and 2: each edition writes prices and dates as its readers do, from its edition.json (`price`,
 * `dateForm`): the shop's prices and a series page's next-episode date, as a guest sees them. And issue 35's
 * "Done when": the edition's home, series page, viewer and shop at 390 and 1280 px in the test report (every
 * edition with pages: de sends them all to its redirectAllUrl), and at 390 px no label of the bottom bar or of the
 * viewer's bar on two lines.
 */
export function localFormsSuite(id: string, forms: { price: RegExp; date: RegExp }) {
  test.describe(`prices and dates as ${id} readers write them`, () => {
    test('the shop’s prices and a series page’s next-episode date', async ({ page }) => {
      await page.goto('/shop')
      const prices = await page.locator('.product .price').allTextContents()
      expect(prices.length).toBeGreaterThan(0)
      for (const price of prices) expect(price).toMatch(forms.price)

      let next: string | null = null
      for (let series = 1; series <= 12 && next === null; series++) {
        const res = await page.goto(`/detail/${series}`)
        if (!res?.ok()) continue
        const spans = page.locator('.schedule span')
        if ((await spans.count()) > 1) next = await spans.nth(1).textContent()
      }
      expect(next, 'a demo series with a next episode').not.toBeNull()
      expect(next).toMatch(forms.date)
    })

    test("one next-episode date: the series page and the end of its latest episode (issue 35 point 3), and /my's dates", async ({
      page,
      baseURL,
    }) => {
      // a new reader with the welcome coupon's 100 coins buys the latest episode of a series that has a next one
      const email = await newAccount(page.request)
      await signIn(page, id, email)
      const coupon = await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL! } })
      expect(coupon.status()).toBe(200)
      let found: { date: string; latest: number } | null = null
      for (let series = 1; series <= 12 && found === null; series++) {
        const res = await page.request.get(`/api/v1/contents/${series}`)
        if (!res.ok()) continue
        const detail = (await res.json()).data as { nextUpdateAt: string | null; episodes: { id: number; no: number }[] }
        if (detail.nextUpdateAt === null || detail.episodes.length === 0) continue
        await page.goto(`/detail/${series}`)
        const date = forms.date.exec((await page.locator('.schedule span').nth(1).textContent()) ?? '')?.[0]
        if (date) found = { date, latest: detail.episodes.reduce((a, b) => (a.no > b.no ? a : b)).id }
      }
      expect(found, 'a demo series with a next episode').not.toBeNull()
      const bought = await page.request.post('/api/v1/purchase', {
        data: { episodeIds: [found!.latest], kind: 'POSSESSION' },
        headers: { origin: baseURL!, 'idempotency-key': `e2e-next-date-${Date.now()}` },
      })
      expect(bought.status()).toBe(200)
      await page.goto(`/viewer/${found!.latest}`)
      await hydrated(page)
      const end = page.locator('.viewer-update')
      await expect(end).toBeVisible()
      expect(forms.date.exec((await end.textContent()) ?? '')?.[0]).toBe(found!.date)
      // /my writes the reader's own dates the same way (member since)
      await page.goto('/my')
      const since = page.locator('dd time').first()
      await expect(since).toBeVisible()
      expect(await since.textContent()).toMatch(forms.date)
    })

    test('home, series, viewer and shop at 390 and 1280 px, into the report; no wrapped bar label at 390 px', async ({ page }, info) => {
      test.setTimeout(90_000) // eight screenshots, four of them full pages, on a shared machine
      const screens = [
        ['home', '/'],
        ['series', '/detail/1'],
        ['viewer', '/viewer/1'], // series 1's first episode, free
        ['shop', '/shop'],
      ] as const
      for (const [name, path] of screens) {
        await page.setViewportSize({ width: 390, height: 844 })
        const res = await page.goto(path)
        expect(res?.status(), path).toBe(200)
        if (name === 'viewer') await hydrated(page)
        // no short label on two lines at 390 px: the bottom bar's, or the viewer bar's episode (which stands in its place)
        const labels = page.locator(name === 'viewer' ? '.viewer-bar-episode' : '.nav-bottom a')
        await expect(labels.first()).toBeVisible()
        expect(await wrappedLabels(labels), `${path} at 390 px`).toEqual([])
        // the viewer's strip is many screens long: its first screen at both widths
        await shoot(page, info, `${id}-${name}`, name === 'viewer' ? { fullPage: false } : {})
      }
    })
  })
}
