import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test'
import { hydrated, newAccount } from './viewer.helpers.ts'
import { PHONE_CONTEXT as PHONE } from './steps.ts'

/**
 * Issue 25 points 7 and 8, continuous reading at a locked next episode, shared by locked-next.fr.spec.ts and
 * locked-next.ar.spec.ts on a phone (390×844, touch): a signed-in reader is offered the locked episode without it
 * being fetched (no refused request, no console error), a focused episode link keeps its place while episodes and
 * the offer go in above it, and after the auto-unlock dialog's confirmation (keyboard only) focus is on the unlocked
 * episode's heading. Seeded demo: series 1 has episodes 1–11, the first five free, the others 2 coins to rent.
 */
export type Words = {
  edition: string
  /** "Épisode {no}" (episode.number) */
  episode: (no: number) => string
  choose: string
  autoOffer: string
  autoTitle: string
  autoConfirm: string
  /** The test server serves the slice images (fr; ar runs with --no-images): then every console error counts. */
  images: boolean
}

/** A new signed-in reader on a phone; `coins`: with the 100 coins of the WELCOME100 coupon. */
export async function readerPhone(browser: Browser, baseURL: string, coins = false): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, baseURL })
  const page = await context.newPage()
  const email = await newAccount(page.request)
  const res = await page.request.post('/api/v1/auth/web/sign-in', {
    form: { email, password: 'Viewer-2026!', callback: '/' },
    headers: { origin: baseURL },
    maxRedirects: 0,
  })
  expect(res.status()).toBeLessThan(400)
  if (coins)
    expect((await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL } })).status()).toBe(
      200,
    )
  return page
}

export const started = async (page: Page) => {
  await hydrated(page)
  await page.locator('.viewer-bar').waitFor({ state: 'attached' })
}

export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path })
  await testInfo.attach(name, { path, contentType: 'image/png' })
}

/** Presses End until `target` is visible (each step may wait for an episode from the API). */
export async function readTo(page: Page, target: ReturnType<Page['locator']>) {
  await expect(async () => {
    await page.keyboard.press('End')
    await expect(target).toBeVisible({ timeout: 2000 })
  }).toPass({ timeout: 30_000 })
}

export function lockedNextSuite(w: Words) {
  test.describe(`${w.edition}: a signed-in reader at a locked next episode`, () => {
    test('the offer is shown without fetching the locked episode: no request for it, no console error', async ({
      browser,
      baseURL,
    }, testInfo) => {
      const page = await readerPhone(browser, baseURL!)
      const errors: string[] = []
      const refused: string[] = []
      const fetched: string[] = []
      // without images on the test server, their failed loads ("Failed to load resource") are set apart; other
      // refused requests are told by their responses
      page.on('console', (m) => {
        if (m.type() === 'error' && (w.images || !m.text().startsWith('Failed to load resource'))) errors.push(m.text())
      })
      page.on('response', (r) => {
        if (r.status() >= 400 && r.request().resourceType() !== 'image') refused.push(`${r.status()} ${r.url()}`)
      })
      page.on('request', (r) => {
        if (/\/api\/v1\/viewer\/6(\?|$)/.test(r.url())) fetched.push(`${r.method()} ${r.url()}`)
      })
      await page.goto('/viewer/5')
      await started(page)
      const locked = page.getByRole('region', { name: new RegExp(`^${w.episode(6)}$`) })
      await readTo(page, locked.getByRole('button', { name: w.autoOffer }))
      await expect(locked.getByRole('link', { name: w.choose })).toHaveAttribute('href', '/viewer/6')
      await page.waitForTimeout(500) // anything late would have been sent by now
      expect(fetched).toEqual([])
      expect(refused).toEqual([])
      expect(errors).toEqual([])
      await shot(page, testInfo, `${w.edition}-locked-next-390`)
      await page.setViewportSize({ width: 1280, height: 800 })
      await locked.scrollIntoViewIfNeeded()
      await shot(page, testInfo, `${w.edition}-locked-next-1280`)
      await page.context().close()
    })

    test('a focused episode link keeps its place while the next episode and the locked one go in above it', async ({
      browser,
      baseURL,
    }) => {
      const page = await readerPhone(browser, baseURL!)
      let release!: () => void
      const held = new Promise<void>((resolve) => {
        release = resolve
      })
      await page.route(/\/api\/v1\/viewer\/5(\?|$)/, async (route) => {
        await held
        await route.continue()
      })
      await page.goto('/viewer/4')
      await started(page)
      const link = page.locator('.viewer-nav a[rel="next"]')
      await link.focus()
      await page.waitForTimeout(300)
      const before = (await link.boundingBox())!.y
      release()
      // episode 5 goes in, then the offer for locked episode 6 (set without a request) and its opt-in button
      await expect(
        page.getByRole('region', { name: new RegExp(`^${w.episode(6)}$`) }).getByRole('button', { name: w.autoOffer }),
      ).toBeAttached()
      await page.waitForTimeout(300)
      await expect(link).toBeFocused()
      await expect(link).toBeInViewport()
      expect(Math.abs((await link.boundingBox())!.y - before)).toBeLessThan(4)
      await page.context().close()
    })

    test('after the auto-unlock confirmation (keyboard only), focus is on the unlocked episode, not the page', async ({
      browser,
      baseURL,
    }, testInfo) => {
      const page = await readerPhone(browser, baseURL!, true)
      await page.goto('/viewer/5')
      await started(page)
      const offer = page.getByRole('button', { name: w.autoOffer })
      await readTo(page, offer)
      await offer.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: w.autoTitle })
      await expect(dialog).toBeVisible()
      const confirm = dialog.getByRole('button', { name: w.autoConfirm })
      for (let i = 0; i < 8 && !(await confirm.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('Tab')
      await expect(confirm).toBeFocused()
      await page.keyboard.press('Enter')
      const heading = page.locator('section[data-episode="6"]').getByRole('heading', { level: 2, name: new RegExp(`^${w.episode(6)}$`) })
      await expect(heading).toBeFocused()
      await expect(heading).toBeInViewport()
      await expect(dialog).toBeHidden()
      await shot(page, testInfo, `${w.edition}-unlocked-focus-390`)
      // reading on with the keyboard from there: the page scrolls, focus stays in the episode
      const y = await page.evaluate(() => scrollY)
      await page.keyboard.press('PageDown')
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(y)
      await page.context().close()
    })
  })
}
