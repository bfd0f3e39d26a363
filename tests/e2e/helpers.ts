import { expect, type Locator, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'

/** Steps shared by the browser tests. */

export const DEMO_READER = { email: 'reader@example.com', password: 'Reader-2026!' }

/** Signs in through the login form (the demo reader by default) and waits to be back at `callback`. */
export async function signInTo(page: Page, callback: string, account = DEMO_READER) {
  await page.goto(`/user/login?callback=${encodeURIComponent(callback)}`)
  await page.getByLabel('Adresse e-mail').fill(account.email)
  await page.getByLabel('Mot de passe').fill(account.password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(page).toHaveURL(new RegExp(`${callback.replace(/[/?]/g, '\\$&')}$`))
}

/** The page's serious and critical axe violations, each as "rule: targets". */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
}

export async function noSeriousViolations(page: Page) {
  expect(await seriousViolations(page)).toEqual([])
}

/** A new verified account without a birth date (sign-up, code read in the dev outbox). */
export async function newMember(page: Page) {
  const email = `age-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`
  const password = 'Newbie-2026'
  const up = await page.request.post('/api/v1/auth/sign-up', { data: { email, password, passwordConfirm: password, agreeTerms: true } })
  expect(up.status()).toBe(200)
  await page.goto('/dev/outbox')
  const code = /\b(\d{6})\b/.exec(await page.locator(`li[data-recipient="${email}"]`).first().innerText())![1]!
  expect((await page.request.post('/api/v1/auth/verify-otp', { data: { email, code } })).status()).toBe(200)
  return { email, password }
}

/**
 * Asks for the age popup as a page's control does (`[data-age-required]`, src/features/age/listen.ts: the age store),
 * coming back to `returnTo` (none: this page).
 */
export async function askAge(page: Page, returnTo = '') {
  await page.evaluate((to) => {
    const control = document.createElement('button')
    control.hidden = true
    control.dataset.ageRequired = to
    document.body.appendChild(control)
    control.click()
  }, returnTo)
}

/** The header's balance (`[data-coin-balance]`, shown from the session store; on the viewer page the bar hides it). */
export const headerBalance = (page: Page) => page.locator('[data-coin-balance]')

/**
 * Another tab of the reader's, on /notice: its header balance follows a coin movement made in `page` without a
 * reload (the session store, passed between tabs). `shows(total)` waits for the total, formatted as the header does.
 */
export async function balanceElsewhere(page: Page) {
  const other = await page.context().newPage()
  await other.goto('/notice')
  await expect(headerBalance(other)).toBeVisible()
  return {
    shows: async (total: number) => {
      const number = await other.evaluate((n) => new Intl.NumberFormat(document.documentElement.lang).format(n), total)
      await expect(headerBalance(other)).toContainText(number)
    },
    close: () => other.close(),
  }
}

/** A pattern finding `text` in an accessible name or a text, whatever space (no-break or not) stands where it has one. */
export const textPattern = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[\u00a0 ]/g, '\\s'))

/**
 * The texts of `labels` that wrap or are cut off (issue 35 point 7: a short label never spans two lines at 390 px):
 * each text of a label — a run of text between its tags — must sit on one line, so "1 /" over "3" or "Zoom / 100 / %"
 * is caught while a label laid out as a name above a title (two texts) is not; and a label kept on one line must not
 * stick out of the box that clips it (a dialog, the screen).
 */
export const wrappedLabels = (labels: Locator) =>
  labels.evaluateAll((els) =>
    els.flatMap((el) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      const wrapped: string[] = []
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent!.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        const lines = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0)
        if (lines.some((r) => r.top >= lines[0]!.bottom - 2)) wrapped.push(`${el.className}: "${node.textContent!.trim()}"`)
      }
      let clip: Element | null = el.parentElement
      while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement
      const box = el.getBoundingClientRect()
      const room = clip?.getBoundingClientRect() ?? { left: 0, right: innerWidth }
      if (box.left < Math.max(room.left, 0) - 1 || box.right > Math.min(room.right, innerWidth) + 1)
        wrapped.push(`${el.className}: "${el.textContent!.trim()}" cut off`)
      return wrapped
    }),
  )
