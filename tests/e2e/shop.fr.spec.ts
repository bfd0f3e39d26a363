import { expect, test, type Page } from '@playwright/test'
import { balanceElsewhere, headerBalance, newMember, noSeriousViolations, signInTo } from './helpers.ts'

/** Spec §2 /shop, §5 agreement checkbox; issue 4 §2: the sandbox checkout, its signed webhook and the result. */

/** The balance the page shows (shop: the reader's box; result page: the new balance). */
const balance = async (page: Page) =>
  Number(await page.locator('[data-testid="balance"][data-total], [data-testid="balance"] [data-total]').first().getAttribute('data-total'))
const fr = (n: number) => new Intl.NumberFormat('fr-FR').format(n)

test.describe('French coin shop', () => {
  test('a guest sees the products with their prices and a login link, no buy form', async ({ page }) => {
    await page.goto('/shop')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Boutique de pièces')
    await expect(page.getByText('30 pièces', { exact: true })).toBeVisible()
    await expect(page.getByText('€4,99')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/user/login?callback=%2Fshop')
    await expect(page.getByRole('button', { name: 'Acheter' })).toHaveCount(0)
  })

  test('a reader buys coins through the sandbox checkout (agreement required) and sees the balance grow', async ({ page }) => {
    await signInTo(page, '/shop')
    const before = await balance(page)
    const thirty = page.getByRole('radio', { name: /^30 pièces/ })
    await thirty.check()
    // without the agreement the charge is refused with a visible, translated message
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page).toHaveURL(/\/shop\?error=INVALID_PARAMETER&product=\d+#shop-agree$/)
    await expect(page.getByRole('alert')).toHaveText("Cochez la case d'acceptation des conditions de vente pour continuer.")
    await expect(thirty).toBeChecked() // the reader's choice is kept
    // the alert is beside the checkbox it concerns, which has the focus and is in view below the sticky header
    const agree = page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ })
    await expect(agree).toHaveAttribute('aria-invalid', 'true')
    await expect(agree).toHaveAccessibleDescription("Cochez la case d'acceptation des conditions de vente pour continuer.")
    await expect(agree).toBeFocused()
    const header = await page.locator('header').first().boundingBox()
    const alertBox = await page.getByRole('alert').boundingBox()
    expect(alertBox!.y).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0))
    expect(alertBox!.y + alertBox!.height).toBeLessThanOrEqual(page.viewportSize()!.height)
    await noSeriousViolations(page)

    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_[0-9a-f]{32}$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paiement')
    await expect(page.getByTestId('amount')).toHaveText('€4,99')
    await noSeriousViolations(page)
    await page.getByRole('button', { name: 'Payer €4,99' }).click()

    await expect(page).toHaveURL(/\/shop\/result\?payment=pay_[0-9a-f]{32}$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paiement réussi')
    await expect(page.getByRole('status').filter({ hasText: 'ajoutées' })).toHaveText(
      '30 pièces ont été ajoutées à votre compte, plus 3 en bonus.',
    )
    expect(await balance(page)).toBe(before + 33)

    // the shop and the charge history show it too
    await page.getByRole('link', { name: 'Retour à la boutique' }).click()
    expect(await balance(page)).toBe(before + 33)
    await page.goto('/history/charge')
    const first = page.locator('tbody tr').first()
    await expect(first).toContainText('Achat de pièces')
    await expect(first).toContainText('+3')
    await expect(page.locator('tbody tr').nth(1)).toContainText('+30')
  })

  test('cancelling at the checkout credits nothing and shows the cancelled state', async ({ page }) => {
    await signInTo(page, '/shop')
    const before = await balance(page)
    await page.getByRole('radio', { name: /^10 pièces/ }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_/)
    await page.getByRole('button', { name: 'Annuler' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paiement annulé')
    await expect(page.getByRole('alert')).toHaveText("Le paiement a été annulé. Aucun montant n'a été débité.")
    await page.goto('/shop')
    expect(await balance(page)).toBe(before)
  })

  test('PayPal opens the checkout in a pop-up; paying there shows the result here and the new balance in the header, here and in another tab, without a reload', async ({
    page,
  }) => {
    await signInTo(page, '/shop')
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
    const before = await balance(page)
    await expect(headerBalance(page)).toHaveText(`Solde : ${fr(before)} pièces`)
    const elsewhere = await balanceElsewhere(page)
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true))
    await page.getByRole('radio', { name: /^10 pièces/ }).check()
    await page.getByRole('radio', { name: 'PayPal' }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Acheter' }).click()])
    await expect(popup).toHaveURL(/\/shop\/checkout\/pay_/)
    await expect(page.getByText("Terminez le paiement dans la fenêtre qui s'est ouverte.")).toBeVisible()
    await popup.getByRole('button', { name: /^Payer/ }).click()
    await expect(page.getByRole('heading', { name: 'Paiement réussi' })).toBeVisible({ timeout: 15_000 })
    await expect(page.getByRole('status')).toContainText('10 pièces')
    const after = ((await (await page.request.get('/api/v1/coin')).json()) as { data: { total: number } }).data.total
    expect(after).toBeGreaterThan(before)
    await expect(headerBalance(page)).toHaveText(`Solde : ${fr(after)} pièces`)
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    await elsewhere.shows(after)
    await noSeriousViolations(page)
    await popup.close()
    await elsewhere.close()
  })

  test('a charge whose session must be renewed (NEED_TO_REFRESH) is refreshed and sent once more with its key, not shown as an error', async ({
    page,
  }) => {
    await signInTo(page, '/shop')
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
    await expect(headerBalance(page)).toBeVisible() // the header's own session request is done
    const calls: string[] = []
    const keys: (string | undefined)[] = []
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname
      if (path === '/api/v1/payment/charge' || path === '/api/auth/session') calls.push(`${r.method()} ${path}`)
      if (path === '/api/v1/payment/charge') keys.push(r.headers()['idempotency-key'])
    })
    // the first charge meets a session the worker must renew (spec §8), as another tab's rotation leaves it
    let refused = false
    await page.route('**/api/v1/payment/charge', async (route) => {
      if (refused) return route.continue()
      refused = true
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ result: 'ERROR', code: 'NEED_TO_REFRESH', message: 'Veuillez vous reconnecter.', requestId: 'e2e' }),
      })
    })
    await page.getByRole('radio', { name: /^10 pièces/ }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_[0-9a-f]{32}$/)
    expect(calls).toEqual(['POST /api/v1/payment/charge', 'GET /api/auth/session', 'POST /api/v1/payment/charge'])
    expect(keys[0]).toBeTruthy()
    expect(keys[1]).toBe(keys[0])
  })

  test('a blocked pop-up offers to continue in this tab; closing the pop-up unpaid shows payment cancelled', async ({ page }) => {
    await signInTo(page, '/shop')
    await page.addInitScript(() => {
      window.open = () => null
    })
    await page.reload()
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
    await page.getByRole('radio', { name: 'PayPal' }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    await page.getByRole('button', { name: 'Acheter' }).click()
    await expect(page.getByRole('alert')).toContainText('La fenêtre a été bloquée par votre navigateur.')
    await page.getByRole('link', { name: 'Continuer le paiement dans cet onglet' }).click()
    await expect(page).toHaveURL(/\/shop\/checkout\/pay_/)
    await page.getByRole('button', { name: 'Annuler' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Paiement annulé')
  })

  test('closing the pop-up without paying shows the cancelled state', async ({ page }) => {
    await signInTo(page, '/shop')
    await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
    await page.getByRole('radio', { name: 'PayPal' }).check()
    await page.getByRole('checkbox', { name: /J'accepte les conditions de vente des pièces/ }).check()
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Acheter' }).click()])
    await expect(popup).toHaveURL(/\/shop\/checkout\/pay_/)
    await popup.close()
    await expect(page.getByRole('alert')).toHaveText("Le paiement a été annulé. Aucun montant n'a été débité.", { timeout: 15_000 })
  })

  test('the address form saves a European address with the country dial code', async ({ page }) => {
    await signInTo(page, '/shop/address')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Adresse de facturation')
    expect(await page.getByLabel('Pays').locator('option').count()).toBe(29)
    await page.getByLabel('Nom complet').fill('Camille Martin')
    await page.getByLabel('Adresse', { exact: true }).fill('3 rue de la République')
    await page.getByLabel('Code postal').fill('69001')
    await page.getByLabel('Ville').fill('Lyon')
    await page.getByLabel('Pays').selectOption('BE')
    await page.getByLabel('Téléphone').fill('+33 6 12 34 56 78')
    await page.getByRole('button', { name: 'Enregistrer' }).click()
    await expect(page.getByRole('alert')).toContainText('Vérifiez les champs signalés')
    await expect(page.getByLabel('Téléphone')).toHaveAttribute('aria-invalid', 'true')
    await page.getByLabel('Nom complet').fill('Camille Martin')
    await page.getByLabel('Adresse', { exact: true }).fill('3 rue de la République')
    await page.getByLabel('Code postal').fill('1000')
    await page.getByLabel('Ville').fill('Bruxelles')
    await page.getByLabel('Pays').selectOption('BE')
    await page.getByLabel('Téléphone').fill('0470 12 34 56')
    await page.getByRole('button', { name: 'Enregistrer' }).click()
    await expect(page.getByRole('status')).toHaveText('Adresse enregistrée.')
    await expect(page.getByLabel('Téléphone')).toHaveValue('470123456')
    await noSeriousViolations(page)
  })

  test.describe('an offer the reader can no longer buy (issue 35 point 4, phone)', () => {
    test.use({ viewport: { width: 390, height: 844 } })
    const agreeName = /J'accepte les conditions de vente des pièces/
    const limitReached = "Vous avez atteint la limite d'achat de cette offre. Choisissez-en une autre."
    const welcomeOf = (page: Page) => page.getByRole('radio', { name: /Offre de bienvenue/ })

    /** Buys the welcome offer in another tab of the same reader (JavaScript or not, as the context has it). */
    async function buyWelcomeElsewhere(page: Page) {
      const other = await page.context().newPage()
      await other.goto('/shop')
      await expect(welcomeOf(other)).toBeChecked()
      await other.getByRole('checkbox', { name: agreeName }).check()
      await other.locator('#shop-form button[type="submit"]').click()
      await expect(other).toHaveURL(/\/shop\/checkout\/pay_/)
      await other.getByRole('button', { name: /^Payer/ }).click()
      await expect(other.getByRole('heading', { level: 1 })).toHaveText('Paiement réussi')
      await other.close()
    }

    /** The refusal is the buy button's description, right below it and on screen. */
    async function refusedBesideButton(page: Page) {
      const alert = page.getByRole('alert')
      await expect(alert).toHaveText(limitReached)
      await expect(alert).toBeInViewport()
      const buy = page.locator('#shop-form button[type="submit"]')
      await expect(buy).toHaveAccessibleDescription(limitReached)
      const [b, a] = [(await buy.boundingBox())!, (await alert.boundingBox())!]
      expect(a.y).toBeGreaterThanOrEqual(b.y + b.height)
      expect(a.y - (b.y + b.height)).toBeLessThan(40)
    }

    /** Once bought, the welcome offer says so, is disabled and not selected; the next offer is. */
    async function shownBought(page: Page) {
      await expect(welcomeOf(page)).toBeDisabled()
      await expect(welcomeOf(page)).not.toBeChecked()
      await expect(page.locator('.product').filter({ has: welcomeOf(page) })).toContainText('Déjà acheté')
      await expect(page.getByRole('radio', { name: /^10 pièces/ })).toBeChecked()
    }

    test('bought up to its limit, it is disabled with its reason and never selected; a refusal shows beside Acheter, announced', async ({
      page,
    }, info) => {
      await signInTo(page, '/shop', await newMember(page))
      await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
      await expect(welcomeOf(page)).toBeChecked() // a new reader's first offer
      await buyWelcomeElsewhere(page)
      // this page still offers it: Acheter is refused, and the reader sees why beside the button
      await page.getByRole('checkbox', { name: agreeName }).check()
      await page.getByRole('button', { name: 'Acheter' }).click()
      await refusedBesideButton(page)
      await expect(welcomeOf(page)).toBeDisabled()
      await info.attach('shop-refused-390', { body: await page.screenshot(), contentType: 'image/png' })

      await page.goto('/shop')
      await shownBought(page)
      await noSeriousViolations(page)
      await info.attach('shop-bought-390', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' })
      await page.setViewportSize({ width: 1280, height: 900 })
      await info.attach('shop-bought-1280', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' })
    })

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false })
      test('the same: the refusal lands beside the button, the bought offer disabled and not selected', async ({ page, baseURL }, info) => {
        const member = await newMember(page)
        await page.request.post('/api/v1/auth/web/sign-in', {
          form: { email: member.email, password: member.password, callback: '/' },
          headers: { origin: baseURL! },
          maxRedirects: 0,
        })
        await page.goto('/shop')
        await expect(welcomeOf(page)).toBeChecked()
        await buyWelcomeElsewhere(page)
        await page.getByRole('checkbox', { name: agreeName }).check()
        await page.locator('#shop-form button[type="submit"]').click()
        await expect(page).toHaveURL(/\/shop\?error=LIMITED_COIN_PRODUCT_USER&product=\d+#shop-error$/)
        await refusedBesideButton(page)
        await shownBought(page)
        await info.attach('shop-refused-nojs-390', { body: await page.screenshot(), contentType: 'image/png' })
      })
    })
  })
})
