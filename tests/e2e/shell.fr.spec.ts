import { expect, test } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'

test.describe('French edition shell', () => {
  test('home shows demo series in French and leads to a series detail', async ({ page }) => {
    const response = await page.goto('/')
    expect(response?.status()).toBe(200)
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR')
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
    await expect(page.getByRole('heading', { name: 'Les plus lus' })).toBeVisible()
    const cards = page.locator('#popular ~ ul a[href^="/detail/"], section[aria-labelledby="popular"] a[href^="/detail/"]')
    expect(await cards.count()).toBeGreaterThanOrEqual(6)
    const title = (await cards.first().innerText()).trim()
    await cards.first().click()
    await expect(page).toHaveURL(/\/detail\/\d+$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
    expect(await page.locator('ol.episodes li').count()).toBeGreaterThanOrEqual(10)
    await expect(
      page
        .locator('ol.episodes')
        .getByText(/Gratuit/)
        .first(),
    ).toBeVisible()
  })

  test('desktop shows shop, gift, search, my in the header; mobile shows the five-tab bottom bar', async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 800 })
    await page.goto('/')
    const header = page.locator('.nav-desktop')
    await expect(header).toBeVisible()
    await expect(header.getByRole('link')).toHaveText(['Boutique', 'Cadeaux', 'Recherche', 'Mon compte'])
    await expect(page.locator('.nav-bottom')).toBeHidden()

    await page.setViewportSize({ width: 375, height: 740 })
    await expect(page.locator('.nav-desktop')).toBeHidden()
    const bottom = page.locator('.nav-bottom')
    await expect(bottom).toBeVisible()
    await expect(bottom.getByRole('link')).toHaveText(['Accueil', 'Boutique', 'Cadeaux', 'Recherche', 'Mon compte'])
    await expect(bottom.getByRole('link', { name: 'Accueil' })).toHaveAttribute('aria-current', 'page')
    // content column is min(window, 720)
    await page.setViewportSize({ width: 1280, height: 800 })
    expect((await page.locator('main').boundingBox())!.width).toBeLessThanOrEqual(720)
  })

  test('a guest opening a protected page is sent to login with the callback, sign-in cookies cleared', async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([
      { name: 'login-callback-finished', value: 'Y', url: baseURL! },
      { name: 'is-sign-up', value: 'Y', url: baseURL! },
    ])
    await page.goto('/library/recent?porch=mail')
    const url = new URL(page.url())
    expect(url.pathname).toBe('/user/login')
    expect(url.searchParams.get('callback')).toBe('/library/recent?porch=mail')
    expect(url.searchParams.get('porch')).toBe('mail')
    const names = (await context.cookies()).map((c) => c.name)
    expect(names).not.toContain('login-callback-finished')
    expect(names).not.toContain('is-sign-up')
  })

  test('back closes the open modal first, and Escape closes it too', async ({ page }) => {
    await page.goto('/')
    const opener = page.getByRole('button', { name: 'Informations sur la société' })
    await opener.click()
    const dialog = page.getByRole('dialog', { name: 'Informations sur la société' })
    await expect(dialog).toBeVisible()
    await page.goBack()
    await expect(dialog).toBeHidden()
    expect(new URL(page.url()).pathname).toBe('/')
    await opener.click()
    await expect(dialog).toBeVisible()
    await expect(dialog).toHaveCSS('z-index', '2000')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()
  })

  test('one toast at a time, gone after 3 seconds', async ({ page }) => {
    // two controls that show a toast (`data-toast`, the shell's toast store) on a page that has none of its own
    await page.route(/\/$/, async (route) => {
      const body = (await (await route.fetch()).text()).replace(
        '</main>',
        '<button data-toast="premier">1</button><button data-toast="second">2</button></main>',
      )
      await route.fulfill({ body, contentType: 'text/html' })
    })
    await page.goto('/')
    await page.getByRole('button', { name: '1', exact: true }).click()
    await page.getByRole('button', { name: '2', exact: true }).click()
    const toast = page.getByRole('status')
    await expect(toast).toHaveText('second')
    await expect(toast).toBeHidden({ timeout: 4500 })
  })

  test('scroll-to-top appears after scrolling and brings the reader back up', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 600 })
    await page.goto('/')
    const button = page.getByRole('button', { name: 'Revenir en haut de la page' })
    await expect(button).toBeHidden()
    await page.mouse.wheel(0, 2000)
    await expect(button).toBeVisible()
    await button.click()
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0)
  })

  test('context menu and drag are blocked page-wide', async ({ page }) => {
    await page.goto('/')
    const prevented = await page.evaluate(() => {
      const menu = new MouseEvent('contextmenu', { bubbles: true, cancelable: true })
      const drag = new DragEvent('dragstart', { bubbles: true, cancelable: true })
      document.querySelector('main')!.dispatchEvent(menu)
      document.querySelector('main')!.dispatchEvent(drag)
      return [menu.defaultPrevented, drag.defaultPrevented]
    })
    expect(prevented).toEqual([true, true])
  })

  test('unknown pages answer 404 with a French explanation and a way home', async ({ page }) => {
    for (const path of ['/nothing-here', '/detail/999999', '/detail/abc', '/detail/%00']) {
      const response = await page.goto(path)
      expect(response?.status(), path).toBe(404)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page introuvable')
      await expect(page.getByRole('link', { name: "Retour à l'accueil" })).toBeVisible()
    }
  })

  test('pages have no serious or critical accessibility violations and no CSP violations', async ({ page }) => {
    const violations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    await page.goto('/')
    const detail = await page.locator('a[href^="/detail/"]').first().getAttribute('href')
    for (const path of ['/', detail!, '/nothing-here', '/prepare']) {
      await page.goto(path)
      const result = await new AxeBuilder({ page }).analyze()
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      expect(
        bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
        path,
      ).toEqual([])
    }
    expect(violations).toEqual([])
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })
  test('home and detail are readable and linked', async ({ page }) => {
    await page.goto('/')
    const link = page.locator('a[href^="/detail/"]').first()
    await expect(link).toBeVisible()
    await link.click()
    await expect(page.locator('ol.episodes li').first()).toBeVisible()
  })
})
