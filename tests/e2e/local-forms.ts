import { expect, test } from '@playwright/test'
import { wrappedLabels } from './helpers.ts'
import { shoot } from './steps.ts'
import { hydrated } from './viewer.helpers.ts'

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
