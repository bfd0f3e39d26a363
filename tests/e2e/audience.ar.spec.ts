import { expect, test } from '@playwright/test'
import { newMember, noSeriousViolations } from './helpers.ts'

/**
 * Issue 11 in the Arabic edition (right to left, the edition with the BL toggle): a guest sees BL series and
 * no adult one; a member starts with BL hidden (spec §5 isBlToggle off) and the switch on /setting shows it,
 * on every catalogue page at once.
 */

test('guest, then a member with BL hidden who switches it on', async ({ page, baseURL }) => {
  await page.goto('/home/bl')
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  const blSeries = page.locator('main .series-grid a')
  await expect(blSeries.first()).toBeVisible()
  const firstBl = (await blSeries.first().innerText()).trim()
  await page.goto('/home/mature')
  await expect(page.locator('main .series-grid')).toHaveCount(0)

  const member = await newMember(page)
  await page.request.post('/api/v1/auth/web/sign-in', {
    form: { email: member.email, password: member.password, callback: '/' },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  })
  await page.goto('/home/bl')
  await expect(page.locator('main .series-grid')).toHaveCount(0)
  await page.goto(`/search?keyword=${encodeURIComponent(firstBl.split(/\s+/)[0]!)}`)
  await expect(page.getByRole('link', { name: firstBl })).toHaveCount(0)
  await page.goto('/setting')
  const bl = page.getByRole('switch', { name: 'سلاسل BL' })
  await expect(bl).toHaveAttribute('aria-checked', 'false')
  await noSeriousViolations(page)
  await bl.click()
  await expect(page.getByRole('switch', { name: 'سلاسل BL' })).toHaveAttribute('aria-checked', 'true')
  await page.goto('/home/bl')
  await expect(page.locator('main .series-grid').getByRole('link', { name: firstBl })).toBeVisible()
})
