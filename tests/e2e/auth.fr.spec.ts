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

  test('a newcomer signs up without JavaScript, reads the code in the dev outbox, verifies and is signed in', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const email = `e2e-${Date.now()}@example.com`
    await page.goto('/user/signup')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inscription')
    await page.getByLabel('Adresse e-mail').fill(email)
    await page.getByLabel('Mot de passe', { exact: true }).fill('Newbie-2026')
    await page.getByLabel('Confirmer le mot de passe').fill('Newbie-2026')
    await page.getByLabel("J'accepte les conditions d'utilisation et la politique de confidentialité").check()
    await page.getByRole('button', { name: 'Créer mon compte' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vérifiez votre adresse e-mail')
    expect((await context.cookies()).map((c) => c.name)).toEqual(expect.arrayContaining(['is-sign-up', 'login-callback-finished']))
    // signing in before the code is entered is refused with a way to the code step
    const signIn = async () => {
      await page.goto('/user/login')
      await page.getByLabel('Adresse e-mail').fill(email)
      await page.getByLabel('Mot de passe').fill('Newbie-2026')
      await page.getByRole('button', { name: 'Se connecter' }).click()
    }
    await signIn()
    await expect(page).toHaveURL(/error=INVALID_EMAIL/)
    await page.goto('/dev/outbox')
    const mail = page.locator(`li[data-recipient="${email}"]`).first()
    const code = /\b(\d{6})\b/.exec(await mail.innerText())![1]!
    await page.goto(`/user/signup?step=otp&email=${encodeURIComponent(email)}`)
    await page.getByLabel('Code à 6 chiffres').fill(code === '000000' ? '000001' : '000000')
    await page.getByRole('button', { name: 'Valider' }).click()
    await expect(page.getByRole('alert')).toHaveText('Code erroné, 4 essais restants.')
    await page.getByLabel('Code à 6 chiffres').fill(code)
    await page.getByRole('button', { name: 'Valider' }).click()
    // the right code signs the reader in (home: this sign-up carried no callback)
    await expect(page).toHaveURL(/\/$/)
    expect((await context.cookies()).some((c) => c.name === 'wt_session')).toBe(true)
    await context.close()
  })

  test('the sign-up page has no serious accessibility violation with an error shown', async ({ page }) => {
    for (const path of ['/user/signup?error=INVALID_PW_REGEX&email=a%40b.fr', '/user/signup?step=otp&email=a%40b.fr&error=EXPIRED_OTP']) {
      await page.goto(path)
      await expect(page.getByRole('alert')).not.toContainText('error.')
      const results = await new AxeBuilder({ page }).analyze()
      expect(
        results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
        path,
      ).toEqual([])
    }
  })
})
