import { expect, test, type APIRequestContext } from '@playwright/test'
import { askAge } from './helpers.ts'

/**
 * The jp edition's age check in Chromium (spec §4/§5, issue 3 item 7): a guest answers the yes/no popup by
 * keyboard, gets the not-logged-in-adult cookie and sees the adult episode; "no" closes the popup and sets nothing.
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

test('a guest answers yes by keyboard: the cookie Y opens the adult episode', async ({ page, context, request }) => {
  const { seriesId, episodeId } = await adultEpisode(request)
  expect((await request.get(`/api/v1/contents/${seriesId}`)).status()).toBe(403)
  await page.goto(`/viewer/${episodeId}`)
  await expect(page.locator('.viewer-adult')).toBeVisible()
  const dialog = page.getByRole('dialog', { name: '年齢確認' }) // the adult page asks by itself
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

test('"no" closes the popup and sets no cookie; the page can ask again', async ({ page, context, request }) => {
  const { episodeId } = await adultEpisode(request)
  await page.goto(`/viewer/${episodeId}`)
  await page.getByRole('button', { name: 'いいえ' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect((await context.cookies()).some((c) => c.name === 'not-login-adult')).toBe(false)
  await expect(page.locator('.viewer-adult')).toBeVisible()
  // the answer went back to the age store: asking again opens the popup again
  await askAge(page)
  await expect(page.getByRole('dialog', { name: '年齢確認' })).toBeVisible()
})
