import { expect, test, type Page } from '@playwright/test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { signedIn } from './settings.ts'
import { PHONE, shoot } from './steps.ts'
import { CHROMIUM_FLAGS } from '../../scripts/chromium.ts'
import { fullChromium } from '../../scripts/chromium-full.ts'

/**
 * Issue 19 point 1, the site as an installable app, in one edition:
 * - Chromium itself (DevTools protocol, `Page.getInstallabilityErrors`) finds nothing that keeps home from being
 *   installed, and the manifest it reads is the edition's (name, language, direction, colours), with PNG icons of
 *   the sizes it declares (every edition: install.<id>.spec.ts);
 * - with `full` (fr, ar): offline, a page never visited opens the start page, which lists the episode saved on the
 *   device and not the saved rental that has ended, and its link opens the saved episode; /my offers installing
 *   only once the browser fires `beforeinstallprompt` (headless Chromium never does: the test fires one with a
 *   `prompt()` stub), and its button calls `prompt()`. Screenshots at 390 and 1280 px go into the report.
 *
 * Seeded demo (every edition): series 8 is a novel (TEXT, no images: every edition's test server can save it)
 * whose episodes 87 and 88 are paid.
 */
const NOVEL = { owned: 87, rented: 88 }

type Manifest = {
  name: string
  short_name: string
  description: string
  lang: string
  dir: string
  start_url: string
  scope: string
  display: string
  theme_color: string
  background_color: string
  icons: { src: string; sizes: string; type: string; purpose: string }[]
}

/** The install prompt Chromium would fire, with a `prompt()` that counts its calls and a choice the test makes. */
const fireInstallPrompt = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { prompted: number; choose: (outcome: string) => void }
    w.prompted = 0
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => void w.prompted++,
      userChoice: new Promise<{ outcome: string }>((resolve) => (w.choose = (outcome) => resolve({ outcome }))),
    })
    window.dispatchEvent(event)
    return event.defaultPrevented
  })

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)

export function installSuite(id: string, full: boolean) {
  const t = messagesOf(id)
  const edition = JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')) as {
    siteName: string
    locale: string
    direction: string
    theme: { primary: string; background: string }
  }

  test.describe(`${id}: the site as an installable app`, () => {
    test('Chromium finds home installable; the manifest is the edition’s and its icons are PNGs of their sizes', async ({
      playwright,
      request,
      baseURL,
    }) => {
      // a profile on disk: Chromium never installs from an incognito profile, which every new context of the suite is.
      // The headless shell the other tests run has no install checks (it answers [] to everything): this test runs
      // Debian's full Chromium, which `npm test` fetches beforehand (scripts/chromium-full.ts)
      const chromium = await fullChromium()
      if (chromium.path === null) throw new Error(`no full Chromium to run Chromium's install checks: ${chromium.reason}`)
      const profile = mkdtempSync(join(tmpdir(), 'e2e-install-'))
      const context = await playwright.chromium.launchPersistentContext(profile, {
        executablePath: chromium.path,
        args: CHROMIUM_FLAGS,
        baseURL,
      })
      const page = context.pages()[0] ?? (await context.newPage())
      const cdp = await context.newCDPSession(page)
      const errors = async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors.map((e) => e.errorId)
      // the check is live: a document without the manifest link is refused
      await page.goto('/robots.txt')
      expect(await errors()).toContain('no-manifest')
      await page.goto('/')
      await expect.poll(errors, { timeout: 15_000 }).toEqual([])
      const read = await cdp.send('Page.getAppManifest')
      expect(read.errors).toEqual([]) // Chromium's own parser
      expect(new URL(read.url).pathname).toBe('/manifest.webmanifest')
      await context.close()
      rmSync(profile, { recursive: true, force: true })

      const res = await request.get('/manifest.webmanifest')
      expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/)
      const manifest = (await res.json()) as Manifest
      expect(manifest).toMatchObject({
        name: edition.siteName,
        short_name: t('site.shortName'),
        description: t('site.description'),
        lang: edition.locale,
        dir: edition.direction,
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: edition.theme.primary,
        background_color: edition.theme.background,
      })
      expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
      const apple = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(await (await request.get('/')).text())?.[1]
      for (const [src, size] of [...manifest.icons.map((i) => [i.src, Number(i.sizes.split('x')[0])] as const), [apple!, 180] as const]) {
        const icon = await request.get(src)
        expect(icon.status(), src).toBe(200)
        expect(icon.headers()['content-type'], src).toBe('image/png')
        const meta = await sharp(await icon.body()).metadata()
        expect([meta.format, meta.width, meta.height], src).toEqual(['png', size, size])
      }
    })

    if (!full) return

    test('offline, a page never visited opens the start page: the saved episode, not the ended rental', async ({
      browser,
      baseURL,
    }, info) => {
      test.setTimeout(120_000)
      const page = await signedIn(browser, baseURL!)
      const context = page.context()
      expect(
        (await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL! } })).status(),
      ).toBe(200)
      const names: Record<number, string> = {}
      for (const [episodeId, kind] of [
        [NOVEL.owned, 'POSSESSION'],
        [NOVEL.rented, 'RENT'],
      ] as const) {
        const res = await page.request.post('/api/v1/purchase', {
          data: { episodeIds: [episodeId], kind },
          headers: { origin: baseURL!, 'idempotency-key': `e2e-install-${Date.now()}-${episodeId}` },
        })
        expect(res.status()).toBe(200)
        // saved through the viewer's own button
        await page.goto(`/viewer/${episodeId}`)
        await page.locator('.viewer-bar').waitFor({ state: 'attached' })
        names[episodeId] = (await page.locator('#episode-title').textContent())!.trim()
        await page.getByRole('button', { name: t('viewer.offline.save') }).click()
        await expect(page.locator('.viewer-offline [role="status"]')).toHaveText(t('viewer.offline.saved'))
      }
      // saving registered the worker over the whole site, which keeps the start page
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const whole = await navigator.serviceWorker.getRegistration('/')
              return new URL(whole?.scope ?? location.origin + '/none').pathname === '/' && whole?.active !== null
                ? Boolean(await caches.match('/offline'))
                : false
            }),
          { timeout: 15_000 },
        )
        .toBe(true)
      // time passes: the rental's end (kept with the saved copy) is now behind us (as viewer.offline.fr.spec.ts)
      await page.evaluate(async (rented) => {
        const cache = await caches.open('viewer-offline-v1')
        const meta = (await (await cache.match(`/__viewer-offline/${rented}`))!.json()) as Record<string, unknown>
        await cache.put(
          `/__viewer-offline/${rented}`,
          new Response(JSON.stringify({ ...meta, expiresAt: new Date(Date.now() - 1000).toISOString() })),
        )
      }, NOVEL.rented)

      await context.setOffline(true)
      const res = await page.goto('/faq') // never visited
      const light = await background(page)
      expect(res?.status()).toBe(200)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('page.offline.title'))
      await expect(page.locator('html')).toHaveAttribute('dir', edition.direction)
      await expect(page.locator('html')).toHaveAttribute('lang', edition.locale)
      const rows = page.getByRole('list', { name: t('account.setting.offlineTitle') }).getByRole('listitem')
      await expect(rows).toHaveCount(1)
      const link = rows.getByRole('link')
      await expect(link).toHaveAttribute('href', `/viewer/${NOVEL.owned}`)
      await expect(link).toContainText(names[NOVEL.owned]!)
      await expect(page.getByText(t('page.offline.empty'))).toBeHidden()
      await noSeriousViolations(page)
      await shoot(page, info, `${id}-offline-start`, { fullPage: true, after: PHONE })
      // the site's theme works offline too (styles and its first-paint script are in the page): dark under a dark system
      await page.emulateMedia({ colorScheme: 'dark' })
      await expect.poll(() => background(page)).not.toBe(light)
      await noSeriousViolations(page)
      await shoot(page, info, `${id}-offline-start-dark`, { fullPage: true, after: PHONE })
      await page.emulateMedia({ colorScheme: 'light' })

      // its link opens the saved episode, still offline
      await link.click()
      await expect(page).toHaveURL(new RegExp(`/viewer/${NOVEL.owned}$`))
      await expect(page.locator('#episode-title')).toHaveText(names[NOVEL.owned]!)

      // the ended rental was deleted from the device when the start page was made: it opens the start page too
      // (viewer.offline.fr.spec.ts: opened before any sweep, it is refused with the edition's 403 page)
      await page.goto(`/viewer/${NOVEL.rented}`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('page.offline.title'))
      await expect(rows).toHaveCount(1)
      await expect(rows.getByRole('link')).toHaveAttribute('href', `/viewer/${NOVEL.owned}`)
      await context.setOffline(false)
      await context.close()
    })

    test('/my offers installing only once the browser says it can, and its button opens the browser’s dialog', async ({
      browser,
      baseURL,
    }, info) => {
      const page = await signedIn(browser, baseURL!)
      await page.goto('/my')
      await page.locator('html[data-site]').waitFor({ state: 'attached' })
      const offer = page.getByRole('region', { name: t('account.my.install.title').replace('{{site}}', edition.siteName) })
      const button = page.getByRole('button', { name: t('account.my.install.button'), exact: true })
      await expect(offer).toBeHidden()
      await expect(button).toBeHidden()

      // the browser's own banner is held back: this row is the offer
      expect(await fireInstallPrompt(page)).toBe(true)
      await expect(offer).toBeVisible()
      await expect(offer).toContainText(t('account.my.install.text').replace('{{site}}', edition.siteName))
      await noSeriousViolations(page)
      for (const width of [390, 1280]) {
        // the window around the offer (a full-page shot of the long /my page draws the fixed bars mid-page)
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
        await offer.evaluate((el) => el.scrollIntoView({ block: 'center' }))
        await page.waitForTimeout(150)
        await info.attach(`${id}-my-install-offer-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
      }
      await page.setViewportSize({ width: 390, height: 844 })
      const light = await background(page)
      await page.emulateMedia({ colorScheme: 'dark' })
      await expect.poll(() => background(page)).not.toBe(light)
      await noSeriousViolations(page)
      await offer.evaluate((el) => el.scrollIntoView({ block: 'center' }))
      await info.attach(`${id}-my-install-offer-dark-390`, { body: await page.screenshot(), contentType: 'image/png' })
      await page.emulateMedia({ colorScheme: 'light' })

      // keyboard: the button calls prompt() once; the row waits for the reader's answer, then goes
      await button.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => page.evaluate(() => (window as unknown as { prompted: number }).prompted)).toBe(1)
      await expect(offer.getByRole('status')).toHaveText(t('account.my.install.working'))
      await expect(button).toHaveAttribute('aria-disabled', 'true')
      await page.keyboard.press('Enter') // a second press while the dialog is open asks nothing more
      await page.evaluate(() => (window as unknown as { choose: (o: string) => void }).choose('dismissed'))
      await expect(offer).toBeHidden()
      expect(await page.evaluate(() => (window as unknown as { prompted: number }).prompted)).toBe(1)

      // offered again, then installed from the browser's menu: the row goes
      await fireInstallPrompt(page)
      await expect(offer).toBeVisible()
      await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')))
      await expect(offer).toBeHidden()

      // never on the viewer: the event finds no offer there (and the browser's banner is held back too)
      await page.goto('/viewer/1')
      await page.locator('html[data-site]').waitFor({ state: 'attached' })
      expect(await fireInstallPrompt(page)).toBe(true)
      await expect(page.getByRole('button', { name: t('account.my.install.button'), exact: true })).toHaveCount(0)
      await page.context().close()
    })
  })
}
