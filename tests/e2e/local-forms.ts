import { expect, test } from '@playwright/test'

/**
 * Issue 35 points 1 and 2: each edition writes prices and dates as its readers do, from its edition.json (`price`,
 * `dateForm`): the shop's prices and a series page's next-episode date, as a guest sees them.
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
  })
}
