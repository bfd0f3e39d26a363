import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { newAccount, PASSWORD } from './viewer.helpers.ts'
import { PHONE, shoot } from './steps.ts'

/**
 * Issue 12 point 7, the settings that apply on the web (/setting), shared by settings.fr.spec.ts and
 * settings.ar.spec.ts: episodes saved offline through the viewer's own button are listed (series, episode, a
 * rental's end) and removed one by one; reading settings are cleared (the viewer is back to its defaults);
 * "clear everything" asks first, shows its progress and empties the device. Without JavaScript the e-mail
 * consent is toggled, the version and the company are shown and the device section says it needs JavaScript.
 * Seeded demo: series 8 is a novel (TEXT, no images: every edition's test server can save it) whose episodes
 * 87 and 88 (nos 4 and 5) are paid. Screenshots at 390 and 1280 px go into the report.
 */
const NOVEL = { owned: 87, rented: 88 }
/** Series 8's title in each edition tested. */
const NOVEL_SERIES = { fr: 'Le Roman de la libraire', ar: 'رواية بائعة الكتب' }

export async function signedIn(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, ...options })
  const page = await context.newPage()
  const email = await newAccount(page.request)
  const res = await page.request.post('/api/v1/auth/web/sign-in', {
    form: { email, password: PASSWORD, callback: '/' },
    headers: { origin: baseURL },
    maxRedirects: 0,
  })
  expect(res.status()).toBeLessThan(400)
  return page
}

const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '')
const savedKeys = (page: Page) =>
  page.evaluate(async () => (await (await caches.open('viewer-offline-v1')).keys()).map((r) => new URL(r.url).pathname))

export function settingsSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const edition = JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')) as {
    direction: string
    company: { name: string; address: string; registration: string; contact: string }
  }
  const series = NOVEL_SERIES[id]

  test.describe(`${id}: settings that apply on the web`, () => {
    test('saved episodes are listed and removed; reading settings and then everything are cleared', async ({ browser, baseURL }, info) => {
      test.setTimeout(120_000)
      const page = await signedIn(browser, baseURL!)
      expect(
        (await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL! } })).status(),
      ).toBe(200)
      for (const [episodeId, kind] of [
        [NOVEL.owned, 'POSSESSION'],
        [NOVEL.rented, 'RENT'],
      ] as const) {
        const res = await page.request.post('/api/v1/purchase', {
          data: { episodeIds: [episodeId], kind },
          headers: { origin: baseURL!, 'idempotency-key': `e2e-settings-${Date.now()}-${episodeId}` },
        })
        expect(res.status()).toBe(200)
      }
      // saved through the viewer's own button; a reading setting chosen in its panel
      for (const episodeId of [NOVEL.owned, NOVEL.rented]) {
        await page.goto(`/viewer/${episodeId}`)
        await page.locator('.viewer-bar').waitFor({ state: 'attached' })
        await page.getByRole('button', { name: t('viewer.offline.save') }).click()
        await expect(page.locator('.viewer-offline [role="status"]')).toHaveText(t('viewer.offline.saved'))
      }
      await page.getByRole('button', { name: t('viewer.settings.open') }).click()
      await page
        .getByRole('dialog', { name: t('viewer.settings.title') })
        .getByRole('radio', { name: t('viewer.settings.serif') })
        .check()
      await expect(page.locator('#viewer-content')).toHaveCSS('font-family', /Georgia/)

      await page.goto('/setting')
      await expect(page.locator('html')).toHaveAttribute('dir', edition.direction)
      const list = page.getByRole('list', { name: t('account.setting.offlineTitle') })
      const rows = list.getByRole('listitem')
      await expect(rows).toHaveCount(2)
      // the rental first, with its end; then the owned episode
      await expect(rows.nth(0)).toContainText(series)
      await expect(rows.nth(0)).toContainText(fill(t('viewer.rentedUntil'), { date: '' }).trim())
      await expect(rows.nth(1)).toContainText(t('account.setting.offlineOwned'))
      await expect(rows.nth(1).getByRole('link')).toHaveAttribute('href', `/viewer/${NOVEL.owned}`)
      await expect(page.getByText(t('account.setting.deviceNeedsJs'))).toBeHidden()
      await noSeriousViolations(page)
      await shoot(page, info, `${id}-setting-saved`, { fullPage: true, after: PHONE })

      // remove the owned one: gone from the list and from the device, focus stays in the list
      const ownedName = (await rows.nth(1).locator('strong').textContent())!
      await page.getByRole('button', { name: fill(t('account.setting.offlineRemoveLabel'), { episode: ownedName, series }) }).click()
      await expect(rows).toHaveCount(1)
      await expect(
        page.getByRole('status').filter({ hasText: fill(t('account.setting.offlineRemoved'), { episode: ownedName }) }),
      ).toBeVisible()
      await expect(rows.nth(0).getByRole('button')).toBeFocused()
      expect((await savedKeys(page)).filter((p) => p.includes(`/${NOVEL.owned}`))).toEqual([])
      expect((await savedKeys(page)).filter((p) => p.includes(`/${NOVEL.rented}`)).length).toBeGreaterThan(1)

      // reading settings: cleared on the device, the viewer is back to its default font
      await page.getByRole('button', { name: t('account.setting.readingClear') }).click()
      await expect(page.getByRole('status').filter({ hasText: t('account.setting.readingCleared') })).toBeVisible()
      expect(await page.evaluate((key) => localStorage.getItem(key), `viewer-settings:${id}`)).toBeNull()
      expect((await page.context().cookies()).map((c) => c.name)).not.toContain(`viewer-settings_${id}`)

      // everything: a confirmation first (dismissed: nothing happens), then progress and an empty device
      page.once('dialog', (d) => void d.dismiss())
      await page.getByRole('button', { name: t('account.setting.clearAll') }).click()
      await expect(rows).toHaveCount(1)
      page.once('dialog', (d) => {
        expect(d.message()).toBe(t('account.setting.clearAllConfirm'))
        void d.accept()
      })
      await page.getByRole('button', { name: t('account.setting.clearAll') }).click()
      await expect(page.getByRole('status').filter({ hasText: t('account.setting.cleared') })).toBeVisible()
      await expect(rows).toHaveCount(0)
      await expect(page.getByText(t('account.setting.offlineEmpty'))).toBeVisible()
      expect(await savedKeys(page)).toEqual([])
      await shoot(page, info, `${id}-setting-cleared`, { fullPage: true, after: PHONE })

      await page.goto(`/viewer/${NOVEL.owned}`)
      await page.locator('.viewer-bar').waitFor({ state: 'attached' })
      await expect(page.locator('#viewer-content')).not.toHaveCSS('font-family', /Georgia/)
      await page.context().close()
    })

    test('without JavaScript: e-mail consent toggled, version and company shown, the device part says it needs JavaScript', async ({
      browser,
      baseURL,
    }, info) => {
      test.setTimeout(90_000)
      const page = await signedIn(browser, baseURL!, { javaScriptEnabled: false })
      await page.goto('/setting')
      const consent = page.getByRole('checkbox', { name: t('account.push.mail') })
      await expect(consent).not.toBeChecked()
      await consent.check()
      await page.getByRole('button', { name: t('account.setting.mailSave') }).click()
      await expect(page).toHaveURL(/\/setting\?saved=mail$/)
      await expect(page.getByRole('status').filter({ hasText: t('account.setting.mailSaved') })).toBeVisible()
      await expect(consent).toBeChecked()
      // the push page agrees (one consent, two pages)
      await page.getByRole('link', { name: t('account.setting.pushLink') }).click()
      await expect(page.getByRole('checkbox', { name: t('account.push.mail') })).toBeChecked()
      await page.goto('/setting')
      await consent.uncheck()
      await page.getByRole('button', { name: t('account.setting.mailSave') }).click()
      await expect(page).toHaveURL(/\/setting\?saved=mail$/)
      await expect(consent).not.toBeChecked()

      await expect(page.getByText(t('account.setting.deviceNeedsJs'))).toBeVisible()
      await expect(page.getByRole('button', { name: t('account.setting.clearAll') })).toBeHidden()
      await expect(page.getByRole('definition').filter({ hasText: /^[0-9a-z]+$/ })).toHaveCount(1) // the build id
      await expect(page.getByText(t('account.setting.version'), { exact: true })).toBeVisible()
      for (const value of [edition.company.name, edition.company.address, edition.company.registration])
        await expect(page.getByText(value, { exact: true })).toBeVisible()
      await expect(page.getByRole('link', { name: edition.company.contact })).toHaveAttribute('href', `mailto:${edition.company.contact}`)
      // (axe runs in the test above: it needs JavaScript in the page)
      await shoot(page, info, `${id}-setting-nojs`, { fullPage: true, after: PHONE })
      await page.context().close()
    })
  })
}
