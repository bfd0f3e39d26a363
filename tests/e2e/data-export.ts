import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 37 point 6 in one edition: a new reader asks for their data on /setting; the page says it is being prepared, then
 * (the queue's consumer having run) offers the JSON file and the ZIP of CSVs; the JSON holds their account; the mail
 * links to the section; the form is gone for the day. No serious axe finding; screenshots at 390 and 1280 px.
 */
export function dataExportSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)

  test(`${id}: a reader exports their data from /setting and downloads it`, async ({ page }, info) => {
    test.setTimeout(120_000)
    const email = await newAccount(page.request)
    await signIn(page, id, email)
    await page.goto('/setting')
    const section = page.locator('#export')
    await section.getByRole('button', { name: t('account.export.request') }).click()
    await page.waitForURL(/\/setting#export$/)
    const state = section.getByTestId('export-state')
    await expect(state).toHaveAttribute('data-status', /PENDING|READY/)
    // the queue's consumer prepares it in the background: "refresh" until it is ready
    await expect(async () => {
      await page.reload()
      await expect(state).toHaveAttribute('data-status', 'READY', { timeout: 1000 })
    }).toPass({ timeout: 60_000 })
    await expect(section.getByRole('button', { name: t('account.export.request') })).toHaveCount(0)

    const json = section.getByRole('link', { name: t('account.export.json') })
    const data = (await (await page.request.get((await json.getAttribute('href'))!)).json()) as { account: { email: string }[] }
    expect(data.account[0]!.email).toBe(email)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('link', { name: t('account.export.csv') }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/\.zip$/)
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK')

    const outbox = await (await page.request.get('/dev/outbox')).text()
    const mail = outbox.split('<li').find((li) => li.includes(`data-recipient="${email}"`) && li.includes('/setting#export'))
    expect(mail).toBeTruthy()

    await noSeriousViolations(page)
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await section.evaluate((el) => el.scrollIntoView({ block: 'start' }))
      await page.waitForTimeout(200)
      await info.attach(`data-export-${id}-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }
  })
}
