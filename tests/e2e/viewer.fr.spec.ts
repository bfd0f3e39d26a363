import { expect, test, type Page } from '@playwright/test'
import { hydrated, reader, seriousViolations } from './viewer.helpers.ts'

/**
 * The viewer (spec §2 /viewer/{id}) against the seeded demo: series 1 ("Un café pour deux") has 11 episodes
 * with ids 1–11, the first five free; series 8 is a novel (TEXT) whose first episode is id 84.
 */
const FREE = 1
const LOCKED = 6
const TEXT = 84
/** Series 26 ("Le Dragon de papier") reads right to left; its first episode (free, 3 slices) is id 301. */
const RTL = 301

test.describe('French edition viewer', () => {
  test('the first slice comes before any script: the page preloads it and the viewer starts once it is painted', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    const requests: { url: string; start: number; end: number }[] = []
    page.on('requestfinished', (r) => {
      const t = r.timing()
      requests.push({ url: r.url(), start: t.startTime, end: t.startTime + t.responseEnd })
    })
    await page.goto(`/viewer/${FREE}`)
    await hydrated(page)
    // the island runs, and it brought the site script (the shell, the header's balance), in the file of the page entry
    // that loads it elsewhere (SiteScript.astro)
    await expect(page.locator('.viewer-bar')).toBeVisible()
    await expect.poll(() => requests.some((r) => /\/_astro\/SiteScript\.astro[\w.-]*\.js$/.test(r.url))).toBe(true)
    const preload = page.locator('head link[rel="preload"][as="image"][fetchpriority="high"]')
    await expect(preload).toHaveAttribute('imagesrcset', /\/media\/series\/1\/ep\/1\/1\/640\.webp/)
    expect(await page.locator('head link[rel="stylesheet"]').count()).toBe(0) // styles are in the page
    const first = requests.find((r) => /\/ep\/1\/1\/\d+\.webp/.test(r.url))!
    const scripts = requests.filter((r) => new URL(r.url).pathname.endsWith('.js'))
    expect(first).toBeTruthy()
    expect(scripts.length).toBeGreaterThan(0)
    for (const s of scripts) expect(s.start, s.url).toBeGreaterThanOrEqual(first.end)
    // the page's other slices wait their turn
    await expect(page.locator('#viewer-content img').nth(1)).toHaveAttribute('fetchpriority', 'low')
  })

  test('a free episode shows its slices at known sizes, the first eager, with no layout shift and no a11y violation', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    await page.addInitScript(() => {
      ;(window as unknown as { __cls: number }).__cls = 0
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value
      }).observe({ type: 'layout-shift', buffered: true })
    })
    const res = await page.goto(`/viewer/${FREE}`)
    expect(res?.status()).toBe(200)
    await hydrated(page)
    const slices = page.locator('#viewer-content img')
    await expect(slices).toHaveCount(3)
    for (const img of await slices.all()) {
      await expect(img).toHaveAttribute('width', '720')
      await expect(img).toHaveAttribute('height', /^\d+$/)
      await expect(img).toHaveAttribute('alt', /image \d sur 3/)
      await expect(img).toHaveAttribute('srcset', /640w.*828w.*1080w/)
    }
    await expect(slices.first()).toHaveAttribute('fetchpriority', 'high')
    await expect(slices.first()).toHaveAttribute('loading', 'eager')
    await expect.poll(() => slices.first().evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0)
    // every slice within three screens is asked for; they all fit here (800 + 1600 + 1200 px at 390 wide)
    await expect(slices.nth(2)).toHaveAttribute('loading', 'eager')
    await expect.poll(() => slices.nth(2).evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0)
    await page.keyboard.press('End')
    // continuous reading appended the next episode below, without moving anything on screen
    await expect(page.locator('section[data-episode="2"]')).toBeAttached()
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('keyboard: arrows scroll, ? opens the shortcut help, Esc closes it, n goes to the next episode and p back', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 700 })
    await page.goto(`/viewer/${FREE}`)
    await hydrated(page)
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0)
    await page.keyboard.press('?')
    const help = page.getByRole('dialog', { name: 'Raccourcis clavier' })
    await expect(help).toBeVisible()
    await expect(help).toContainText('Épisode suivant')
    await expect(help.getByRole('button', { name: 'Fermer' })).toBeFocused()
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()
    await page.keyboard.press('n')
    await expect(page).toHaveURL(/\/viewer\/2$/)
    await hydrated(page)
    await page.keyboard.press('p')
    await expect(page).toHaveURL(/\/viewer\/1$/)
  })

  test('reads without JavaScript: the server HTML lists every slice', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    const loaded: string[] = []
    page.on('response', (r) => {
      if (r.url().includes(`/media/series/1/ep/1/`) && r.status() === 200) loaded.push(r.url())
    })
    await page.goto(`/viewer/${FREE}`)
    const slices = page.locator('ol.viewer-slices img')
    await expect(slices).toHaveCount(3)
    await expect(slices.first()).toBeVisible()
    await expect(slices.nth(1)).toHaveAttribute('loading', 'lazy')
    await expect(
      page.getByRole('navigation', { name: 'Navigation entre les épisodes' }).getByRole('link', { name: /Épisode suivant/ }),
    ).toHaveAttribute('href', '/viewer/2')
    // CSP: no inline style attribute or inline event handler in the server HTML
    expect(await page.content()).not.toMatch(/<[^>]+\s(style|on[a-z]+)=/i)
    await expect.poll(() => loaded.length).toBeGreaterThan(0)
    await context.close()
  })

  test('a locked episode shows the rent-or-buy choice and never its images', async ({ page }) => {
    const res = await page.goto(`/viewer/${LOCKED}`)
    expect(res?.status()).toBe(403)
    await expect(page.getByRole('heading', { name: 'Épisode verrouillé' })).toBeVisible()
    await expect(page.locator('.viewer-prices')).toContainText('Location 2 pièces')
    await expect(page.getByRole('link', { name: 'Louer ou acheter' })).toHaveAttribute('href', '/detail/1')
    expect(await page.locator('img[src*="/ep/6/"], img[src*="/slice/"]').count()).toBe(0)
    expect(await page.content()).not.toMatch(/series\/1\/ep\/6\//)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('a novel episode reads as paragraphs; an unknown episode is the 404 page', async ({ page }) => {
    await page.goto(`/viewer/${TEXT}`)
    expect(await page.locator('#viewer-content p').count()).toBeGreaterThanOrEqual(3)
    const res = await page.goto('/viewer/99999999')
    expect(res?.status()).toBe(404)
  })
})

test('a signed-in reader opens an owned episode in at most 4 D1 round trips: page, every slice, next-episode prefetch', async ({
  page,
  baseURL,
}, testInfo) => {
  await reader(page, baseURL!)
  for (const id of [9, 10]) {
    const res = await page.request.post('/api/v1/purchase', {
      data: { episodeIds: [id], kind: 'POSSESSION' },
      headers: { origin: baseURL!, 'idempotency-key': `e2e-d1-${Date.now()}-${id}` },
    })
    expect(res.status()).toBe(200)
  }
  const seen: { path: string; d1: number }[] = []
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname
    // reading progress is saved as the reader scrolls: not part of opening the episode
    if (!path.endsWith('/progress')) seen.push({ path, d1: Number(r.headers()['x-d1-queries'] ?? 0) })
  })
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/viewer/9')
  await hydrated(page)
  const loaded = (img: ReturnType<Page['locator']>) => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)
  for (const img of await page.locator('#viewer-content img').all()) {
    await img.scrollIntoViewIfNeeded()
    await expect.poll(() => loaded(img)).toBe(true)
  }
  const next = page.locator('section[data-episode="10"] img').first()
  await next.scrollIntoViewIfNeeded()
  await expect.poll(() => loaded(next)).toBe(true)
  const slices = seen.filter((r) => /\/api\/v1\/viewer\/(9|10)\/slice\//.test(r.path))
  expect(slices.length).toBeGreaterThanOrEqual(4)
  expect(slices.filter((r) => r.d1 > 0)).toEqual([])
  // the open itself: the page, its slices, the next episode's prefetch and its slices (the header's session
  // read and the episodes after the next, fetched as the reader goes on, are not part of it)
  const open = seen.filter((r) => r.path === '/viewer/9' || r.path === '/api/v1/viewer/10' || slices.includes(r))
  await testInfo.attach('d1-round-trips.json', {
    body: JSON.stringify({ open, others: seen.filter((r) => r.d1 > 0 && !open.includes(r)) }, null, 2),
    contentType: 'application/json',
  })
  expect(open.filter((r) => r.d1 > 0).map((r) => r.path)).toEqual(['/viewer/9', '/api/v1/viewer/10'])
  // the rights are read from the reader's object and a held paid episode's view leaves through its outbox (issue 38):
  // neither is a D1 round trip
  expect(open.reduce((n, r) => n + r.d1, 0)).toBeLessThanOrEqual(4)
})

test('a slice whose signed URL has expired loads again with fresh URLs, without the retry control', async ({ page, baseURL }) => {
  await reader(page, baseURL!)
  const bought = await page.request.post('/api/v1/purchase', {
    data: { episodeIds: [10], kind: 'POSSESSION' },
    headers: { origin: baseURL!, 'idempotency-key': `e2e-expired-${Date.now()}` },
  })
  expect(bought.status()).toBe(200)
  // the browser's clock is 20 minutes ahead: by it, every slice URL of the page (10 to 15 minutes) has expired
  await page.clock.setSystemTime(new Date(Date.now() + 20 * 60_000))
  let refused = 0
  await page.route('**/api/v1/viewer/10/slice/3?**', (route) =>
    refused++ === 0 ? route.fulfill({ status: 403, body: '' }) : route.continue(),
  )
  const opened: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/viewer/10') opened.push(r.url())
  })
  await page.setViewportSize({ width: 390, height: 800 }) // the three slices are within three screens: all asked for at once
  await page.goto('/viewer/10')
  await hydrated(page)
  const third = page.locator('#viewer-content img').nth(2) // found again at each poll: the retried slice is a new element
  await expect.poll(() => third.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true)
  expect(refused).toBe(2)
  expect(opened).toHaveLength(1) // the episode opened again once, for fresh URLs
  await expect(page.getByRole('button', { name: 'Réessayer' })).toHaveCount(0)
})

test('a slice that fails to load shows a visible retry control that loads it again', async ({ page }) => {
  let fail = true
  await page.route('**/media/series/1/ep/1/2/**', (route) => (fail ? route.abort() : route.continue()))
  await page.goto(`/viewer/${FREE}`)
  await hydrated(page)
  const retry = page.getByRole('button', { name: 'Réessayer' })
  await expect(retry).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: 'n’a pas pu être chargée' })).toBeVisible()
  fail = false
  await retry.click()
  await expect(retry).toBeHidden()
  await expect
    .poll(() =>
      page
        .locator('#viewer-content img')
        .nth(1)
        .evaluate((i: HTMLImageElement) => i.naturalWidth),
    )
    .toBeGreaterThan(0)
})

test.describe('PAPER mode (spec §2 viewer modes)', () => {
  const indicator = (page: Page) => page.getByRole('navigation', { name: 'Navigation entre les pages' }).getByRole('status')
  const visibleSlices = (page: Page) => page.locator('#viewer-content > li:not([hidden])')

  test('the settings panel switches to pages; the keyboard turns them; the choice survives a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`/viewer/${FREE}`)
    await hydrated(page)
    const open = page.getByRole('button', { name: 'Réglages de lecture' })
    await open.focus()
    await page.keyboard.press('Enter')
    const panel = page.getByRole('dialog', { name: 'Réglages de lecture' })
    await expect(panel).toBeVisible()
    await expect(panel.getByRole('radio', { name: 'Défilement' })).toBeFocused()
    await expect(panel.getByRole('radio', { name: 'Page simple' })).toBeDisabled()
    await page.keyboard.press('ArrowDown') // radio group: the next choice, Pages
    await expect(panel.getByRole('radio', { name: 'Pages' })).toBeChecked()
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()
    await expect(open).toBeFocused()

    await expect(indicator(page)).toHaveText('1 / 3')
    await expect(visibleSlices(page)).toHaveCount(1)
    await expect(page.locator('section.viewer-episode')).toHaveCount(0) // pages show one episode: no continuous strip
    await page.keyboard.press('ArrowRight')
    await expect(indicator(page)).toHaveText('2 / 3')
    await expect(visibleSlices(page).locator('img')).toHaveAttribute('alt', /image 2 sur 3/)
    await page.keyboard.press('ArrowLeft')
    await expect(indicator(page)).toHaveText('1 / 3')
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press(' ')
    await page.keyboard.press('PageDown')
    await expect(indicator(page)).toHaveText('3 / 3')
    // the last page's forward control leads to the next episode (issue 35 point 8)
    const pager = page.getByRole('navigation', { name: 'Navigation entre les pages' })
    await expect(pager.getByRole('button', { name: 'Page suivante' })).toHaveCount(0)
    await expect(pager.getByRole('button', { name: 'Épisode suivant' })).toBeEnabled()
    await page.keyboard.press('PageUp')
    await expect(indicator(page)).toHaveText('2 / 3')

    await open.click()
    await panel.getByRole('radio', { name: 'Double page (grand écran)' }).check()
    await page.keyboard.press('Escape')
    await expect(indicator(page)).toHaveText('1–2 / 3')
    await expect(visibleSlices(page)).toHaveCount(2)

    await page.reload()
    await hydrated(page)
    await expect(indicator(page)).toHaveText('1–2 / 3')
    await page.keyboard.press('ArrowRight')
    await expect(indicator(page)).toHaveText('3 / 3')
    await expect
      .poll(() =>
        visibleSlices(page)
          .locator('img')
          .evaluate((i: HTMLImageElement) => i.naturalWidth),
      )
      .toBeGreaterThan(0)
  })

  test('past the last page (issue 35 point 8): the next key opens the next episode; after the latest one, its end comes on screen', async ({
    page,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await reader(page, baseURL!)
    // series 1's latest episode (11), bought: it has no next one
    const bought = await page.request.post('/api/v1/purchase', {
      data: { episodeIds: [11], kind: 'POSSESSION' },
      headers: { origin: baseURL!, 'idempotency-key': crypto.randomUUID() },
    })
    expect(bought.status()).toBe(200)
    await page.goto('/viewer/4')
    await page.evaluate(() => localStorage.setItem('viewer-settings:fr', JSON.stringify({ mode: 'PAPER', double: false })))
    await page.reload()
    await hydrated(page)
    for (const shown of ['2 / 3', '3 / 3']) {
      await page.keyboard.press('PageDown')
      await expect(indicator(page)).toHaveText(shown)
    }
    await page.keyboard.press('PageDown')
    await expect(page).toHaveURL(/\/viewer\/5$/)

    await page.goto('/viewer/11')
    await hydrated(page)
    for (const shown of ['2 / 3', '3 / 3']) {
      await page.keyboard.press('ArrowRight')
      await expect(indicator(page)).toHaveText(shown)
    }
    const pager = page.getByRole('navigation', { name: 'Navigation entre les pages' })
    await expect(pager.getByRole('button', { name: 'Page suivante' })).toBeDisabled()
    const end = page.locator('.viewer-end')
    await page.keyboard.press('ArrowRight')
    await expect(end).toBeInViewport({ ratio: 1 })
    await expect(page.getByRole('navigation', { name: 'Navigation entre les épisodes' })).toBeInViewport()
    await expect(page).toHaveURL(/\/viewer\/11$/)
    await expect(indicator(page)).toHaveText('3 / 3')
  })

  test('a novel episode takes the chosen font and size', async ({ page }) => {
    await page.goto(`/viewer/${TEXT}`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Réglages de lecture' }).click()
    const panel = page.getByRole('dialog', { name: 'Réglages de lecture' })
    await expect(panel.getByRole('radio', { name: 'Pages' })).toHaveCount(0)
    await panel.getByRole('radio', { name: 'Avec empattement' }).check()
    await panel.getByLabel('Taille du texte').selectOption('22')
    const content = page.locator('#viewer-content')
    await expect(content).toHaveCSS('font-size', '22px')
    await expect(content).toHaveCSS('font-family', /Georgia/)
    await page.reload()
    await hydrated(page)
    await expect(content).toHaveCSS('font-size', '22px')
  })

  test('a right-to-left series turns forward with ArrowLeft, its next-page control on the left', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto(`/viewer/${RTL}`)
    await page.evaluate(() => localStorage.setItem('viewer-settings:fr', JSON.stringify({ mode: 'PAPER', double: false })))
    await page.reload()
    await hydrated(page)
    await expect(indicator(page)).toHaveText('1 / 3')
    await page.keyboard.press('ArrowLeft')
    await expect(indicator(page)).toHaveText('2 / 3')
    await page.keyboard.press('ArrowLeft')
    await expect(indicator(page)).toHaveText('3 / 3')
    await page.keyboard.press('ArrowRight')
    await expect(indicator(page)).toHaveText('2 / 3')
    await expect(page.locator('ol.viewer-slices')).toHaveAttribute('dir', 'rtl')
    // the next-page control sits on the left, where the reader turns to
    const prev = await page.getByRole('button', { name: 'Page précédente' }).boundingBox()
    const next = await page.getByRole('button', { name: 'Page suivante' }).boundingBox()
    expect(next!.x).toBeLessThan(prev!.x)
  })
})
