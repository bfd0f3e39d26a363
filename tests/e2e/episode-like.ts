import { expect, test } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { signIn } from './steps.ts'
import { hydrated, newAccount } from './viewer.helpers.ts'

/**
 * Issue 37 point 3 in one edition: at the end of an episode a new reader likes it with the button (pressed, the count
 * one more at once), reads it again later (still pressed: their object keeps it), stops liking it from the keyboard;
 * without JavaScript the same button is a form that likes the episode and brings them back to its end. No serious axe
 * finding; screenshots of the episode's end at 390 and 1280 px.
 */
export function episodeLikeSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const action = t('viewer.like.action')

  test(`${id}: a reader likes an episode at its end, with and without JavaScript`, async ({ page, browser, baseURL }, info) => {
    test.setTimeout(120_000)
    const series = (await (await page.request.get('/api/v1/contents/1')).json()).data as { episodes: { id: number; free: boolean }[] }
    const episodeId = series.episodes.find((e) => e.free)!.id
    const email = await newAccount(page.request)
    await signIn(page, id, email)

    await page.goto(`/viewer/${episodeId}`)
    // the island's toggle, not the plain form a click before hydration would send (tested below without JavaScript)
    await hydrated(page)
    const button = page.locator(`#like-${episodeId}`).getByRole('button', { name: new RegExp(action) })
    await button.scrollIntoViewIfNeeded()
    await expect(button).toHaveAttribute('aria-pressed', 'false')
    const count = async () => Number(await button.getAttribute('data-likes'))
    const before = await count()
    await button.click()
    await expect(button).toHaveAttribute('aria-pressed', 'true')
    await expect.poll(count).toBe(before + 1)
    await noSeriousViolations(page)
    // the episode's end on screen at both widths
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await button.evaluate((el) => el.scrollIntoView({ block: 'center' }))
      await page.waitForTimeout(200)
      await info.attach(`episode-like-${id}-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }

    // read again: still liked (the reader's object keeps it); Space on the focused button stops liking it
    await page.reload()
    await hydrated(page)
    await button.scrollIntoViewIfNeeded()
    await expect(button).toHaveAttribute('aria-pressed', 'true')
    await button.focus()
    await page.keyboard.press('Space')
    await expect(button).toHaveAttribute('aria-pressed', 'false')
    await expect
      .poll(async () => ((await (await page.request.get(`/api/v1/viewer/${episodeId}`)).json()) as { data: { liked: boolean } }).data.liked)
      .toBe(false)

    // without JavaScript: the button is a form, back at the episode's end, liked
    const plain = await browser.newContext({ javaScriptEnabled: false, baseURL })
    const tab = await plain.newPage()
    await signIn(tab, id, email)
    await tab.goto(`/viewer/${episodeId}`)
    await tab
      .locator(`#like-${episodeId}`)
      .getByRole('button', { name: new RegExp(action) })
      .click()
    await tab.waitForURL(new RegExp(`/viewer/${episodeId}#like-${episodeId}$`))
    await expect(tab.locator(`#like-${episodeId}`).getByRole('button', { name: new RegExp(action) })).toHaveAttribute(
      'aria-pressed',
      'true',
    )
    await plain.close()
  })
}
