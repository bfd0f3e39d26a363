import { expect, test } from '@playwright/test'
import { newMember, noSeriousViolations } from './helpers.ts'
import { hydrated, lockedEpisode } from './lowbalance.helpers.ts'

/**
 * Issue 12 point 4 in one edition: a reader rents an episode, and its viewer offers to keep it for good at the price
 * less the rental (the credit is said in the reader's language); the plain form buys it without JavaScript and the
 * page says it is the reader's for good. Screenshots at 390 and 1280 px.
 */
export function upgradeSuite(o: { edition: string; credit: RegExp; button: RegExp; done: string }) {
  test(`${o.edition}: a rented episode is bought for good from its viewer, also without JavaScript`, async ({
    page,
    browser,
    baseURL,
  }, info) => {
    test.setTimeout(120_000)
    const member = await newMember(page)
    await page.request.post('/api/v1/auth/web/sign-in', {
      form: { email: member.email, password: member.password, callback: '/' },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    })
    // coins from the sandbox shop
    await page.goto('/shop')
    await page.locator('input[name="productId"]:not([disabled])').first().check()
    await page.locator('input[name="agree"]').check()
    await page.locator('#shop-form button[type="submit"]').click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_/)
    await page.locator('form[action$="/pay"] button').click()
    await expect(page.locator('.result')).toHaveAttribute('data-state', 'PAID')

    // rent a locked episode that is also sold for good
    const id = await lockedEpisode(
      page,
      6,
      (p) => p.freetime === null && p.offers.RENT.single?.affordable === true && (p.offers as Record<string, unknown>).POSSESSION !== null,
    )
    await hydrated(page)
    await page.locator('input[name="rob-kind"][value="RENT"]').check()
    await page.locator('.rent-or-buy button[type="submit"]').click()
    await expect(page.locator('.locked-episode')).toHaveCount(0)

    // the viewer of the rented episode offers to keep it, less the rental
    const offer = page.locator('#buy-for-good')
    await expect(offer).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('dir', o.edition === 'ar' ? 'rtl' : 'ltr')
    await expect(offer.locator('.buy-for-good-credit')).toHaveText(o.credit)
    const button = offer.getByRole('button', { name: o.button })
    await expect(button).toBeVisible()
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44)
    await noSeriousViolations(page)
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 })
      await page.evaluate(() => scrollTo(0, 0)) // the offer sits under the episode title, below the viewer's bar
      await info.attach(`${o.edition}-buy-for-good-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }

    // the same page without JavaScript: the plain form buys it
    const plain = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
      baseURL,
      viewport: { width: 390, height: 844 },
    })
    const noJs = await plain.newPage()
    await noJs.goto(`/viewer/${id}`)
    await noJs.locator('#buy-for-good').getByRole('button', { name: o.button }).click()
    await expect(noJs).toHaveURL(`/viewer/${id}?bought=POSSESSION`)
    await expect(noJs.getByRole('status').filter({ hasText: o.done })).toBeVisible()
    await expect(noJs.locator('#buy-for-good, .viewer-until')).toHaveCount(0)
    await info.attach(`${o.edition}-bought-390`, { body: await noJs.screenshot(), contentType: 'image/png' })
    await plain.close()
    // kept for good: the preview no longer sells it
    const preview = await (await page.request.get(`/api/v1/purchase/preview?episodeId=${id}`)).json()
    expect(preview.data.ownership).toEqual({ kind: 'POSSESSION', expiresAt: null })
  })
}
