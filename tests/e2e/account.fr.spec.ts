/**
 * Account life cycle in Chromium (issue 3 items 5, 6, 8), French edition, mail and SMS read in the dev outbox:
 * reset by e-mail link, phone registration and find password by SMS code (with its countdown), the result page,
 * my page and push settings persisted, all through plain forms.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'

const PASSWORD = 'Newbie-2026'

/** A new verified account (sign-up + the OTP read in the dev outbox), through the API like an app would. */
async function newAccount(request: APIRequestContext): Promise<string> {
  const email = `e2e-acct-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const res = await request.post('/api/v1/auth/sign-up', {
    data: { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true },
  })
  expect(res.status()).toBe(200)
  const code = /\b(\d{6})\b/.exec(await outboxBody(request, email))![1]
  expect((await request.post('/api/v1/auth/verify-otp', { data: { email, code } })).status()).toBe(200)
  return email
}

/** The body of the newest outbox message to `recipient`, from the dev-only /dev/outbox page. */
async function outboxBody(request: APIRequestContext, recipient: string): Promise<string> {
  const html = await (await request.get('/dev/outbox')).text()
  const item = html.split('<li').find((chunk) => chunk.includes(`data-recipient="${recipient}"`))
  expect(item, `a message to ${recipient} in the outbox`).toBeTruthy()
  return /<p class="body"[^>]*>([\s\S]*?)<\/p>/.exec(item!)![1]!.replace(/&amp;/g, '&')
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/user/login?callback=%2Fmy')
  await page.getByLabel('Adresse e-mail').and(page.locator('input')).fill(email)
  await page.getByLabel('Mot de passe').and(page.locator('input')).fill(password)
  await page.getByRole('button', { name: 'Se connecter' }).click()
  await expect(page).toHaveURL(/\/my$/)
}

/** One account signed in twice: `page` without JavaScript, `other` on another device. */
async function twoDevices(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  const email = await newAccount(page.request)
  await signIn(page, email, PASSWORD)
  const otherContext = await browser.newContext()
  const other = await otherContext.newPage()
  await signIn(other, email, PASSWORD)
  return { context, page, otherContext, other, email }
}

test.describe('password life cycle (spec §2/§4)', () => {
  test('reset by e-mail link: request, read the mail, choose a new password, sign in with it', async ({ page }) => {
    const email = await newAccount(page.request)
    await page.goto('/user/login')
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mot de passe oublié')
    await page.getByLabel('Adresse e-mail').and(page.locator('input')).fill(email)
    await page.getByRole('button', { name: 'Recevoir le lien' }).click()
    await expect(page.getByRole('status')).toContainText(email)

    const link = /https?:\/\/\S+/.exec(await outboxBody(page.request, email))![0]
    const url = new URL(link)
    expect(url.pathname).toBe('/user/resetPassword')
    await page.goto(url.pathname + url.search)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nouveau mot de passe')
    // a rule the form shows, then the right one
    await page.getByLabel('Nouveau mot de passe', { exact: true }).and(page.locator('input')).fill('short1')
    await page.getByLabel('Confirmer le nouveau mot de passe').and(page.locator('input')).fill('short1')
    await page.evaluate(() => document.querySelectorAll('input[minlength]').forEach((i) => i.removeAttribute('minlength')))
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
    await expect(page.getByRole('alert')).not.toBeEmpty()
    await expect(page.getByRole('alert')).not.toContainText('error.')
    await page.getByLabel('Nouveau mot de passe', { exact: true }).and(page.locator('input')).fill('Reset2026x')
    await page.getByLabel('Confirmer le nouveau mot de passe').and(page.locator('input')).fill('Reset2026x')
    await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
    await expect(page).toHaveURL(/\/user\/resetPassword\/result\?result=SUCCESS$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mot de passe modifié')

    // the link was single use
    await page.goto(url.pathname + url.search)
    await expect(page).toHaveURL(/result=TIMEOUT$/)
    await signIn(page, email, 'Reset2026x')
    await expect(page.getByTestId('my-email')).toHaveText(email)
  })

  test('find password by SMS: register the phone, then get a code with a countdown and reset', async ({ page, browser }) => {
    const email = await newAccount(page.request)
    const phone = `+3361${String(Date.now()).slice(-7)}`
    await signIn(page, email, PASSWORD)
    await page.goto('/setting/phone')
    await page.getByLabel('Numéro de téléphone').and(page.locator('input')).fill(phone)
    await page.getByRole('button', { name: 'Recevoir le code par SMS' }).click()
    await page
      .getByLabel('Code reçu par SMS (6 chiffres)')
      .and(page.locator('input'))
      .fill(/\b(\d{6})\b/.exec(await outboxBody(page.request, phone))![1]!)
    await page.getByRole('button', { name: 'Valider le code' }).click()
    await expect(page.getByRole('status')).toHaveText('Votre numéro de téléphone est enregistré.')
    await page.goto('/my')
    await page.getByRole('main').getByRole('button', { name: 'Se déconnecter' }).click()
    await expect(page).toHaveURL(/\/callback\/logout-success$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vous êtes déconnecté')

    const context = await browser.newContext()
    const guest = await context.newPage()
    await guest.goto('/user/findPassword')
    await guest.getByRole('link', { name: 'Avec mon téléphone' }).click()
    await guest.getByLabel('Adresse e-mail du compte').and(guest.locator('input')).fill(email)
    await guest.getByLabel('Numéro de téléphone').and(guest.locator('input')).fill(phone)
    await guest.getByRole('button', { name: 'Recevoir le code par SMS' }).click()
    // the 10-minute countdown is shown and ticks
    const timer = guest.getByRole('timer')
    await expect(timer).toContainText(/(10:00|9:5\d)/)
    const first = await timer.textContent()
    await expect(timer).not.toHaveText(first!, { timeout: 3000 })
    // asking again while the code is valid: ALREADY_SEND_SMS, the countdown goes on
    await guest.getByRole('button', { name: 'Renvoyer un code' }).click()
    await expect(guest.getByRole('alert')).not.toBeEmpty()
    await expect(guest.getByRole('timer')).toBeVisible()
    const code = /\b(\d{6})\b/.exec(await outboxBody(guest.request, phone))![1]!
    const wrong = String((Number(code) + 1) % 1e6).padStart(6, '0')
    await guest.getByLabel('Code reçu par SMS (6 chiffres)').and(guest.locator('input')).fill(wrong)
    await guest.getByRole('button', { name: 'Valider le code' }).click()
    await expect(guest.locator('[data-code="NOT_FOUND_SMS_USER"]')).toBeVisible()
    await guest.getByLabel('Code reçu par SMS (6 chiffres)').and(guest.locator('input')).fill(code)
    await guest.getByRole('button', { name: 'Valider le code' }).click()
    await expect(guest).toHaveURL(/\/user\/resetPassword\?userId=\d+&uuid=/)
    await guest.getByLabel('Nouveau mot de passe', { exact: true }).and(guest.locator('input')).fill('Sms2026xy')
    await guest.getByLabel('Confirmer le nouveau mot de passe').and(guest.locator('input')).fill('Sms2026xy')
    await guest.getByRole('button', { name: 'Enregistrer le mot de passe' }).click()
    await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Mot de passe modifié')
    await signIn(guest, email, 'Sms2026xy')

    // find ID with the same phone: the result page lists what the server found, from its cookie only
    await guest.goto('/user/findId')
    await guest.getByLabel('Numéro de téléphone').and(guest.locator('input')).fill(phone)
    await guest.getByRole('button', { name: 'Recevoir le code par SMS' }).click()
    await guest
      .getByLabel('Code reçu par SMS (6 chiffres)')
      .and(guest.locator('input'))
      .fill(/\b(\d{6})\b/.exec(await outboxBody(guest.request, phone))![1]!)
    await guest.getByRole('button', { name: 'Valider le code' }).click()
    await expect(guest).toHaveURL(/\/user\/findId\?step=result$/)
    await expect(guest.getByRole('list', { name: 'Retrouver mon identifiant' }).getByRole('listitem')).toHaveText([/^e2\*+@example\.com$/])
    await context.close()

    // a crafted link with made-up IDs shows none of them: without the server's result the page starts again
    await page.goto('/user/findId?step=result&ids=made-up%40evil.example,other%40evil.example&total=3')
    await expect(page.getByLabel('Numéro de téléphone').and(page.locator('input'))).toBeVisible()
    await expect(page.locator('body')).not.toContainText('evil.example')
    await expect(page.getByRole('list', { name: 'Retrouver mon identifiant' })).toHaveCount(0)
  })

  test('change password without JavaScript, and push settings persist', async ({ browser }) => {
    const { context, page, otherContext, other } = await twoDevices(browser)
    await page.goto('/user/changePassword')
    await page.getByLabel('Mot de passe actuel').and(page.locator('input')).fill(PASSWORD)
    await page.getByLabel('Nouveau mot de passe', { exact: true }).and(page.locator('input')).fill(PASSWORD)
    await page.getByLabel('Confirmer le nouveau mot de passe').and(page.locator('input')).fill(PASSWORD)
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click()
    await expect(page).toHaveURL(/error=EQUAL_PASSWORD$/)
    await expect(page.getByRole('alert')).not.toBeEmpty()
    await page.getByLabel('Mot de passe actuel').and(page.locator('input')).fill(PASSWORD)
    await page.getByLabel('Nouveau mot de passe', { exact: true }).and(page.locator('input')).fill('Change2026')
    await page.getByLabel('Confirmer le nouveau mot de passe').and(page.locator('input')).fill('Change2026')
    await page.getByRole('button', { name: 'Changer le mot de passe' }).click()
    await expect(page.getByRole('status')).toContainText('Votre mot de passe a été changé.')
    // ASVS 7.4.3: the other device's next page shows it signed out at once, this one stays signed in
    await other.goto('/library/my')
    await expect(other).toHaveURL(/\/user\/login\?callback=/)
    await otherContext.close()

    await page.goto('/setting/push')
    await page.getByLabel('Recevoir les notifications').and(page.locator('input')).check()
    await page.getByLabel('Aussi la nuit (22 h – 8 h)').and(page.locator('input')).check()
    await page.getByRole('button', { name: 'Enregistrer' }).click()
    await expect(page.getByRole('status')).toHaveText('Vos préférences ont été enregistrées.')
    await page.reload()
    await expect(page.getByLabel('Recevoir les notifications').and(page.locator('input'))).toBeChecked()
    await expect(page.getByLabel('Aussi la nuit (22 h – 8 h)').and(page.locator('input'))).toBeChecked()
    await expect(page.getByLabel('Nouveaux épisodes de mes favoris').and(page.locator('input'))).not.toBeChecked()
    await context.close()
  })

  test('carrier verification through the local sandbox; a result changed in transit is refused', async ({ page }) => {
    const email = await newAccount(page.request)
    await signIn(page, email, PASSWORD)
    const phone = `+8210${String(Date.now()).slice(-8)}`
    const verifyOnce = async () => {
      await page.goto('/nice/encode?purpose=PHONE&returnPath=%2Fsetting%2Fphone')
      await expect(page).toHaveURL(/\/nice\/sandbox$/)
      await page.getByLabel('Nom').and(page.locator('input')).fill('Hong Gildong')
      await page.getByLabel('Numéro de téléphone').and(page.locator('input')).fill(phone)
      await page.getByLabel('Date de naissance').and(page.locator('input')).fill('1990-04-01')
      await page.getByRole('button', { name: 'Vérifier mon identité' }).click()
    }
    // the carrier's answer is altered on its way back to the site
    await page.route('**/callback/auth-mobilians', async (route) => {
      if (route.request().method() !== 'POST') return route.continue()
      const form = new URLSearchParams(route.request().postData() ?? '')
      const payload = JSON.parse(Buffer.from(form.get('EncodeData')!, 'base64url').toString())
      form.set('EncodeData', Buffer.from(JSON.stringify({ ...payload, phone: '+821000000000' })).toString('base64url'))
      await route.continue({ postData: form.toString() })
    })
    await verifyOnce()
    await expect(page).toHaveURL(/\/callback\/auth-mobilians\?error=CARRIER_TAMPERED$/)
    await expect(page.getByRole('alert')).toHaveText(
      'Le résultat de la vérification a été modifié pendant la transmission. Veuillez recommencer la vérification.',
    )
    await page.unroute('**/callback/auth-mobilians')
    await verifyOnce()
    await expect(page.getByRole('status')).toHaveText('Votre numéro de téléphone a été vérifié et enregistré.')
    await page.getByRole('link', { name: 'Continuer' }).click()
    await expect(page).toHaveURL(/\/setting\/phone$/)
    await expect(page.getByText(`Numéro enregistré : ${'*'.repeat(phone.length - 4)}${phone.slice(-4)}`)).toBeVisible()
  })

  test('the carrier posts its result from its own site: the signature decides, not the Origin header', async ({ page }) => {
    const res = await page.request.post('/callback/auth-mobilians', {
      headers: { origin: 'https://carrier.example' },
      form: { EncodeData: 'forged' },
      maxRedirects: 0,
    })
    expect(res.status()).toBe(303)
    expect(res.headers().location).toMatch(/\/callback\/auth-mobilians\?error=CARRIER_TAMPERED$/)
  })

  test('withdrawal: reasons, agreement, confirm dialog, mail, approval; the address is then blocked for 30 days', async ({ page }) => {
    const email = await newAccount(page.request)
    await signIn(page, email, PASSWORD)
    await page.goto('/setting')
    await page.getByRole('link', { name: 'Supprimer mon compte' }).click()
    await page.getByRole('checkbox', { name: 'Autre raison' }).check()
    await page.getByRole('checkbox', { name: "C'est trop cher" }).check()
    await page.getByLabel('Précisez (obligatoire pour « Autre raison »)').fill('Trop de publicités')
    await page.getByLabel(/J'ai compris que la suppression est définitive/).check()
    // the confirm dialog: first dismissed (nothing sent), then accepted
    page.once('dialog', (d) => d.dismiss())
    await page.getByRole('button', { name: 'Supprimer mon compte' }).click()
    await expect(page).toHaveURL(/\/setting\/withdrawal$/)
    page.once('dialog', (d) => d.accept())
    await page.getByRole('button', { name: 'Supprimer mon compte' }).click()
    await expect(page.getByRole('status')).toContainText('Un e-mail de confirmation vous a été envoyé.')
    const url = new URL(/https?:\/\/\S+/.exec(await outboxBody(page.request, email))![0])
    await page.goto(url.pathname + url.search)
    await page.getByRole('button', { name: 'Supprimer définitivement' }).click()
    await expect(page).toHaveURL(/\/callback\/logout-success\?withdrawn=1$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Compte supprimé')
    const again = await page.request.post('/api/v1/auth/sign-up', {
      data: { email, password: PASSWORD, passwordConfirm: PASSWORD, agreeTerms: true },
    })
    expect((await again.json()).code).toBe('DELETED_USER')
  })

  test('sign out of every device from the settings: this browser and the other one are signed out', async ({ browser }) => {
    const { context, page, otherContext, other } = await twoDevices(browser)

    await page.goto('/setting')
    const button = page.getByRole('button', { name: 'Se déconnecter de tous les appareils' })
    await expect(button).toHaveAccessibleDescription(/Met fin à toutes les sessions de ce compte/)
    await button.click()
    await expect(page).toHaveURL(/\/callback\/logout-success$/)
    await page.goto('/library/my')
    await expect(page).toHaveURL(/\/user\/login\?callback=/)
    await other.goto('/library/my')
    await expect(other).toHaveURL(/\/user\/login\?callback=/)
    await otherContext.close()
    await context.close()
  })

  test('account pages have no serious accessibility violation', async ({ page }) => {
    for (const path of [
      '/user/findPassword?tab=phone',
      '/user/findId',
      '/user/signup/event?email=a%40b.fr&error=ALREADY_AUTH_MAIL',
      '/user/resetPassword/result?result=TIMEOUT',
      '/my',
      '/callback/logout-success',
    ]) {
      await page.goto(path)
      const results = await new AxeBuilder({ page }).analyze()
      expect(
        results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
        path,
      ).toEqual([])
    }
  })
})
