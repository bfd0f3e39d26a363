import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { formatDate } from '../../src/lib/i18n/dates.ts'
import { balanceElsewhere, noSeriousViolations } from './helpers.ts'

/**
 * Issue 12 points 1 and 3 in one edition: the second demo reader sees the wallet's expiry lines (`GET /api/v1/coin`'s
 * list) with their dates on /my, exchanges points through the popup
 * (Esc and Back close it first; an amount under the minimum is refused with the edition's message and nothing
 * moves) and, without JavaScript, through the popup's plain form on /history/mileage.
 */
export function mileageSuite(id: string) {
  const edition = parseEdition(id, JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')))
  const messages: Record<string, string> = {}
  for (const file of readdirSync(`editions/${id}/messages`))
    Object.assign(messages, JSON.parse(readFileSync(`editions/${id}/messages/${file}`, 'utf8')))
  /** The message as the page writes it: the plural form of `count` (its digits in the edition's locale) and the other values. */
  const t = (key: string, values: Record<string, string | number> = {}) => {
    const count = values.count
    const text = typeof count === 'number' ? messages[`${key}_${new Intl.PluralRules(edition.locale).select(count)}`] : messages[key]
    if (text === undefined) throw new Error(`${id}: no message ${key}`)
    return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => {
      const v = values[k]!
      return typeof v === 'number' ? new Intl.NumberFormat(edition.locale).format(v) : v
    })
  }

  type Coin = { total: number; mileage: number; freeCoin: number; expiring: { type: string; amount: number; expiresAt: string }[] }

  /** The second demo account, signed in (its seeded 100,000 points are moved by these tests only; the first's are counted elsewhere). */
  async function signIn(page: Page, baseURL: string): Promise<Coin> {
    const res = await page.request.post('/api/v1/auth/web/sign-in', {
      form: { email: 'minor@example.com', password: 'Minor-2026!', callback: '/my' },
      headers: { origin: baseURL },
      maxRedirects: 0,
    })
    expect(res.status()).toBe(303)
    return wallet(page)
  }
  const wallet = async (page: Page) => ((await (await page.request.get('/api/v1/coin')).json()) as { data: Coin }).data
  /** The wallet's expiry lines as /my must write them: `GET /api/v1/coin`'s `expiring` list in the edition's words and dates. */
  const lines = (coin: Coin) =>
    coin.expiring.map((e) => t(`wallet.expiring.${e.type}`, { count: e.amount, date: formatDate(e.expiresAt, edition) }))
  const in30days = () => formatDate(new Date(Date.now() + 30 * 86_400_000), edition)

  async function shots(page: Page, info: TestInfo, name: string) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      const path = info.outputPath(`${id}-${name}-${width}.png`)
      await page.screenshot({ path, fullPage: true })
      await info.attach(`${id}-${name}-${width}`, { path, contentType: 'image/png' })
    }
  }

  const points = (n: number) => t('wallet.exchange.balance', { count: n })
  const dialog = (page: Page) => page.locator('#mileage-exchange')

  test('the wallet lists its next expiries; the popup exchanges points, Esc and Back close it, an amount under the minimum changes nothing', async ({
    page,
    baseURL,
  }, info) => {
    const before = await signIn(page, baseURL!)
    expect(before.mileage).toBeGreaterThanOrEqual(3000)
    await page.goto('/my')
    await expect(page.locator('html')).toHaveAttribute('dir', edition.direction)
    expect(before.expiring.length).toBeGreaterThan(0)
    await expect(page.locator('#wallet li[data-expires]')).toHaveText(lines(before))
    await expect(page.getByTestId('mileage-balance')).toHaveText(points(before.mileage))
    await shots(page, info, 'my-wallet')
    await page.setViewportSize({ width: 390, height: 900 })

    const open = page.getByRole('link', { name: t('wallet.exchange.open') })
    await open.click()
    await expect(dialog(page)).toBeVisible()
    expect(await dialog(page).evaluate((d) => d.matches(':modal'))).toBe(true)
    await expect(page.locator('#exchange-preview')).toHaveText(
      t('wallet.exchange.preview', { count: Math.floor(before.mileage / 200), date: in30days() }),
    )
    await noSeriousViolations(page)
    await shots(page, info, 'popup')
    await page.keyboard.press('Escape')
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL(/\/my$/)
    await open.click()
    await expect(dialog(page)).toBeVisible()
    await page.goBack()
    await expect(dialog(page)).toBeHidden()
    await expect(page).toHaveURL(/\/my$/)

    // under the minimum: the server refuses, the page reloads (spec §8) with the popup and the edition's message
    await open.click()
    const amount = page.getByLabel(t('wallet.exchange.amount'))
    await amount.fill('2000')
    await expect(page.locator('#exchange-preview')).toHaveText(t('wallet.exchange.notExchangeable', { minimum: 3000, step: 200 }))
    await page.getByRole('button', { name: t('wallet.exchange.submit') }).click()
    await expect(page).toHaveURL(/\/my\?error=EXCHANGE_MILEAGE_INSUFFICIENT#mileage-exchange$/)
    await expect(dialog(page).getByRole('alert').first()).toHaveText(t('error.EXCHANGE_MILEAGE_INSUFFICIENT'))
    expect(await dialog(page).evaluate((d) => d.matches(':modal'))).toBe(true)
    await expect(page.getByTestId('mileage-balance')).toHaveText(points(before.mileage))
    expect((await wallet(page)).mileage).toBe(before.mileage)

    const elsewhere = await balanceElsewhere(page)
    await amount.fill('3000')
    await expect(page.locator('#exchange-preview')).toHaveText(t('wallet.exchange.preview', { count: 15, date: in30days() }))
    await page.getByRole('button', { name: t('wallet.exchange.submit') }).click()
    await expect(page).toHaveURL(/\/my\?exchanged=15#exchange-done$/)
    await expect(page.locator('#exchange-done')).toHaveText(t('wallet.exchange.done', { count: 15 }))
    await expect(page.getByTestId('mileage-balance')).toHaveText(points(before.mileage - 3000))
    await expect(dialog(page)).toBeHidden()
    const after = await wallet(page)
    expect(after.mileage).toBe(before.mileage - 3000)
    await expect(page.locator('#wallet li[data-expires]')).toHaveText(lines(after))
    await elsewhere.shows(after.total) // the exchange went through the session store to the reader's other tab
    await elsewhere.close()
    await shots(page, info, 'my-exchanged')
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })
    test('the popup is a plain form on /history/mileage: under the minimum refused with the message and the amount kept, then exchanged', async ({
      page,
      baseURL,
    }, info) => {
      const before = await signIn(page, baseURL!)
      await page.goto('/history/mileage')
      await page.getByRole('link', { name: t('wallet.exchange.open') }).click()
      await expect(page).toHaveURL(/\/history\/mileage\?exchange=1#mileage-exchange$/)
      const amount = page.getByLabel(t('wallet.exchange.amount'))
      await amount.fill('2800')
      await page.getByRole('button', { name: t('wallet.exchange.submit') }).click()
      await expect(page).toHaveURL(/\/history\/mileage\?error=EXCHANGE_MILEAGE_INSUFFICIENT#mileage-exchange$/)
      await expect(dialog(page).getByRole('alert')).toHaveText(t('error.EXCHANGE_MILEAGE_INSUFFICIENT'))
      await expect(amount).toHaveValue('2800')
      await expect(amount).toHaveAttribute('aria-invalid', 'true')
      await expect(page.getByTestId('mileage-balance')).toHaveText(points(before.mileage))
      expect((await wallet(page)).mileage).toBe(before.mileage)
      await shots(page, info, 'nojs-refused')

      await amount.fill('3000')
      await page.getByRole('button', { name: t('wallet.exchange.submit') }).click()
      await expect(page).toHaveURL(/\/history\/mileage\?exchanged=15#exchange-done$/)
      await expect(page.locator('#exchange-done')).toHaveText(t('wallet.exchange.done', { count: 15 }))
      await expect(page.getByTestId('mileage-balance')).toHaveText(points(before.mileage - 3000))
      await expect(page.locator('tbody tr[data-source="MILEAGE"]').first()).toContainText(t('wallet.source.MILEAGE'))
    })
  })
}
