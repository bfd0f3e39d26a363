import { expect, test } from '@playwright/test'
import { newMember, noSeriousViolations } from './helpers.ts'
import { hydrated, lockedEpisode } from './lowbalance.helpers.ts'

/**
 * Issue 25 §2 in the Arabic edition (right to left), on a phone (390×844, touch): a new reader with 0 coins gets
 * "اشحن" with the missing coins (Arabic plural forms) as the main action, pays in the sandbox shop, comes back
 * to the episode and unlocks it in one tap.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

test('0 coins: top up with the missing coins → shop → pay → back on the episode → one tap → first slice', async ({
  page,
  baseURL,
}, info) => {
  const member = await newMember(page)
  await page.request.post('/api/v1/auth/web/sign-in', {
    form: { email: member.email, password: member.password, callback: '/' },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  })
  const id = await lockedEpisode(page, 6, (p) => p.freetime === null && p.offers.RENT.single?.affordable === false)
  await hydrated(page)
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  const topUp = page.getByTestId('top-up')
  await expect(topUp).toHaveText(/^اشحن: ينقصك (عملة واحدة|عملتان|\d+ عملات)$/)
  await expect(topUp).toHaveAttribute('href', `/shop?return=${encodeURIComponent(`/viewer/${id}#unlock`)}`)
  await noSeriousViolations(page)
  await page.locator('#unlock').scrollIntoViewIfNeeded()
  await info.attach('ar-popup-390-short', { body: await page.screenshot(), contentType: 'image/png' })

  await topUp.tap()
  await expect(page.getByTestId('shop-back')).toHaveText('العودة إلى الحلقة')
  await hydrated(page)
  await page.locator('input[name="productId"]:not([disabled])').first().check()
  await page.locator('input[name="agree"]').check()
  await page.locator('#shop-form button[type="submit"]').tap()
  await expect(page).toHaveURL(/\/shop\/checkout\/pay_/)
  await page.locator('form[action$="/pay"] button').tap()
  await expect(page.locator('.result')).toHaveAttribute('data-state', 'PAID')
  await page.getByRole('link', { name: 'العودة إلى الحلقة' }).tap()
  await expect(page).toHaveURL(`/viewer/${id}#unlock`)
  await hydrated(page)
  const main = page.locator('.rent-or-buy [class="btn"]').first()
  await expect(main).toBeInViewport()
  await main.tap()
  await expect(page.locator('.locked-episode')).toHaveCount(0)
  await expect(page.locator('.viewer-slice img').first()).toBeVisible()
})
