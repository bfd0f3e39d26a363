import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'
import { messagesOf } from './journey.ts'
import { hydrated } from './viewer.helpers.ts'
import { signedIn } from './settings.ts'
import { PHONE, shoot } from './steps.ts'

/**
 * Issue 19 point 2 (dark theme) and the reduced-motion part of point 4, in one edition (theme.fr.spec.ts,
 * theme.ar.spec.ts): the /setting choice (system, light, dark) applies at once and stays across reloads and pages;
 * a stored dark choice is on the first paint under a light system (no flash); both themes pass axe's colour
 * contrast (AA) on home, detail, viewer, /my, /setting and /shop; the viewer is dark at night (22:00–08:00, the
 * reader's clock) unless light was chosen, its images untouched; under prefers-reduced-motion nothing glides
 * (transitions off, auto-scroll jumps a screen at a time and never starts by itself). Screenshots of home, detail
 * and viewer in both themes, and of /setting, at 390 and 1280 px go into the report.
 */
const LIGHT_BG = 'rgb(255, 255, 255)'
const DARK_BG = 'rgb(18, 18, 18)'

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)

/** Noon in Paris: the viewer's night theme (22:00–08:00 on the reader's clock) must never depend on when the suite runs. */
const NOON = new Date('2026-11-27T12:00:00+01:00')
const NIGHT = new Date('2026-11-27T23:30:00+01:00')

/** A phone context on Paris time with the browser's clock pinned (noon unless a test moves it). */
async function context(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  const ctx = await browser.newContext({ baseURL, viewport: PHONE, colorScheme: 'light', timezoneId: 'Europe/Paris', ...options })
  await ctx.clock.setFixedTime(NOON)
  return ctx
}

/** axe's colour-contrast rule alone (WCAG 2 AA 1.4.3), every impact: "rule: target (fg on bg)". */
async function contrastViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze()
  return results.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.any.map((a) => JSON.stringify(a.data)).join(' ')}`),
  )
}

/** 390 px (whole page, or the first screen of a long viewer strip) and 1280 px, into the report. */
export function themeSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)

  test.describe(`${id}: dark theme and reduced motion`, () => {
    test('the /setting choice applies at once and persists across reloads and pages', async ({ browser, baseURL }, info) => {
      test.setTimeout(90_000)
      const page = await signedIn(browser, baseURL!, { colorScheme: 'light' })
      await page.goto('/setting')
      const group = page.getByRole('group', { name: t('account.setting.themeLegend') })
      const radio = (key: string) => group.getByRole('radio', { name: t(key) })
      await expect(radio('account.setting.themeSystem')).toBeChecked()
      await expect(radio('account.setting.themeSystem')).toBeEnabled()
      expect(await background(page)).toBe(LIGHT_BG)

      await radio('account.setting.themeDark').check()
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
      expect(await background(page)).toBe(DARK_BG)
      await expect(page.getByRole('status').filter({ hasText: t('account.setting.themeDark') })).toBeVisible()
      expect(await contrastViolations(page)).toEqual([])
      await shoot(page, info, `${id}-setting-dark`, { fullPage: true, after: PHONE })

      await page.reload()
      await expect(radio('account.setting.themeDark')).toBeChecked()
      expect(await background(page)).toBe(DARK_BG)
      await page.goto('/')
      expect(await background(page)).toBe(DARK_BG)
      await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute('content', 'dark')

      // light wins over a dark system
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.goto('/setting')
      await radio('account.setting.themeLight').check()
      expect(await background(page)).toBe(LIGHT_BG)
      await page.reload()
      await expect(radio('account.setting.themeLight')).toBeChecked()
      expect(await background(page)).toBe(LIGHT_BG)
      expect(await contrastViolations(page)).toEqual([])
      await shoot(page, info, `${id}-setting-light`, { fullPage: true, after: PHONE })

      // system follows the system again, both ways
      await radio('account.setting.themeSystem').check()
      await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./)
      expect(await background(page)).toBe(DARK_BG)
      await page.reload()
      await expect(radio('account.setting.themeSystem')).toBeChecked()
      expect(await background(page)).toBe(DARK_BG)
      await page.emulateMedia({ colorScheme: 'light' })
      expect(await background(page)).toBe(LIGHT_BG)
      await page.context().close()
    })

    test('a stored dark choice under a light system is on the first paint (no flash, the CSP allows the script)', async ({
      browser,
      baseURL,
    }) => {
      const page = await (await context(browser, baseURL!)).newPage()
      const refused: string[] = []
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text())
      })
      await page.goto('/')
      await page.evaluate(() => localStorage.setItem('wt-theme', 'dark'))
      // the page's background at the moment <body> is created: before it nothing can be painted
      await page.addInitScript(() => {
        new MutationObserver((records, observer) => {
          for (const r of records)
            for (const n of r.addedNodes)
              if (n.nodeName === 'BODY') {
                ;(window as unknown as { firstBg: string }).firstBg = getComputedStyle(document.documentElement).backgroundColor
                observer.disconnect()
              }
        }).observe(document, { childList: true, subtree: true })
      })
      for (const path of ['/', '/detail/1', '/viewer/1']) {
        await page.goto(path)
        expect(await page.evaluate(() => (window as unknown as { firstBg: string }).firstBg), path).toBe(DARK_BG)
      }
      expect(refused).toEqual([])
      await page.context().close()
    })

    for (const scheme of ['light', 'dark'] as const) {
      test(`${scheme}: axe colour contrast on home, detail, viewer, /my, /setting, /shop; screenshots`, async ({
        browser,
        baseURL,
      }, info) => {
        test.setTimeout(150_000)
        const guest = await (await context(browser, baseURL!, { colorScheme: scheme })).newPage()
        const expected = scheme === 'dark' ? DARK_BG : LIGHT_BG
        for (const [path, name] of [
          ['/', 'home'],
          ['/detail/1', 'detail'],
          ['/viewer/1', 'viewer'],
        ] as const) {
          await guest.goto(path)
          if (name === 'viewer') await hydrated(guest)
          expect(await background(guest), path).toBe(expected)
          expect(await contrastViolations(guest), path).toEqual([])
          await shoot(guest, info, `${id}-${name}-${scheme}`, { fullPage: name !== 'viewer', after: PHONE })
        }
        await guest.context().close()
        const member = await signedIn(browser, baseURL!, { colorScheme: scheme })
        for (const path of ['/my', '/setting', '/shop']) {
          await member.goto(path)
          await member.waitForLoadState('networkidle')
          expect(await background(member), path).toBe(expected)
          expect(await contrastViolations(member), path).toEqual([])
        }
        await member.context().close()
      })
    }

    test('the viewer is dark at night on the reader’s clock unless light was chosen; images untouched; contrast holds', async ({
      browser,
      baseURL,
    }) => {
      const page = await (await context(browser, baseURL!)).newPage()
      await page.clock.setFixedTime(NIGHT)
      await page.goto('/viewer/1')
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
      expect(await background(page)).toBe(DARK_BG)
      await hydrated(page)
      expect(await contrastViolations(page)).toEqual([])
      const img = page.locator('.viewer-slice img').first()
      expect(
        await img.evaluate((el) => [getComputedStyle(el).filter, getComputedStyle(el).opacity, getComputedStyle(el).mixBlendMode]),
      ).toEqual(['none', '1', 'normal'])
      // the rest of the site follows the system
      await page.goto('/')
      expect(await background(page)).toBe(LIGHT_BG)
      // light chosen on /setting: light at night too
      await page.evaluate(() => localStorage.setItem('wt-theme', 'light'))
      await page.goto('/viewer/1')
      expect(await background(page)).toBe(LIGHT_BG)
      // daytime, system: light
      await page.evaluate(() => localStorage.removeItem('wt-theme'))
      await page.clock.setFixedTime(NOON)
      await page.goto('/viewer/1')
      expect(await background(page)).toBe(LIGHT_BG)
      await page.clock.setFixedTime(new Date('2026-11-27T07:59:00+01:00'))
      await page.goto('/viewer/1')
      expect(await background(page)).toBe(DARK_BG)
      await page.context().close()
    })

    test('reduced motion: no transitions; auto-scroll never starts by itself and jumps a screen at a time', async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(60_000)
      const page = await (await context(browser, baseURL!, { reducedMotion: 'reduce' })).newPage()
      await page.goto('/viewer/1')
      await hydrated(page)
      expect(await page.locator('.viewer-bar').evaluate((el) => getComputedStyle(el).transitionDuration)).toMatch(/^(0s|1e-05s)/)
      expect(await page.locator('footer').evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('1e-05s')
      await page.waitForTimeout(1500)
      expect(await page.evaluate(() => scrollY)).toBe(0)

      await page.getByRole('button', { name: t('viewer.autoScroll') }).click()
      await page.locator('.viewer-speed input').fill('5') // the fastest: 320 px/s, a jump every 2.1 s
      const seen: number[] = []
      for (let i = 0; i < 50; i++) {
        seen.push(await page.evaluate(() => Math.round(scrollY)))
        await page.waitForTimeout(100)
      }
      const moves = seen
        .slice(1)
        .map((y, i) => y - seen[i]!)
        .filter((d) => d !== 0)
      expect(moves.length).toBeGreaterThanOrEqual(1)
      // every move is a whole jump (80 % of the 844 px screen), never a glide of a few pixels
      for (const d of moves) expect(d).toBeGreaterThanOrEqual(600)
      await page.context().close()
    })
  })
}
