import { expect, test } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { newAccount, PASSWORD } from './viewer.helpers.ts'
import { noSeriousViolations } from './helpers.ts'
import { shoot } from './steps.ts'

/**
 * Issue 12 point 8 in one edition (spec §7 calls, §9 30 s time-out): the browser's requests carry X-Platform WEB,
 * the browser's time zone and the edition's language (not the browser's); a request the server never answers
 * (held by `page.route`; the island's case moves the page's clock on 30 s, the form's waits them) ends in the edition's retry message with the button usable
 * again: a plain form (the login form, busy.ts) and an island's call (the series page's favourite, the request
 * helper). Screenshots at 390 and 1280 px go into the report.
 */
const ZONE = 'Pacific/Auckland' // neither edition's own zone: the header is the browser's
const LOCALES = { fr: 'fr-FR', ar: 'ar' } as const

export function requestsSuite(id: keyof typeof LOCALES) {
  const t = messagesOf(id)
  test.describe(`requests (${id})`, () => {
    test.use({ timezoneId: ZONE, locale: 'en-US' })

    test("a guest's catalogue page asks the API nothing and loads no signed-in header code", async ({ page }) => {
      const asked: string[] = []
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname
        if (path.startsWith('/api/') || /\/_astro\/(header|store)\./.test(path)) asked.push(path)
      })
      for (const path of ['/', '/faq', '/detail/1']) {
        await page.goto(path)
        await expect(page.locator('html[data-site]')).toHaveCount(1)
        await page.waitForLoadState('networkidle')
      }
      expect(asked).toEqual([])
    })

    test('a request carries X-Platform WEB, the browser time zone and the edition language', async ({ page }) => {
      // a search suggestion: the first keystroke loads the API client, which asks after the search delay
      await page.goto('/search')
      await expect(page.locator('html[data-site]')).toHaveCount(1)
      const asked = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/search')
      await page.locator('form.search-form input[name="keyword"]').fill('a')
      const headers = await (await asked).allHeaders()
      expect({ platform: headers['x-platform'], zone: headers['x-time-zone'], language: headers['accept-language'] }).toEqual({
        platform: 'WEB',
        zone: ZONE,
        language: LOCALES[id],
      })
    })

    test('a form the server never answers: after 30 s the retry message, the button usable again', async ({ page }, info) => {
      // real time: the page's clock cannot be moved while its form navigation is held
      test.setTimeout(120_000)
      await page.goto('/user/login')
      await page.route('**/api/v1/auth/web/sign-in', () => {}) // never answered
      await page.getByLabel(t('auth.login.email'), { exact: true }).fill('nobody@example.com')
      await page.getByLabel(t('auth.login.password')).fill('Whatever-2026!')
      const form = page.locator('form[action="/api/v1/auth/web/sign-in"]')
      const submit = form.locator('button[type="submit"]')
      // read inside the page just after the submit: Playwright's own checks wait for the held navigation
      const waiting = page.evaluate(
        () =>
          new Promise<{ busy: string | null; disabled: boolean }>((resolve) =>
            document.addEventListener('submit', (e) => {
              const button = (e.target as HTMLFormElement).querySelector<HTMLButtonElement>('button[type="submit"]')!
              setTimeout(() => resolve({ busy: (e.target as HTMLFormElement).getAttribute('aria-busy'), disabled: button.disabled }), 10)
            }),
          ),
      )
      const sent = Date.now()
      const clicked = submit.click() // returns once the page gave up on the navigation it started
      expect(await waiting).toEqual({ busy: 'true', disabled: true })
      await clicked
      expect(Date.now() - sent).toBeGreaterThanOrEqual(29_000)
      const toast = page.locator('#toast')
      await expect(toast).toHaveText(t('common.timeout'))
      await shoot(page, info, `timeout-form-${id}`, { fullPage: false })
      await expect(toast).toHaveAttribute('role', 'status')
      await expect(submit).toBeEnabled()
      await expect(submit).toHaveText(t('auth.login.submit'))
      await expect(form).not.toHaveAttribute('aria-busy', 'true')
      await noSeriousViolations(page)
      // the form works again: this time the server answers
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      await submit.click()
      await expect(page).toHaveURL(/error=/)
    })

    test("an island's call the server never answers: after 30 s the retry message, the favourite button usable again", async ({
      page,
      baseURL,
    }, info) => {
      const email = await newAccount(page.request)
      const signIn = await page.request.post('/api/v1/auth/web/sign-in', {
        form: { email, password: PASSWORD },
        headers: { origin: baseURL! },
        maxRedirects: 0,
      })
      expect(signIn.status()).toBe(303)
      await page.clock.install()
      await page.goto('/detail/1')
      const fav = page.getByRole('button', { name: t('detail.favorite') })
      await expect(fav).toBeVisible() // the reader's part is loaded
      await expect(fav).toHaveAttribute('aria-pressed', 'false')
      await page.clock.pauseAt(Date.now() + 60_000)
      let held = 0
      await page.route('**/api/v1/library/favorite/**', () => void held++) // never answered
      await fav.click()
      await expect(fav).toHaveAttribute('aria-pressed', 'true') // shown at once, waiting
      await expect.poll(() => held).toBe(1)
      await fav.click() // a click while it waits does nothing
      await page.clock.runFor(30_000)
      await expect(page.locator('#toast')).toHaveText(t('common.timeout'))
      await expect(fav).toHaveAttribute('aria-pressed', 'false') // not saved: shown as it is
      await expect(fav).toBeEnabled()
      await shoot(page, info, `timeout-island-${id}`, { fullPage: false })
      // usable again: the next click goes out
      await page.unrouteAll({ behavior: 'ignoreErrors' })
      const saved = page.waitForResponse((r) => r.url().includes('/api/v1/library/favorite/') && r.request().method() === 'POST')
      await fav.click()
      expect((await saved).status()).toBe(200)
      await expect(fav).toHaveAttribute('aria-pressed', 'true')
      expect(held).toBe(1)
    })
  })
}
