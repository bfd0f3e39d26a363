import { expect, test, type APIRequestContext } from '@playwright/test'

/**
 * The jp edition's age check in Chromium (spec §4/§5, issue 3 item 7): a guest answers the yes/no popup by
 * keyboard, gets the not-logged-in-adult cookie and sees the adult episode; "no" closes the popup, sets nothing and calls the cancel handler.
 */

test.describe.configure({ mode: 'serial', timeout: 60_000 })

/** A free episode of an adult series, found through the API with the guest cookie at Y. */
async function adultEpisode(request: APIRequestContext) {
  const headers = { cookie: 'not-login-adult=Y' }
  const list = await (await request.get(`/api/v1/contents?tab=MATURE`, { headers })).json()
  for (const series of list.data.items) {
    const detail = await (await request.get(`/api/v1/contents/${series.id}`, { headers })).json()
    const free = detail.data.episodes.find((e: { free: boolean }) => e.free)
    if (free) return { seriesId: series.id as number, episodeId: free.id as number }
  }
  throw new Error('no free adult episode in the jp demo')
}

const openPopup = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.dispatchEvent(new CustomEvent('age:required', { detail: { returnTo: location.pathname } })))

test('a guest answers yes by keyboard: the cookie Y opens the adult episode', async ({ page, context, request }) => {
  const { seriesId, episodeId } = await adultEpisode(request)
  expect((await request.get(`/api/v1/contents/${seriesId}`)).status()).toBe(403)
  await page.goto(`/viewer/${episodeId}`)
  await expect(page.locator('.viewer-adult')).toBeVisible()
  await openPopup(page)
  const dialog = page.getByRole('dialog', { name: '年齢確認' })
  await expect(dialog).toContainText('18歳以上ですか？')
  await expect(dialog.getByRole('button', { name: 'いいえ' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(dialog.getByRole('button', { name: 'はい' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('article.viewer')).toBeVisible()
  await expect(page.locator('.viewer-adult')).toHaveCount(0)
  const cookie = (await context.cookies()).find((c) => c.name === 'not-login-adult')
  expect(cookie?.value).toBe('Y')
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(86_000) // spec §9: 86400 s
  expect((await page.request.get(`/api/v1/contents/${seriesId}`)).status()).toBe(200)
})

test('"no" closes the popup, sets no cookie and calls the cancel handler', async ({ page, context, request }) => {
  const { episodeId } = await adultEpisode(request)
  await page.goto(`/viewer/${episodeId}`)
  await page.evaluate(() => document.addEventListener('age:cancelled', () => document.body.setAttribute('data-cancelled', '1')))
  await openPopup(page)
  await page.getByRole('button', { name: 'いいえ' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.locator('body')).toHaveAttribute('data-cancelled', '1')
  expect((await context.cookies()).some((c) => c.name === 'not-login-adult')).toBe(false)
  await expect(page.locator('.viewer-adult')).toBeVisible()
})
