import { expect, test } from '@playwright/test'
import { noSeriousViolations } from './helpers.ts'
import { shoot } from './steps.ts'

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
