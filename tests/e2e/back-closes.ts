import { expect, test, type Locator, type Page } from '@playwright/test'
import { readTo, readerPhone, shot, started } from './locked-next.ts'

/**
 * Issue 12 point 6, spec §2 back order, shared by back-closes.fr.spec.ts and back-closes.ar.spec.ts: every React
 * popup (the viewer's key help and reading settings, the auto-unlock opt-in, the age popup) is on the shell's
 * layer stack. Browser Back closes the open popup and the page stays; Esc or the popup's own button closes it and
 * the next Back leaves the page (no dead history entry); focus goes back to the control that opened it. After the
 * age check succeeds, the page reloads without the popup's entry: one Back leaves it.
 */
export type Words = {
  edition: string
  help: string
  settings: string
  /** The viewer dialogs' close button. */
  close: string
  autoOffer: string
  autoTitle: string
  autoCancel: string
  ageTitle: string
  ageVerify: string
  ageCancel: string
  ageYear: string
  ageConfirm: string
}

const path = (page: Page) => new URL(page.url()).pathname

/** Opens the popup with `opener` (keyboard), then Back: the popup closes, the page stays, focus is on the opener. */
async function backCloses(page: Page, opener: Locator, popup: Locator) {
  const here = path(page)
  await opener.focus()
  await page.keyboard.press('Enter')
  await expect(popup).toBeVisible()
  // its history entry is in (just after the previous popup's step back, when one was still being taken)
  await expect.poll(() => page.evaluate(() => (history.state as { layer?: string } | null)?.layer ?? null)).not.toBeNull()
  await page.goBack()
  await expect(popup).toBeHidden()
  await expect(opener).toBeFocused()
  expect(path(page)).toBe(here)
}

/** Opens the popup again and closes it with `close` (Esc or its own button): focus back on the opener, same page. */
async function closesItself(page: Page, opener: Locator, popup: Locator, close: () => Promise<void>) {
  const here = path(page)
  await opener.focus()
  await page.keyboard.press('Enter')
  await expect(popup).toBeVisible()
  await close()
  await expect(popup).toBeHidden()
  await expect(opener).toBeFocused()
  await page.waitForTimeout(200) // the popup's own step back in history is asynchronous
  expect(path(page)).toBe(here)
}

/** Back now leaves the page for `previous` (the popup's history entries are all gone). */
async function backLeaves(page: Page, previous: string) {
  await page.goBack()
  await expect.poll(() => path(page)).toBe(previous)
}

export function backClosesSuite(w: Words) {
  test.describe(`${w.edition}: browser Back closes the open popup first (spec §2)`, () => {
    test('the viewer key help and reading settings on a desktop', async ({ browser, baseURL }, testInfo) => {
      const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto('/')
      await page.goto('/viewer/1')
      await started(page)
      const bar = page.locator('.viewer-bar')

      const help = bar.getByRole('button', { name: w.help })
      const helpDialog = page.getByRole('dialog', { name: w.help })
      await backCloses(page, help, helpDialog)
      await closesItself(page, help, helpDialog, async () => {
        await shot(page, testInfo, `${w.edition}-back-help-1280`)
        await page.keyboard.press('Escape')
      })

      const settings = bar.getByRole('button', { name: w.settings })
      const settingsDialog = page.getByRole('dialog', { name: w.settings })
      await backCloses(page, settings, settingsDialog)
      await closesItself(page, settings, settingsDialog, () => settingsDialog.getByRole('button', { name: w.close }).click())
      // two dialogs one after the other, each closed by Back once: the page is still there; then one Back leaves
      await backLeaves(page, '/')
      await context.close()
    })

    test('the age popup on a phone, then on a desktop, then confirmed', async ({ browser, baseURL }, testInfo) => {
      const page = await readerPhone(browser, baseURL!)
      await page.goto('/')
      await page.goto('/setting')
      const verify = page.getByRole('button', { name: w.ageVerify })
      const popup = page.getByRole('dialog', { name: w.ageTitle })
      await backCloses(page, verify, popup)
      await closesItself(page, verify, popup, async () => {
        await expect(popup.getByRole('button', { name: w.ageCancel }).last()).toBeVisible()
        await shot(page, testInfo, `${w.edition}-back-age-390`)
        await page.keyboard.press('Escape')
      })
      await backLeaves(page, '/')

      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto('/setting')
      await backCloses(page, verify, popup)
      await closesItself(page, verify, popup, async () => {
        await expect(popup.getByRole('button', { name: w.ageCancel }).last()).toBeVisible()
        await shot(page, testInfo, `${w.edition}-back-age-1280`)
        await popup.getByRole('button', { name: w.ageCancel }).last().click()
      })
      await backLeaves(page, '/')

      await page.goto('/setting')
      await verify.click()
      await popup.getByLabel(w.ageYear).selectOption('1990')
      await popup.locator('[data-day="5"]').click()
      await popup.getByRole('button', { name: w.ageConfirm }).click()
      // checked: the page comes back without the popup and its button; one Back leaves it
      await expect(verify).toHaveCount(0)
      await expect(popup).toHaveCount(0)
      expect(path(page)).toBe('/setting')
      await backLeaves(page, '/')
      await page.context().close()
    })

    test('the auto-unlock opt-in at a locked next episode on a phone', async ({ browser, baseURL }, testInfo) => {
      const page = await readerPhone(browser, baseURL!)
      await page.goto('/')
      await page.goto('/viewer/5')
      await started(page)
      const offer = page.getByRole('button', { name: w.autoOffer })
      await readTo(page, offer)
      const dialog = page.getByRole('dialog', { name: w.autoTitle })
      await backCloses(page, offer, dialog)
      await closesItself(page, offer, dialog, async () => {
        await shot(page, testInfo, `${w.edition}-back-auto-390`)
        await dialog.getByRole('button', { name: w.autoCancel }).click()
      })
      await closesItself(page, offer, dialog, () => page.keyboard.press('Escape'))
      await backLeaves(page, '/')
      await page.context().close()
    })
  })
}
