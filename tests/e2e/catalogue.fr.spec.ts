import { expect, test, type Page } from '@playwright/test'
import AxeBuilder from '@axe-core/playwright'

/** The journey of issue 5: home → tab → detail → search → notice → FAQ search, run with and without JavaScript. */
async function journey(page: Page) {
  await page.goto('/')
  const tabs = page.getByRole('navigation', { name: "Rubriques de l'accueil" })
  await tabs.getByRole('link', { name: 'Hebdo' }).click()
  await expect(page).toHaveURL(/\/home\/weekly$/)
  await expect(page.getByRole('navigation', { name: "Rubriques de l'accueil" }).getByRole('link', { name: 'Hebdo' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  const days = page.getByRole('navigation', { name: 'Jours de parution' })
  await expect(days.getByRole('link')).toHaveCount(8)
  await expect(days.locator('a[aria-current="page"]')).toHaveCount(1)
  await days.getByRole('link', { name: /tous les 10 jours/ }).click()
  await expect(page).toHaveURL(/\/home\/weekly\?day=TEN$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hebdo : tous les 10 jours')
  await expect(days.getByRole('link', { name: /tous les 10 jours/ })).toHaveAttribute('aria-current', 'page')
  // spec §9 ten-day list sizes: 5 first, then 15
  expect(await page.locator('main .series-grid a').count()).toBeLessThanOrEqual(5)
  const tenMore = page.getByRole('link', { name: 'Voir plus' })
  if (await tenMore.count()) await expect(tenMore).toHaveAttribute('href', /[?&]size=15(&|$)/)

  // the ranking spans two pages: "more" follows the cursor
  await page.getByRole('navigation', { name: "Rubriques de l'accueil" }).getByRole('link', { name: 'Classement' }).click()
  await expect(page).toHaveURL(/\/home\/ranking$/) // read the grid of the new page, not the one being left
  const first = await page.locator('main .series-grid a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
  expect(first.length).toBe(24)
  await page.getByRole('link', { name: 'Voir plus' }).click()
  await expect(page).toHaveURL(/\/home\/ranking\?cursor=/)
  const second = await page.locator('main .series-grid a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))
  expect(second.length).toBeGreaterThan(0)
  expect(second.filter((h) => first.includes(h))).toEqual([])

  const card = page.locator('main .series-grid a').first()
  const title = (await card.innerText()).trim()
  await card.click()
  await expect(page).toHaveURL(/\/detail\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  // the detail's related series are real links to other detail pages
  const related = page.getByRole('region', { name: 'Séries similaires' }).getByRole('link')
  expect(await related.count()).toBeGreaterThan(0)
  expect(await related.evaluateAll((as) => as.every((a) => /^\/detail\/\d+$/.test(a.getAttribute('href') ?? '')))).toBe(true)

  // → search: the series is found by its title from the header's search link
  await page.getByRole('link', { name: 'Recherche', exact: true }).first().click()
  await expect(page).toHaveURL(/\/search$/)
  await page.getByRole('searchbox', { name: 'Titre, auteur ou tag' }).fill(title)
  await page.getByRole('button', { name: 'Rechercher' }).click()
  await expect(page).toHaveURL(/\/search\?keyword=/)
  await expect(page.locator('main .series-grid a', { hasText: title }).first()).toBeVisible()

  await page.locator('footer').getByRole('link', { name: 'Annonces' }).click()
  await expect(page).toHaveURL(/\/notice$/)
  await expect(page.locator('ul.notices li')).toHaveCount(5)
  await expect(page.getByText(/^Annonces : \d+ · page 1 sur \d+$/)).toBeVisible() // the count, cached 5 minutes
  await page.getByRole('link', { name: 'Page suivante' }).click()
  await expect(page).toHaveURL(/\/notice\?page=2$/)
  const notice = page.locator('ul.notices a').first()
  const noticeTitle = (await notice.locator('.title').innerText()).trim()
  await notice.click()
  await expect(page).toHaveURL(/\/notice\/detail\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(noticeTitle)

  await page.locator('footer').getByRole('link', { name: 'FAQ' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Questions fréquentes')
  const search = page.getByRole('searchbox', { name: 'Rechercher dans la FAQ' })
  await search.fill('   ')
  await page.getByRole('button', { name: 'Rechercher' }).click()
  await expect(page.getByRole('alert')).toHaveText('Veuillez saisir un mot-clé.')
  await expect(search).toHaveAttribute('aria-invalid', 'true')
  await search.fill('pieces')
  await page.getByRole('button', { name: 'Rechercher' }).click()
  await expect(page).toHaveURL(/\/faq\?q=pieces$/)
  await expect(page.getByRole('heading', { level: 2 })).toContainText('pour « pieces »')
  expect(await page.locator('.results li').count()).toBeGreaterThanOrEqual(2)
  await expect(page.locator('.results mark').first()).toHaveText(/pièces/i)
}

/** Search (spec §2 /search): empty keyword refused, results and tags as real links, huge input capped. */
async function searchJourney(page: Page) {
  await page.goto('/')
  await page.getByRole('link', { name: 'Recherche', exact: true }).first().click()
  await expect(page).toHaveURL(/\/search$/)
  const box = page.getByRole('searchbox', { name: 'Titre, auteur ou tag' })
  await box.fill('  ')
  await page.getByRole('button', { name: 'Rechercher' }).click()
  await expect(page.getByRole('alert')).toHaveText('Veuillez saisir un mot-clé.')
  await expect(box).toHaveAttribute('aria-invalid', 'true')
  await box.fill('reine omb')
  await page.getByRole('button', { name: 'Rechercher' }).click()
  await expect(page).toHaveURL(/\/search\?keyword=reine\+omb$/)
  const first = page.locator('main .series-grid a').first()
  await expect(first).toHaveText('La Reine des ombres')
  await first.click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('La Reine des ombres')
  await page.goBack()
  const tags = page.getByRole('region', { name: 'Tags les plus recherchés' }).getByRole('link')
  await expect(tags).toHaveCount(10)
  const tag = (await tags.first().innerText()).replace(/^#/, '')
  await tags.first().click()
  await expect(page.getByRole('heading', { level: 2, name: `Résultats pour « ${tag} »` })).toBeVisible()
  expect(await page.locator('main .series-grid a').count()).toBeGreaterThan(0)
  await page.goto(`/search?keyword=${'ab%22*-NEAR '.repeat(600)}`)
  await expect(page.getByText('Votre recherche a été raccourcie à 100 caractères.')).toBeVisible()
}

test.describe('catalogue pages, JavaScript on', () => {
  test('home → tab → detail → search → notice → FAQ search', async ({ page }) => {
    await journey(page)
  })

  test('search: form, results, tags, live suggestions after the 1000 ms pause', async ({ page }) => {
    await searchJourney(page)
    await page.goto('/search')
    const box = page.getByRole('searchbox', { name: 'Titre, auteur ou tag' })
    await box.pressSequentially('reine', { delay: 30 })
    const suggest = page.getByRole('list', { name: 'Suggestions' })
    await expect(suggest).toBeHidden() // nothing before the pause
    await expect(suggest.getByRole('link', { name: 'La Reine des ombres' })).toBeVisible({ timeout: 4000 })
    await expect(page.getByRole('status').filter({ hasText: 'suggestion' })).toHaveText(/\d suggestion/)
  })

  test('home banners: one slide at a time, pause button, keyboard, hover', async ({ page }) => {
    await page.goto('/')
    const region = page.getByRole('region', { name: 'À la une' })
    const visible = region.locator('.banner:visible')
    await expect(visible).toHaveCount(1)
    const slides = region.locator('.banner-slides')
    await expect(slides).toHaveAttribute('aria-live', 'off') // rotating
    await slides.hover()
    await expect(slides).toHaveAttribute('aria-live', 'polite') // hover pauses
    await page.mouse.move(1, 1)
    await expect(slides).toHaveAttribute('aria-live', 'off')
    const pause = region.getByRole('button', { name: 'Pause' })
    await pause.focus() // focus inside pauses the rotation
    await expect(slides).toHaveAttribute('aria-live', 'polite')
    await page.keyboard.press('Enter')
    await expect(region.getByRole('button', { name: 'Lecture' })).toBeVisible()
    const before = await visible.innerText()
    await page.keyboard.press('Tab') // → "Suivante"
    await page.keyboard.press('Enter')
    await expect(visible).not.toHaveText(before)
    await page.keyboard.press('Tab') // → the link of the shown slide
    await expect(page.locator(':focus')).toHaveAttribute('href', /^\//)
    expect(await page.locator(':focus').evaluate((a) => a.closest('.banner')?.hasAttribute('hidden'))).toBe(false)
  })

  test('detail and home link the other editions with hreflang', async ({ page }) => {
    await page.goto('/detail/24')
    await expect(page.locator('link[rel="alternate"][hreflang="ja-JP"]')).toHaveAttribute('href', 'https://jp.beltoon.example/detail/24')
    await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', /\/detail\/24$/)
    await expect(page.locator('link[rel="alternate"][hreflang^="de"]')).toHaveCount(0)
    await page.goto('/')
    await expect(page.locator('link[rel="alternate"][hreflang]')).toHaveCount(7)
  })

  test('detail carries ComicSeries + BreadcrumbList JSON-LD, Open Graph and Twitter cards', async ({ page }) => {
    await page.goto('/detail/24')
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
    const data = blocks.map((b) => JSON.parse(b))
    const series = data.find((d) => d['@type'] === 'ComicSeries')
    expect(series.name).toBe(await page.getByRole('heading', { level: 1 }).innerText())
    expect(series.hasPart.length).toBe(await page.locator('ol.episodes li').count())
    expect(series.hasPart[0]['@type']).toBe('ComicIssue')
    expect(data.find((d) => d['@type'] === 'BreadcrumbList').itemListElement.length).toBe(3)
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^https:\/\/.+\/media\/covers\/24\/1200\.webp$/)
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
    // the two series notices (spec §9: detail notice count 2) link to their pages
    await expect(page.locator('.series-notices li a')).toHaveCount(2)
  })

  test('mature tab shows the adult notice to a guest; unknown ids answer 404', async ({ page }) => {
    await page.goto('/home/mature')
    await expect(page.locator('main .series-grid')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Se connecter' })).toBeVisible()
    for (const path of ['/notice/detail/999999', '/notice/detail/abc', '/home/pick/999', '/home/nothing']) {
      const res = await page.goto(path)
      expect(res?.status(), path).toBe(404)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page introuvable')
    }
    expect((await page.goto('/home/weekly?day=FUNDAY'))?.status()).toBe(400)
  })

  test('sitemap lists public series and free episodes, never adult ones; robots points to it', async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text()
    expect(xml).toContain('/detail/24</loc>')
    expect(xml).not.toContain('/detail/7</loc>') // adult series
    expect(xml).toMatch(/\/viewer\/\d+<\/loc>/)
    const robots = await (await request.get('/robots.txt')).text()
    expect(robots).toMatch(/Sitemap: https:\/\/.+\/sitemap\.xml/)
    expect(robots).toContain('Disallow: /api/')
  })

  test('every catalogue page type has no serious or critical accessibility violation and no CSP violation', async ({ page }) => {
    test.setTimeout(150_000) // 19 pages × axe; ~15 s on a quiet machine, more on a loaded one
    const csp: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) csp.push(m.text())
    })
    for (const path of [
      '/',
      '/home/weekly',
      '/home/ranking',
      '/home/mature',
      '/home/pick',
      '/home/pick/1',
      '/detail/24',
      '/notice',
      '/notice/detail/1',
      '/faq',
      '/faq?q=',
      '/faq?q=pi%C3%A8ces',
      '/policy',
      '/privacy',
      '/search',
      '/search?keyword=',
      '/search?keyword=reine',
      '/event',
      '/benefit',
    ]) {
      await page.goto(path)
      const result = await new AxeBuilder({ page }).analyze()
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      expect(
        bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
        path,
      ).toEqual([])
    }
    expect(csp).toEqual([])
  })
})

test.describe('series detail, the reader’s part after first paint', () => {
  test('a guest gets the same page with no personal slot and no console error', async ({ page }) => {
    const errors: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text())
    })
    await page.goto('/detail/24')
    await page.waitForLoadState('networkidle')
    await expect(page.getByRole('button', { name: 'Favori' })).toBeHidden()
    await expect(page.locator('.episodes .own:visible')).toHaveCount(0)
    expect(errors).toEqual([])
  })

  test('the demo reader sees an owned badge, continue reading, and toggles the favourite', async ({ page }) => {
    await page.goto('/user/login?callback=%2Fdetail%2F24')
    await page.getByLabel('Adresse e-mail').fill('reader@example.com')
    await page.getByLabel('Mot de passe').fill('Reader-2026!')
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await expect(page).toHaveURL(/\/detail\/24$/)
    // own something of series 24 (bought once; later runs find it already owned)
    const episodeId: number = await page.evaluate(async () => {
      type Ep = { id: number; free: boolean; price: { rent: number | null; buy: number | null }; ownership: unknown }
      const eps = ((await (await fetch('/api/v1/contents/24')).json()) as { data: { episodes: Ep[] } }).data.episodes
      const owned = eps.find((e) => e.ownership !== null)
      if (owned) return owned.id
      const e = eps.find((x) => !x.free && (x.price.rent !== null || x.price.buy !== null))!
      const res = await fetch('/api/v1/purchase', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
        body: JSON.stringify({ episodeIds: [e.id], kind: e.price.rent !== null ? 'RENT' : 'POSSESSION' }),
      })
      if (!res.ok) throw new Error(`purchase ${res.status} ${await res.text()}`)
      return e.id
    })
    await page.reload()
    await expect(page.locator(`[data-ep="${episodeId}"] .own`)).toHaveText(/^(Acheté|Loué jusqu'au \d{2}\.\d{2}\.\d{4} \d{2}:\d{2})$/)
    await expect(page.getByRole('link', { name: /^Reprendre l’épisode \d+$/ })).toHaveAttribute('href', /^\/viewer\/\d+(\?p=[\d.]+)?$/)
    const fav = page.getByRole('button', { name: 'Favori' })
    const before = await fav.getAttribute('aria-pressed')
    expect(before).toMatch(/^(true|false)$/)
    const after = before === 'true' ? 'false' : 'true'
    const saved = page.waitForResponse((r) => r.url().includes('/api/v1/library/favorite/24'))
    await fav.click()
    await expect(fav).toHaveAttribute('aria-pressed', after)
    expect((await saved).status()).toBe(200)
    expect((await (await page.request.get('/api/v1/contents/24/me')).json()).data.favorite).toBe(after === 'true')
    await fav.click() // back to the seeded state
    await expect(fav).toHaveAttribute('aria-pressed', before!)
    await expect.poll(async () => (await (await page.request.get('/api/v1/contents/24/me')).json()).data.favorite).toBe(before === 'true')
  })
})

test.describe('catalogue pages, JavaScript off', () => {
  test.use({ javaScriptEnabled: false })
  test('home → tab → detail → search → notice → FAQ search', async ({ page }) => {
    await journey(page)
  })

  test('search works as a plain form', async ({ page }) => {
    await searchJourney(page)
  })

  test('banners are a plain list of links, every display kind', async ({ page }) => {
    await page.goto('/')
    const region = page.getByRole('region', { name: 'À la une' })
    await expect(region.getByRole('button')).toHaveCount(0)
    expect(await region.locator('.banner:visible').count()).toBeGreaterThanOrEqual(4)
    for (const kind of ['only_icon', 'only_text', 'icon_text', 'text_icon'])
      await expect(region.locator(`.banner-${kind} a`).first()).toBeVisible()
  })

  test('policy and privacy are readable French documents', async ({ page }) => {
    await page.goto('/policy')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText("Conditions d'utilisation")
    await page.goto('/privacy')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Politique de confidentialité')
  })
})
