import { expect, test } from '@playwright/test'
import { noSeriousViolations } from './helpers.ts'
import { messagesOf } from './journey.ts'

/**
 * The catalogue journey of issue 5 in the Arabic edition (the German one redirects every page elsewhere):
 * home → weekly → ranking → detail → search → notices, every label in Arabic, the page right to left, no French
 * label left over, and no serious axe violation on the detail page.
 */
test('Arabic edition: home → weekly → ranking → detail → search → notices, in Arabic, right to left', async ({ page }) => {
  const edition = 'ar'
  const dir = 'rtl'
  const t = messagesOf(edition)
  const fr = messagesOf('fr')
  await page.goto('/')
  await expect(page.locator('html')).toHaveAttribute('lang', edition)
  await expect(page.locator('html')).toHaveAttribute('dir', dir)
  const tabs = page.getByRole('navigation', { name: t('hometab.nav') })
  await tabs.getByRole('link', { name: t('hometab.weekly') }).click()
  await expect(page).toHaveURL(/\/home\/weekly$/)
  await expect(page.getByRole('navigation', { name: t('hometab.days') }).getByRole('link')).toHaveCount(8)

  await page
    .getByRole('navigation', { name: t('hometab.nav') })
    .getByRole('link', { name: t('hometab.ranking') })
    .click()
  await expect(page).toHaveURL(/\/home\/ranking$/)
  const card = page.locator('main .series-grid a').first()
  const title = (await card.innerText()).trim()
  await card.click()
  await expect(page).toHaveURL(/\/detail\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(page.getByRole('region', { name: t('detail.related') })).toBeVisible()
  const body = await page.locator('body').innerText()
  for (const key of ['hometab.ranking', 'detail.related', 'nav.search', 'footer.notice'])
    expect(body, `French "${fr(key)}" on the ${edition} detail page`).not.toContain(fr(key))
  await noSeriousViolations(page)

  await page
    .getByRole('link', { name: t('nav.search'), exact: true })
    .first()
    .click()
  await expect(page).toHaveURL(/\/search$/)
  await page.getByRole('searchbox', { name: t('search.label') }).fill(title)
  await page.getByRole('button', { name: t('search.submit') }).click()
  await expect(page.locator('main .series-grid a', { hasText: title }).first()).toBeVisible()

  await page
    .locator('footer')
    .getByRole('link', { name: t('footer.notice') })
    .click()
  await expect(page).toHaveURL(/\/notice$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('notice.title'))
  expect(await page.locator('ul.notices li').count()).toBeGreaterThan(0)
})
