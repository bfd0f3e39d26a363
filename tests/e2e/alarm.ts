import { expect, test, type Browser, type Page } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 13 point 1, the alarm centre, in one edition: a reply to the reader's comment gives an alarm; the header's
 * bell shows the unread count after first paint and leads to /alarm, which lists the alarm (unread, its text in the
 * edition's language); opening it marks it read and goes to its page, and the bell's number is gone. Screenshots
 * of the bell and of the list at 390 and 1280 px go into the report.
 *
 * Demo data (every edition's seed): series 1 is published.
 */

/** A second reader, in their own browser context, replies to comment `commentId` of series 1. */
async function replyAsAnother(browser: Browser, id: string, baseURL: string, commentId: number) {
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await signIn(page, id, await newAccount(page.request))
  const res = await page.request.post('/api/v1/comment', {
    data: { contentsId: 1, parentId: commentId, text: 'Oui !' },
    headers: { origin: baseURL },
  })
  expect(res.status()).toBe(201)
  await context.close()
}

export function alarmSuite(id: string) {
  const t = messagesOf(id)
  const title = async (page: Page) =>
    ((await (await page.request.get('/api/v1/contents/1')).json()) as { data: { title: string } }).data.title

  test.describe(`alarm centre (${id})`, () => {
    test('a reply to my comment: the bell counts it, /alarm lists it unread, opening it marks it read', async ({
      page,
      browser,
      baseURL,
    }, info) => {
      await signIn(page, id, await newAccount(page.request))
      const posted = await page.request.post('/api/v1/comment', {
        data: { contentsId: 1, text: 'Super série' },
        headers: { origin: baseURL! },
      })
      expect(posted.status()).toBe(201)
      const commentId = ((await posted.json()) as { data: { id: number } }).data.id
      await replyAsAnother(browser, id, baseURL!, commentId)

      await page.goto('/')
      const bell = page.locator('[data-alarm-bell]')
      const one = await page.evaluate(() => new Intl.NumberFormat(document.documentElement.lang).format(1))
      await expect(bell.locator('.alarm-count')).toHaveText(one, { timeout: 15_000 }) // filled after first paint
      await expect(bell).toHaveAccessibleName(new RegExp(one))
      const box = (await bell.boundingBox())!
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44)
      await shoot(page, info, `bell-${id}`)

      await bell.click()
      await expect(page).toHaveURL(/\/alarm$/)
      await expect(page.getByRole('heading', { level: 1, name: t('alarm.title') })).toBeVisible()
      const text = t('alarm.text.commentReply').replace('{{series}}', await title(page))
      const item = page.getByRole('button', { name: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
      await expect(item).toBeVisible()
      await expect(item.getByText(t('alarm.unread'))).toBeVisible()
      await noSeriousViolations(page)
      await shoot(page, info, `list-${id}`)

      await item.focus()
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(/\/detail\/1$/)
      await page.goto('/alarm')
      await expect(page.getByText(t('alarm.unread'))).toHaveCount(0)
      await expect(page.getByRole('button', { name: t('alarm.markAll') })).toHaveCount(0)
      await expect(page.locator('[data-alarm-bell] .alarm-count')).toBeEmpty()
    })
  })
}
