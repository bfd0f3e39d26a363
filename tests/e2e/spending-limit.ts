import { expect, test } from '@playwright/test'
import { editionOf, messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { shoot, signIn } from './steps.ts'
import { hydrated, lockedEpisode } from './lowbalance.helpers.ts'
import { newAccount } from './viewer.helpers.ts'
import { formatDate } from '../../src/lib/i18n/dates.ts'
import { spendingMonth } from '../../src/features/spending/spending.ts'

/**
 * Issue 37 point 5 in one edition: a new reader with 100 coins types a limit that is not a number on /setting (the form
 * comes back: the message beside the field, which has the focus), then sets 2 coins a month, which applies at once.
 * A rental of 2 coins goes through; at the next locked episode, renting is refused beside the action with the date the
 * month resets, and the balance does not move. /my shows the month: 2 spent on the series, nothing left. No serious axe
 * finding; screenshots at 390 and 1280 px.
 */
export function spendingLimitSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const resetsOn = formatDate(spendingMonth(new Date(), editionOf(id).timeZone).resetsAt, editionOf(id))
  /** "2 pièces", "عملتان": the edition's plural form of the count (no digits in the Arabic dual). */
  const coins = (n: number) =>
    t(`wallet.shop.coins_${new Intl.PluralRules(editionOf(id).locale).select(n)}`).replace('{{count}}', String(n))
  const balance = async (request: import('@playwright/test').APIRequestContext) =>
    ((await (await request.get('/api/v1/coin')).json()) as { data: { total: number } }).data.total

  test(`${id}: a reader sets a monthly spending limit and a rental past it is refused with when it resets`, async ({
    page,
    baseURL,
  }, info) => {
    test.setTimeout(120_000)
    await signIn(page, id, await newAccount(page.request))
    const coupon = await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL! } })
    expect(coupon.status()).toBe(200)

    await page.goto('/setting')
    const section = page.locator('#spending')
    const field = section.getByLabel(t('account.spending.field'))
    const save = section.getByRole('button', { name: t('account.spending.save') })
    await expect(section.getByTestId('spending-limit')).toHaveText(t('account.spending.none'))
    await field.fill('deux')
    await save.click()
    await page.waitForURL(/error=INVALID_PARAMETER/)
    await expect(field).toHaveAttribute('aria-invalid', 'true')
    await expect(field).toBeFocused()
    await expect(section.getByRole('alert')).toHaveText(t('account.spending.invalid'))
    await expect(field).toHaveValue('deux')
    await field.fill('2')
    await save.click()
    await page.waitForURL(/saved=spending/)
    await expect(section.getByTestId('spending-saved')).toHaveText(t('account.spending.savedNow'))
    await expect(section.getByTestId('spending-limit')).toHaveText(coins(2))
    await expect(field).toHaveValue('2')
    await noSeriousViolations(page)
    await section.scrollIntoViewIfNeeded()
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await section.evaluate((el) => el.scrollIntoView({ block: 'start' }))
      await page.waitForTimeout(200)
      await info.attach(`spending-setting-${id}-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }

    // a rental of 2 coins fits the limit exactly
    const first = await lockedEpisode(page, 6, (p) => p.freetime === null && p.offers.RENT.single?.coins === 2)
    await hydrated(page)
    await page.locator('.rent-or-buy button[type="submit"]').click()
    await expect(page.locator('.locked-episode')).toHaveCount(0)
    const left = await balance(page.request)

    // the next locked episode: renting it is refused beside the action, with the month's reset date
    await lockedEpisode(page, first + 1, (p) => p.freetime === null && p.offers.RENT.single?.affordable === true)
    await hydrated(page)
    await page.locator('.rent-or-buy button[type="submit"]').click()
    const alert = page.locator('#rob-error')
    await expect(alert).toBeFocused()
    await expect(alert).toContainText(resetsOn)
    expect(await balance(page.request)).toBe(left)
    await noSeriousViolations(page)
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await alert.evaluate((el) => el.scrollIntoView({ block: 'center' }))
      await page.waitForTimeout(200)
      await info.attach(`spending-refused-${id}-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }

    // /my: the month, by series
    await page.goto('/my#spending')
    const month = page.locator('#spending')
    await expect(month.getByRole('heading', { name: t('account.spending.monthTitle') })).toBeVisible()
    await expect(month.locator('tbody tr')).toHaveCount(1)
    await expect(month.locator('tbody td')).toHaveText(/2|٢/)
    await expect(month.getByTestId('spending-spent')).toHaveText(coins(2))
    await expect(month.getByTestId('spending-left')).toHaveText(coins(0))
    await expect(month.getByRole('link', { name: t('account.spending.changeLink') })).toHaveAttribute('href', '/setting#spending')
    await noSeriousViolations(page)
    await month.scrollIntoViewIfNeeded()
    await shoot(page, info, `spending-my-${id}`, { fullPage: true })
  })
}
