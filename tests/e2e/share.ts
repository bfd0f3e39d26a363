import { expect, test, type Browser, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { hydrated } from './viewer.helpers.ts'
import { PHONE as PHONE_VIEWPORT, PHONE_CONTEXT as PHONE, shoot } from './steps.ts'

/**
 * Issue 19 point 3, Share on the series page and in the viewer's bar, shared by share.fr.spec.ts and
 * share.ar.spec.ts. With a share sheet (`navigator.share` stubbed before the page's scripts) the sheet gets the
 * page's canonical URL (the edition's public origin, as in `<link rel=canonical>`), its title and a text; a
 * closed sheet (AbortError) shows nothing. Without one, the canonical link lands in the clipboard and the toast
 * says so in the edition's language, also when the Clipboard API refuses. Keyboard, 44 px, right to left. Seeded
 * demo: series 1, whose episode 1 is free. Screenshots of both pages at 390 and 1280 px go into the report.
 */
const SERIES = 1
const EPISODE = 1
/** A phone, as in immersive.ts: touch, so the viewer's bar shows no key help (the series page: 390 px, a mouse). */

/** What the stubbed share sheet received. */
type Shared = { title: string; text: string; url: string }[]

/**
 * A reader's browser: `sheet` stubs the share sheet (it records each call and then resolves, or rejects like a
 * reader closing it); `sheet: 'none'` removes it, as in a browser without one.
 */
async function open(browser: Browser, baseURL: string, sheet: 'shares' | 'cancels' | 'none', phone = false): Promise<Page> {
  const context = await browser.newContext({
    ...(phone ? PHONE : { viewport: PHONE.viewport }),
    baseURL,
    permissions: ['clipboard-read', 'clipboard-write'],
  })
  await context.addInitScript((mode) => {
    const w = window as unknown as { __shared: unknown[] }
    w.__shared = []
    if (mode === 'none') {
      delete (Navigator.prototype as { share?: unknown }).share
      delete (Navigator.prototype as { canShare?: unknown }).canShare
      return
    }
    Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value: () => true })
    Object.defineProperty(Navigator.prototype, 'share', {
      configurable: true,
      value: (data: unknown) => {
        w.__shared.push(data)
        return mode === 'cancels' ? Promise.reject(new DOMException('Share canceled', 'AbortError')) : Promise.resolve()
      },
    })
  }, sheet)
  return context.newPage()
}

const shared = (page: Page) => page.evaluate(() => (window as unknown as { __shared: Shared }).__shared)
const canonical = (page: Page) => page.locator('link[rel="canonical"]').getAttribute('href')
/** The page's title without the site's name: what a share is titled. */
const pageTitle = (page: Page) => page.evaluate(() => document.title.replace(/ \| [^|]+$/, ''))

async function detail(page: Page) {
  await page.goto(`/detail/${SERIES}`)
  await page.locator('button[data-share][data-ready]').waitFor()
}

async function viewer(page: Page) {
  await page.goto(`/viewer/${EPISODE}`)
  await hydrated(page)
  await page.locator('.viewer-bar').waitFor()
}

export function shareSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const { siteUrl, siteName } = JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')) as { siteUrl: string; siteName: string }
  const text = (title: string) => t('share.text').replace('{{title}}', title).replace('{{site}}', siteName)
  const rtl = id === 'ar'

  test.describe(`${id}: Share a series or an episode`, () => {
    test('series page: the share sheet gets the canonical URL, the title and a text; a closed sheet shows nothing', async ({
      browser,
      baseURL,
    }, info) => {
      const page = await open(browser, baseURL!, 'shares')
      await detail(page)
      const button = page.getByRole('button', { name: t('share.button'), exact: true })
      await expect(button).toBeVisible()
      const box = (await button.boundingBox())!
      expect(box.height).toBeGreaterThanOrEqual(44)
      expect(box.width).toBeGreaterThanOrEqual(44)
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(390)
      // by keyboard: a real button
      await button.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => shared(page)).toHaveLength(1)
      const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim()
      const url = new URL(`/detail/${SERIES}`, siteUrl).href
      expect(await canonical(page)).toBe(url)
      expect((await shared(page))[0]).toEqual({ title, text: text(title), url })
      await expect(page.locator('#toast')).toBeHidden()
      await noSeriousViolations(page)
      await shoot(page, info, `${id}-detail-share`, { fullPage: false, after: PHONE_VIEWPORT })
      await page.context().close()

      const cancelling = await open(browser, baseURL!, 'cancels')
      await detail(cancelling)
      await cancelling.evaluate(() => navigator.clipboard.writeText('before'))
      await cancelling.getByRole('button', { name: t('share.button'), exact: true }).click()
      await expect.poll(() => shared(cancelling)).toHaveLength(1)
      await cancelling.waitForTimeout(500)
      await expect(cancelling.locator('#toast')).toBeHidden()
      expect(await cancelling.evaluate(() => navigator.clipboard.readText())).toBe('before')
      await cancelling.context().close()
    })

    test('series page without a share sheet: the canonical link is copied and the toast says so, also when the Clipboard API refuses', async ({
      browser,
      baseURL,
    }, info) => {
      const page = await open(browser, baseURL!, 'none')
      await detail(page)
      expect(await page.evaluate(() => 'share' in navigator)).toBe(false)
      await page.getByRole('button', { name: t('share.button'), exact: true }).click()
      await expect(page.locator('#toast')).toHaveText(t('share.copied'))
      await expect(page.locator('#toast')).toBeVisible()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(`/detail/${SERIES}`, siteUrl).href)
      await info.attach(`${id}-detail-copied-390`, { body: await page.screenshot(), contentType: 'image/png' })
      // the Clipboard API refuses (no permission): the copy command still copies the link, focus stays on the button
      await page.evaluate(async () => {
        await navigator.clipboard.writeText('before')
        Object.defineProperty(navigator.clipboard, 'writeText', {
          configurable: true,
          value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
        })
      })
      await expect(page.locator('#toast')).toBeHidden({ timeout: 5000 })
      await page.getByRole('button', { name: t('share.button'), exact: true }).click()
      await expect(page.locator('#toast')).toHaveText(t('share.copied'))
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(`/detail/${SERIES}`, siteUrl).href)
      await expect(page.getByRole('button', { name: t('share.button'), exact: true })).toBeFocused()
      await page.context().close()
    })

    test("viewer: Share in the episode's bar shares the episode on screen by its canonical URL; without a sheet the link is copied", async ({
      browser,
      baseURL,
    }, info) => {
      const page = await open(browser, baseURL!, 'shares', true)
      await viewer(page)
      const bar = page.locator('.viewer-bar')
      const button = bar.getByRole('button', { name: t('share.button'), exact: true })
      await expect(button).toBeVisible()
      const box = (await button.boundingBox())!
      expect(box.width).toBeGreaterThanOrEqual(44)
      expect(box.height).toBeGreaterThanOrEqual(44)
      // at the end edge of the bar (the left one in a right-to-left edition), the episode title keeps its room
      const back = (await bar.locator('.viewer-bar-back').boundingBox())!
      if (rtl) expect(box.x).toBeLessThan(back.x)
      else expect(box.x).toBeGreaterThan(back.x)
      expect((await bar.locator('.viewer-bar-title').boundingBox())!.width).toBeGreaterThanOrEqual(60)
      await button.click()
      await expect.poll(() => shared(page)).toHaveLength(1)
      const url = new URL(`/viewer/${EPISODE}`, siteUrl).href
      expect(await canonical(page)).toBe(url)
      const title = await pageTitle(page)
      expect((await shared(page))[0]).toEqual({ title, text: text(title), url })
      await expect(page.locator('#toast')).toBeHidden()
      await shoot(page, info, `${id}-viewer-share`, { fullPage: false, after: PHONE_VIEWPORT })
      await page.context().close()

      const copying = await open(browser, baseURL!, 'none', true)
      await viewer(copying)
      await copying
        .locator('.viewer-bar')
        .getByRole('button', { name: t('share.button'), exact: true })
        .click()
      await expect(copying.locator('#toast')).toHaveText(t('share.copied'))
      expect(await copying.evaluate(() => navigator.clipboard.readText())).toBe(url)
      await info.attach(`${id}-viewer-copied-390`, { body: await copying.screenshot(), contentType: 'image/png' })
      await copying.context().close()

      const cancelling = await open(browser, baseURL!, 'cancels', true)
      await viewer(cancelling)
      await cancelling
        .locator('.viewer-bar')
        .getByRole('button', { name: t('share.button'), exact: true })
        .click()
      await expect.poll(() => shared(cancelling)).toHaveLength(1)
      await cancelling.waitForTimeout(500)
      await expect(cancelling.locator('#toast')).toBeHidden()
      await cancelling.context().close()
    })
  })
}
