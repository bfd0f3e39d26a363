import { expect, type APIRequestContext, type Page } from '@playwright/test'
export { seriousViolations } from './helpers.ts'

/** Shared steps of the viewer browser tests: a hydrated island, fresh signed-in readers with coins. */

/** The island runs, and so does the site script it brings on the viewer page (src/components/site.ts). */
export async function hydrated(page: Page) {
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
  await page.locator('html[data-site]').waitFor({ state: 'attached' })
}

export const PASSWORD = 'Viewer-2026!'

/** A new verified account (API sign-up, code from the dev outbox). */
export async function newAccount(request: APIRequestContext): Promise<string> {
  const email = `viewer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  expect(
    (
      await request.post('/api/v1/auth/sign-up', { data: { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true } })
    ).status(),
  ).toBe(200)
  const outbox = await (await request.get('/dev/outbox')).text()
  const item = outbox.split('<li').find((li) => li.includes(`data-recipient="${email}"`))!
  const code = /\b(\d{6})\b/.exec(item.replace(/<[^>]+>/g, ' '))![1]!
  expect((await request.post('/api/v1/auth/verify-otp', { data: { email, code } })).status()).toBe(200)
  return email
}

export async function signIn(page: Page, email: string) {
  await page.goto('/user/login')
  await page.getByLabel('Adresse e-mail').fill(email)
  await page.getByLabel('Mot de passe').fill(PASSWORD)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'))
}

/** A signed-in reader with 100 coins. */
export async function reader(page: Page, baseURL: string) {
  const email = await newAccount(page.request)
  await signIn(page, email)
  const res = await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL } })
  expect(res.status()).toBe(200)
  return email
}

export async function balance(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/v1/coin')).json()) as { data: { total: number } }).data.total
}
