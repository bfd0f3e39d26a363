import { expect, test } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'

test.describe('French edition sign-in (spec §2 /user/login)', () => {
  test('a guest sent from a protected page signs in through the form and lands on that page', async ({ page, context }) => {
    await page.goto('/gift')
    await expect(page).toHaveURL(/\/user\/login\?callback=%2Fgift$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connexion')
    await page.getByLabel('Adresse e-mail').fill('reader@example.com')
    await page.getByLabel('Mot de passe').fill('Reader-2026!')
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await expect(page).toHaveURL(/\/gift$/)
    const cookie = (await context.cookies()).find((c) => c.name === 'wt_session')
    expect(cookie?.httpOnly).toBe(true)
    expect(cookie?.sameSite).toBe('Lax')
    // the page script cannot read the session
    expect(await page.evaluate(() => document.cookie)).not.toContain('wt_session')
    // and the API answers as the reader with the same cookie
    const me = await page.request.get('/api/v1/user/me')
    expect(me.status()).toBe(200)
    expect((await me.json()).data.user.email).toBe('reader@example.com')
  })

  test('a wrong password shows the translated error and keeps the callback', async ({ page }) => {
    await page.goto('/user/login?callback=%2Fcoupon')
    await page.getByLabel('Adresse e-mail').fill('reader@example.com')
    await page.getByLabel('Mot de passe').fill('Wrong-2026!')
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await expect(page).toHaveURL(/\/user\/login\?error=INVALID_PASSWORD&callback=%2Fcoupon$/)
    await expect(page.getByRole('alert')).not.toBeEmpty()
    await expect(page.getByRole('alert')).not.toContainText('error.')
  })

  test('works without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/user/login?callback=%2Flibrary%2Fmy')
    await page.getByLabel('Adresse e-mail').fill('minor@example.com')
    await page.getByLabel('Mot de passe').fill('Minor-2026!')
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await expect(page).toHaveURL(/\/library\/my$/)
    await context.close()
  })

  test('has no serious accessibility violation with an error shown', async ({ page }) => {
    await page.goto('/user/login?error=INVALID_PASSWORD')
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
  })
})
