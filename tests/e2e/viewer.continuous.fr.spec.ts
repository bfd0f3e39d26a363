import { expect, test, type Browser, type Page } from '@playwright/test'
import { balance, hydrated, newAccount, reader, seriousViolations, signIn } from './viewer.helpers.ts'
import { balanceElsewhere } from './helpers.ts'

/**
 * Continuous reading and its money (spec §1 "continuous reading with automatic coin deduction"; issue 6 §3–§4)
 * on the seeded demo: series 1 has 11 episodes, ids 1–11, the first five free, the others rented for 2 coins or
 * bought for 4. Each test that moves coins signs up its own reader (100 bonus coins from the WELCOME100
 * coupon), so nothing depends on what other tests did to the demo accounts.
 */

/** Scrolls on to the end, as a reader would, until `target` is on the page. */
async function readTo(page: Page, target: ReturnType<Page['locator']>) {
  await expect(async () => {
    await page.keyboard.press('End')
    await expect(target).toBeAttached({ timeout: 2000 })
  }).toPass({ timeout: 45_000 }) // each step waits for an API answer and, when locked, an automatic purchase
}

/** Records purchase requests. */
function watchMoney(page: Page) {
  const purchases: { key: string | undefined; body: string | null }[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/v1/purchase') && r.method() === 'POST')
      purchases.push({ key: r.headers()['idempotency-key'], body: r.postData() })
  })
  return { purchases }
}

test.describe('continuous reading', () => {
  test('the next episode flows in below without a page load or a layout shift; its first slice is loaded before the reader gets there', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.addInitScript(() => {
      const w = window as unknown as { __cls: number }
      w.__cls = 0
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!e.hadRecentInput) w.__cls += e.value
      }).observe({ type: 'layout-shift', buffered: true })
    })
    await page.goto('/viewer/1')
    await hydrated(page)
    await page.evaluate(() => {
      ;(window as unknown as { __samePage: boolean }).__samePage = true
    })
    const next = page.locator('section[data-episode="2"]')
    await expect(next).toBeAttached()
    await expect(next.getByRole('heading', { level: 2 })).toHaveText(/^Épisode\s2$/)
    // fetched ahead: the next episode's first slice is loaded while the reader is still in episode 1
    await expect
      .poll(() =>
        next
          .locator('img')
          .first()
          .evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0),
      )
      .toBe(true)
    expect(page.url()).toMatch(/\/viewer\/1$/)
    const firstTop = await next.evaluate((el) => el.getBoundingClientRect().top + scrollY)
    expect(await page.evaluate(() => scrollY + innerHeight)).toBeLessThan(firstTop)

    // reading on: the URL and the title follow, the page is the same document
    await next.evaluate((el) => scrollTo(0, el.getBoundingClientRect().top + scrollY))
    await expect(page).toHaveURL(/\/viewer\/2$/)
    await expect(page).toHaveTitle(/Épisode 2/)
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true)
    // n goes to the next episode within the page too, p back to the one above
    await page.keyboard.press('p')
    await expect(page).toHaveURL(/\/viewer\/1$/)
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true)
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('a guest reaching a locked episode sees its prices and a login link that comes back to that episode', async ({ page }) => {
    await page.goto('/viewer/5')
    await hydrated(page)
    await page.keyboard.press('End')
    const locked = page.getByRole('region', { name: /^Épisode 6$/ })
    await expect(locked).toContainText('Location 2 pièces')
    await expect(locked).toContainText('Achat 4 pièces')
    const login = locked.getByRole('link', { name: 'Se connecter pour le lire' })
    const href = await login.getAttribute('href')
    const callback = new URL(href!, 'http://x').searchParams.get('callback')!
    expect(callback).toBe('/callback/viewer-login-success?callback=%2Fviewer%2F6')
    await expect(locked.getByRole('link', { name: 'Louer ou acheter' })).toHaveAttribute('href', '/viewer/6')
    await expect(locked.getByRole('button', { name: /automatiquement/ })).toHaveCount(0)
    expect(await page.locator('img[src*="/ep/6/"], img[src*="/slice/"]').count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('a signed-in reader at a locked next episode: offered without being fetched, no refused request, no console error', async ({
    page,
    baseURL,
  }) => {
    await reader(page, baseURL!)
    const errors: string[] = []
    const refused: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    page.on('response', (r) => {
      if (r.url().includes('/api/v1/viewer/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`)
    })
    await page.goto('/viewer/5')
    await hydrated(page)
    await page.keyboard.press('End')
    await expect(page.getByRole('region', { name: /^Épisode 6$/ }).getByRole('link', { name: 'Louer ou acheter' })).toBeVisible()
    expect(refused).toEqual([])
    expect(errors).toEqual([])
  })

  test('a rental in the viewer reaches the balance in the reader’s other tab without a reload (the session store)', async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await reader(page, baseURL!)
    const other = await balanceElsewhere(page)
    await other.shows(100)
    await page.bringToFront()
    await page.goto('/viewer/5')
    await hydrated(page)
    // the viewer's bar hides the site header: its balance and bell are not loaded there (src/components/site.ts)
    await expect(page.locator('[data-coin-balance]')).toHaveCount(0)
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true))
    await page.keyboard.press('End')
    await page
      .getByRole('region', { name: /^Épisode 6$/ })
      .getByRole('button', { name: 'Débloquer la suite automatiquement…' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Lecture continue' })
    await dialog.getByRole('radio', { name: 'Location' }).check()
    await dialog.getByRole('button', { name: 'Confirmer et débloquer' }).click()
    await expect(page.locator('section[data-episode="6"]')).toBeAttached()
    expect(await balance(page)).toBe(98) // rented for 2 coins
    await other.shows(98)
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)
    await other.close()
  })

  test('automatic unlock: coins move only after the confirmation, once per episode, never past the cap', async ({ page, baseURL }) => {
    test.setTimeout(120_000) // reads through four episodes, each unlocked by a purchase
    await page.setViewportSize({ width: 390, height: 800 })
    const money = watchMoney(page)
    await reader(page, baseURL!)
    expect(await balance(page)).toBe(100)

    await page.goto('/viewer/5')
    await hydrated(page)
    await page.keyboard.press('End')
    const locked6 = page.getByRole('region', { name: /^Épisode 6$/ })
    const offer = locked6.getByRole('button', { name: 'Débloquer la suite automatiquement…' })
    await expect(offer).toBeVisible()
    // seeing the locked episode moves nothing; cancelling the confirmation moves nothing
    await offer.click()
    const dialog = page.getByRole('dialog', { name: 'Lecture continue' })
    await expect(dialog).toContainText('en commençant par celui-ci (2 pièces)')
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Annuler' }).click()
    await expect(dialog).toBeHidden()
    await expect(offer).toBeFocused()
    expect(await balance(page)).toBe(100)
    expect(money.purchases).toEqual([])

    // confirm: buy (4 coins each) with a cap of 10 coins
    await offer.click()
    await dialog.getByLabel('Budget maximum').selectOption('10')
    await dialog.getByRole('radio', { name: 'Achat' }).check()
    await dialog.getByRole('button', { name: 'Confirmer et débloquer' }).click()
    const ep6 = page.locator('section[data-episode="6"]')
    await expect(ep6).toBeAttached()
    await expect
      .poll(() =>
        ep6
          .locator('img')
          .first()
          .evaluate((i: HTMLImageElement) => i.naturalWidth),
      )
      .toBeGreaterThan(0)
    expect(await balance(page)).toBe(96)
    await expect(page.getByText('Déblocage automatique activé : 4 sur 10 pièces utilisées.')).toBeVisible()

    // episode 7 is unlocked when the reader gets to it, without asking again
    const ep7 = page.locator('section[data-episode="7"]')
    await readTo(page, ep7)
    expect(await balance(page)).toBe(92)
    // episode 8 would pass the cap (8 + 4 > 10): it stays locked, nothing more is spent
    const locked8 = page.getByRole('region', { name: /^Épisode 8$/ })
    await readTo(page, locked8.getByRole('alert'))
    await expect(locked8.getByRole('alert')).toHaveText(/le budget de 10 pièces serait dépassé/)
    expect(await balance(page)).toBe(92)
    expect(money.purchases.map((p) => JSON.parse(p.body!))).toEqual([
      { episodeIds: [6], kind: 'POSSESSION', auto: true }, // the server checks them against the cap (docs/API.md)
      { episodeIds: [7], kind: 'POSSESSION', auto: true },
    ])
    expect(money.purchases.map((p) => p.key)).toEqual([
      expect.stringMatching(/^viewer-auto:\d+:6$/),
      expect.stringMatching(/^viewer-auto:\d+:7$/),
    ])

    // reading the same stretch again (another visit): owned episodes open, no coin moves twice
    await page.goto('/viewer/5')
    await hydrated(page)
    await readTo(page, page.getByRole('region', { name: /^Épisode 8$/ }).getByRole('alert'))
    await expect(page.locator('section[data-episode="6"], section[data-episode="7"]')).toHaveCount(2)
    expect(await balance(page)).toBe(92)
    expect(money.purchases).toHaveLength(2)

    // opting out: the next locked episode offers the choice again
    await page.getByRole('button', { name: 'Désactiver' }).click()
    await expect(
      page.getByRole('region', { name: /^Épisode 8$/ }).getByRole('button', { name: 'Débloquer la suite automatiquement…' }),
    ).toBeVisible()
  })

  test('a session ended on another device while reading: the next locked episode signs the viewer out (NOT_FOUND_ACCESS_TOKEN)', async ({
    browser,
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    const email = await reader(page, baseURL!)
    const signouts: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/api/auth/signout') && r.method() === 'POST') signouts.push(r.url())
    })
    await page.goto('/viewer/4')
    await hydrated(page)
    await expect(page.locator('section[data-episode="5"]')).toBeAttached() // fetched ahead while signed in

    // the same reader changes the password on another device: every other session ends at once (ASVS 7.4.3)
    const otherContext = await browser.newContext({ baseURL })
    const other = await otherContext.newPage()
    await signIn(other, email)
    const changed = await other.request.put('/api/v1/auth/local/change/password', {
      data: { oldPassword: 'Viewer-2026!', newPassword: 'Viewer2027x' },
      headers: { origin: baseURL! },
    })
    expect(changed.status()).toBe(200)
    await otherContext.close()

    // reading on to locked episode 6 (not fetched: the opt-in read there is refused): the viewer signs out and the
    // sign-in page says why (the catalogue's NOT_FOUND_ACCESS_TOKEN message), leading back to the episode
    await page.keyboard.press('End')
    await page.waitForURL(/\/user\/login\?/)
    await expect(page.getByText('Vous avez été déconnecté(e). Veuillez vous reconnecter.')).toBeVisible()
    expect(new URL(page.url()).searchParams.get('callback')).toMatch(/^\/callback\/viewer-login-success\?callback=%2Fviewer%2F[56]$/)
    expect(signouts).toHaveLength(1)
    expect((await page.request.get('/api/v1/coin')).status()).toBe(401)
    await page.goto('/library/my')
    await expect(page).toHaveURL(/\/user\/login\?callback=/)
  })

  test('reading progress is restored on another device and listed in /library/recent', async ({ browser, page, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 700 })
    const email = await newAccount(page.request)
    await signIn(page, email)
    await page.goto('/viewer/3')
    await hydrated(page)
    const content = page.locator('#viewer-content')
    await content.evaluate((el) =>
      scrollTo(0, el.getBoundingClientRect().top + scrollY + (el.getBoundingClientRect().height - innerHeight) * 0.5),
    )
    // leaving the episode sends the place (a beacon as the page goes)
    await page.goto('/')
    let position = 0
    await expect
      .poll(
        async () =>
          (position = ((await (await page.request.get('/api/v1/viewer/3')).json()) as { data: { progress: number } }).data.progress),
      )
      .toBeGreaterThan(0.3)
    expect(position).toBeLessThan(0.7)

    const other = await (browser as Browser).newContext({ baseURL, viewport: { width: 390, height: 700 } })
    const phone = await other.newPage()
    await signIn(phone, email)
    await phone.goto('/library/recent')
    const item = phone.getByRole('listitem').filter({ has: phone.getByRole('heading', { name: 'Un café pour deux' }) })
    await expect(item).toContainText(`lu à ${Math.round(position * 100)} %`)
    await item.getByRole('link', { name: 'Reprendre l’épisode 3' }).click()
    await expect(phone).toHaveURL(/\/viewer\/3$/) // the place travels in ?p= and is taken out of the URL once used
    await hydrated(phone)
    const restored = await phone.locator('#viewer-content').evaluate((el) => {
      const r = el.getBoundingClientRect()
      return (scrollY - (r.top + scrollY)) / (r.height - innerHeight)
    })
    expect(Math.abs(restored - position)).toBeLessThan(0.02)
    expect(await seriousViolations(phone)).toEqual([])
    await other.close()
  })
})

test('an adult episode asks for the age check: the age popup opens, coming back to the episode', async ({ page }) => {
  const res = await page.goto('/viewer/61') // series 6 is for adults; its first episode is free
  expect(res?.status()).toBe(403)
  // a guest on fr is asked to log in first, then comes back here
  const popup = page.getByRole('dialog', { name: "Vérification de l'âge" })
  await expect(popup.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/user/login?callback=%2Fviewer%2F61')
  expect(await page.locator('img[src*="/ep/"]').count()).toBe(0)
  const login = await page.locator('.viewer-adult').getByRole('link', { name: 'Se connecter' }).getAttribute('href')
  expect(new URL(login!, 'http://x').searchParams.get('callback')).toBe('/callback/viewer-login-success?callback=%2Fviewer%2F61')
})

test.describe('reading comfort', () => {
  test('zoom with + and −, double-click fits; auto-scroll with a speed control stops on Esc; f goes fullscreen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.goto('/viewer/1')
    await hydrated(page)
    const img = page.locator('#viewer-content img').first()
    const fitted = (await img.boundingBox())!.width
    await page.keyboard.press('+')
    await expect.poll(async () => (await img.boundingBox())!.width).toBeGreaterThan(fitted * 1.2)
    await page.keyboard.press('-')
    await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(Math.round(fitted))
    await img.dblclick()
    await expect.poll(async () => (await img.boundingBox())!.width).toBeGreaterThan(fitted * 1.9)
    await img.dblclick()
    await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(Math.round(fitted))

    const start = await page.evaluate(() => scrollY)
    await page.keyboard.press('a')
    const toggle = page.getByRole('button', { name: 'Défilement automatique' })
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await expect(page.getByRole('slider', { name: 'Vitesse du défilement automatique' })).toBeVisible()
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(start + 20)
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    const stopped = await page.evaluate(() => scrollY)
    await page.waitForTimeout(400)
    expect(await page.evaluate(() => scrollY)).toBe(stopped)

    await page.keyboard.press('?')
    const help = page.getByRole('dialog', { name: 'Raccourcis clavier' })
    await expect(help).toContainText('Plein écran')
    await expect(help).toContainText('Défilement automatique')
    await expect(help).toContainText('Zoomer')
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()
    await page.keyboard.press('f')
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true)
  })

  test('PAPER mode from the settings cookie is in the server HTML: no flash, even without JavaScript', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL })
    const url = new URL(baseURL!)
    await context.addCookies([
      {
        name: 'viewer-settings_fr',
        value: encodeURIComponent(JSON.stringify({ mode: 'PAPER', double: false })),
        domain: url.hostname,
        path: '/',
      },
    ])
    const page = await context.newPage()
    const res = await page.goto('/viewer/1')
    expect(res?.headers()['cache-control']).toBe('private, no-store')
    await expect(page.locator('ol.viewer-slices.viewer-paper')).toHaveCount(1)
    await expect(page.locator('ol.viewer-slices > li:not([hidden])')).toHaveCount(1)
    await expect(page.getByRole('navigation', { name: 'Navigation entre les pages' }).getByRole('status')).toHaveText('1 / 3')
    await context.close()
  })

  test('the end of an episode offers today’s and popular webtoons', async ({ page }) => {
    await page.goto('/viewer/84')
    const picks = page.getByRole('complementary', { name: 'À lire ensuite' })
    await expect(picks.getByRole('heading', { name: 'Les plus lus' })).toBeVisible()
    expect(await picks.getByRole('link').count()).toBeGreaterThan(3)
  })
})
