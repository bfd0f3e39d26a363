import { expect, test, type Page } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 12 point 5, the discreet library, in one edition: a reader hides a series from a shelf (a plain form
 * whose button names the series), it leaves /library/recent, /library/favorite and home's continue-reading row,
 * stays readable, and comes back from /library/hidden or from the shelf's undo button. Screenshots of the shelf
 * after hiding and of the hidden list at 390 and 1280 px go into the report.
 *
 * Demo data (every edition's seed): series 1 and 2 are published, episode 1 of series 1 is free.
 */

export function hiddenLibrarySuite(id: string) {
  const t = messagesOf(id)
  const words = (key: string, vars: Record<string, string | number>) => t(key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]))

  test.describe(`discreet library (${id})`, () => {
    /** A new reader who read into series 1 and favourited series 1 and 2; the two titles. */
    async function reader(page: Page, baseURL: string) {
      await signIn(page, id, await newAccount(page.request))
      const headers = { origin: baseURL }
      expect((await page.request.post('/api/v1/viewer/1/progress', { data: { position: 0.5 }, headers })).status()).toBe(200)
      for (const s of [1, 2]) expect((await page.request.post(`/api/v1/library/favorite/${s}`, { headers })).status()).toBe(200)
      const title = async (s: number) =>
        ((await (await page.request.get(`/api/v1/contents/${s}`)).json()) as { data: { title: string } }).data.title
      return [await title(1), await title(2)] as const
    }

    test('hide from a shelf: gone from recent, favourites and continue reading, still readable, back from the hidden list', async ({
      page,
      baseURL,
    }, info) => {
      const [one, two] = await reader(page, baseURL!)
      const continueRow = page.getByRole('region', { name: t('home.continue') })
      await page.goto('/')
      await expect(continueRow.getByText(one)).toBeVisible({ timeout: 15_000 }) // filled after first paint
      const shelf = await page.goto('/library/recent')
      expect(shelf!.headers()['cache-control']).toBe('private, no-store') // personal, never kept by the edge cache
      const hide = page.getByRole('button', { name: words('shelves.hidden.hideSeries', { title: one }), exact: true })
      const box = (await hide.boundingBox())!
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44)
      await hide.focus()
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(/\/library\/recent\?hidden=1$/)
      await expect(page.getByRole('status').filter({ hasText: words('shelves.hidden.done', { title: one }) })).toBeVisible()
      await expect(page.locator('main h2', { hasText: one })).toHaveCount(0)
      await expect(page.getByText(t('library.recent.empty'))).toBeVisible()
      await noSeriousViolations(page)
      await shoot(page, info, `recent-after-hide-${id}`)

      await page.goto('/library/favorite')
      await expect(page.getByRole('link', { name: two })).toBeVisible()
      await expect(page.getByRole('link', { name: one })).toHaveCount(0)
      await page.goto('/')
      // the reader's only read series is hidden: the row keeps its place and says there is nothing to continue
      await expect(page.getByRole('region', { name: t('home.continue') }).getByText(t('library.recent.empty'))).toBeVisible()
      // hidden, not taken away: the episode still opens
      await page.goto('/viewer/1')
      await expect(page.locator('#viewer-content')).toBeVisible()

      await page.goto('/library/favorite')
      await page.getByRole('link', { name: t('shelves.tab.hidden') }).click()
      await expect(page).toHaveURL(/\/library\/hidden$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('shelves.hidden.title'))
      await expect(page.getByText(t('shelves.hidden.intro'))).toBeVisible()
      await noSeriousViolations(page)
      await shoot(page, info, `hidden-list-${id}`)
      await page.getByRole('button', { name: words('shelves.hidden.showSeries', { title: one }), exact: true }).click()
      await expect(page).toHaveURL(/\/library\/hidden\?shown=1$/)
      await expect(page.getByRole('status').filter({ hasText: t('shelves.hidden.shown') })).toBeVisible()
      await expect(page.getByText(t('shelves.hidden.empty'))).toBeVisible()

      await page.goto('/library/recent')
      await expect(page.locator('main h2', { hasText: one })).toBeVisible()
      await page.goto('/')
      await expect(continueRow.getByText(one)).toBeVisible({ timeout: 15_000 })
    })

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false })

      test('the undo button on the shelf brings the series straight back', async ({ page, baseURL }) => {
        const [, two] = await reader(page, baseURL!)
        await page.goto('/library/favorite')
        await page.getByRole('button', { name: words('shelves.hidden.hideSeries', { title: two }), exact: true }).click()
        await expect(page).toHaveURL(/\/library\/favorite\?hidden=2$/)
        await expect(page.getByRole('link', { name: two })).toHaveCount(0)
        await page.getByRole('button', { name: t('shelves.hidden.undo'), exact: true }).click()
        await expect(page).toHaveURL(/\/library\/favorite\?shown=1$/)
        await expect(page.getByRole('link', { name: two })).toBeVisible()
      })
    })
  })
}
