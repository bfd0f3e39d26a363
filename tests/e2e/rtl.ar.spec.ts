import { expect, test } from '@playwright/test'

test('the Arabic edition renders right-to-left with a mirrored layout', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto('/')
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
  const bottom = page.locator('.nav-bottom')
  await expect(bottom.getByRole('link')).toHaveText(['الرئيسية', 'المتجر', 'الهدايا', 'البحث', 'حسابي'])
  const home = (await bottom.getByRole('link', { name: 'الرئيسية' }).boundingBox())!
  const my = (await bottom.getByRole('link', { name: 'حسابي' }).boundingBox())!
  expect(home.x).toBeGreaterThan(my.x) // first tab on the right
  const logo = (await page.locator('.logo').boundingBox())!
  expect(logo.x + logo.width).toBeGreaterThan(375 / 2) // logo at the start edge, i.e. the right
})

test('Arabic error pages speak Arabic', async ({ page }) => {
  const response = await page.goto('/nothing-here')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الصفحة غير موجودة')
})
