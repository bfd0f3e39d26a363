import { expect, test } from '@playwright/test'
import { noSeriousViolations } from './helpers.ts'
import { messagesOf } from './journey.ts'
import { shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 37 point 2 in one edition: a guest follows a creator's name on a series page to their page, which names them,
 * lists their series by role (the series they came from among them) and carries JSON-LD (`Person`, its works) and a
 * link card. No serious axe finding; screenshots at 390 and 1280 px.
 */
export function creatorSuite(id: 'fr' | 'ar') {
  test(`${id}: a series page links its creators' pages, which list their series by role`, async ({ page }, info) => {
    await page.goto('/detail/1')
    const link = page.locator('.creators a').first()
    const name = (await link.textContent())!.trim()
    await link.click()
    await page.waitForURL(/\/creator\/\d+$/)
    const creatorId = Number(/\/creator\/(\d+)$/.exec(page.url())![1])
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name)
    await expect(page.locator('html')).toHaveAttribute('dir', id === 'ar' ? 'rtl' : 'ltr')
    // their series by role, the one we came from among them
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible()
    await expect(page.locator('main a[href="/detail/1"]').first()).toBeVisible()
    const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
      (t) => JSON.parse(t) as Record<string, unknown>,
    )
    const person = ld.find((l) => l['@type'] === 'Person') as { name: string; url: string; workExample: { '@id': string }[] }
    expect(person.name).toBe(name)
    expect(person.url).toMatch(new RegExp(`/creator/${creatorId}$`))
    expect(person.workExample.map((w) => w['@id'])).toContainEqual(expect.stringMatching(/\/detail\/1$/))
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', new RegExp(name))
    await noSeriousViolations(page)
    await shoot(page, info, `creator-${id}`)
  })
}

/**
 * Issue 37 point 2, following in one edition: a new reader follows a creator from their page (the button pressed, the
 * page says so), still follows after a reload (their object keeps it), stops from the keyboard; without JavaScript the
 * same button is a form that follows and comes back saying so. No serious axe finding; screenshots at 390 and 1280 px.
 */
export function creatorFollowSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  test(`${id}: a reader follows a creator from their page, with and without JavaScript`, async ({ page, browser, baseURL }, info) => {
    test.setTimeout(90_000)
    const email = await newAccount(page.request)
    await signIn(page, id, email)
    await page.goto('/detail/1')
    await page.locator('.creators a').first().click()
    await page.waitForURL(/\/creator\/\d+$/)
    const path = new URL(page.url()).pathname
    const button = page.getByRole('button', { name: t('creator.follow') })
    const drawnForReader = page.locator('form[data-follow-live]') // the page's server island (FollowMe.astro)
    await expect(drawnForReader).toHaveCount(1)
    await expect(button).toHaveAttribute('aria-pressed', 'false')
    await button.click()
    await expect(page).toHaveURL(new RegExp(`${path}$`)) // toggled in place
    await expect(button).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('status')).not.toBeEmpty()
    await noSeriousViolations(page)
    await shoot(page, info, `creator-follow-${id}`)
    await page.reload()
    await expect(drawnForReader).toHaveCount(1)
    await expect(button).toHaveAttribute('aria-pressed', 'true')
    await button.focus()
    await page.keyboard.press('Enter')
    await expect(button).toHaveAttribute('aria-pressed', 'false')

    const plain = await browser.newContext({ javaScriptEnabled: false, baseURL })
    const tab = await plain.newPage()
    await signIn(tab, id, email)
    await tab.goto(path)
    await tab.getByRole('button', { name: t('creator.follow') }).click()
    await tab.waitForURL(new RegExp(`${path}\\?following=1#follow$`))
    await expect(tab.getByRole('button', { name: t('creator.follow') })).toHaveAttribute('aria-pressed', 'true')
    await expect(tab.getByRole('status')).not.toBeEmpty()
    await plain.close()
  })
}
