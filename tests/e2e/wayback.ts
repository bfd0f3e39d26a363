import { expect, test, type Page } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { textPattern } from './helpers.ts'
import { PHONE, shoot, signIn } from './steps.ts'
import { hydrated, newAccount, PASSWORD } from './viewer.helpers.ts'

/**
 * Issue 25 §4 (help you can find) and §5 (the way back in), in one edition, on a phone (390×844, touch):
 * the support links lead to the contact form, the ranking shows its places in order, a reader who read an
 * episode finds it on home and opens the next one in one tap, the series page's main button starts or resumes
 * reading and says whether the wait-until-free ticket is ready, and the controls a thumb uses are ≥ 44×44 px.
 * Screenshots of home, a series, the ranking, /my and /faq at 390 and 1280 px go into the report.
 *
 * Demo data (every edition's seed): series 1 has wait-until-free (a ticket every 24 h), episodes 1–11, the
 * first five free.
 */
const SERIES = 1

/** Links and buttons a thumb uses on the pages of issue 25 (inline links inside running text are not targets). */
const TARGETS = [
  '.site-header a',
  '.nav-bottom a',
  '.home-tabs a',
  '.banner-controls button',
  '[data-continue-row] a',
  '.row-head a',
  '.series-grid > li > a',
  '.actions a',
  '.actions button',
  '.support-link',
  '.crumbs a',
  '.tags a',
  '.episodes a',
  '.site-footer a',
  '.site-footer button',
]

async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((selectors) => {
    const out: string[] = []
    for (const el of document.querySelectorAll<HTMLElement>(selectors.join(','))) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue
      if (r.width < 44 || r.height < 44)
        out.push(
          `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`,
        )
    }
    return out
  }, TARGETS)
}

/** A new reader who read episode 1 of series 1 to its end in the viewer (progress saved by the viewer itself). */
async function readerWhoReadEpisodeOne(page: Page, id: string) {
  const email = await newAccount(page.request)
  await signIn(page, id, email)
  await page.goto('/viewer/1')
  await hydrated(page)
  const saved = page.waitForRequest((r) => r.url().endsWith('/api/v1/viewer/1/progress') && r.method() === 'POST')
  await page
    .locator('#viewer-content')
    .evaluate((el) => scrollTo(0, el.getBoundingClientRect().top + scrollY + el.getBoundingClientRect().height - innerHeight))
  expect((JSON.parse((await saved).postData()!) as { position: number }).position).toBeGreaterThanOrEqual(0.98)
  return email
}

export function wayBackSuite(id: string) {
  const t = messagesOf(id)
  const words = (key: string, vars: Record<string, string | number>) => t(key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]))

  test.describe(`issue 25 §4–5 (${id})`, () => {
    test.use({ viewport: PHONE, hasTouch: true, isMobile: true })

    test('"Contact support" on /faq (and an empty search), /my, the company information and a cancelled payment leads to the form', async ({
      page,
      baseURL,
    }) => {
      const support = () => page.getByRole('link', { name: t('support.contact') })
      await page.goto('/faq')
      await expect(support()).toHaveAttribute('href', '/qna/register')
      await page.goto('/faq?q=zzqxw')
      await expect(page.getByText(t('faq.noResult'))).toBeVisible()
      await expect(support()).toHaveCount(1)
      await page.goto('/')
      await page
        .locator('footer')
        .getByRole('button', { name: t('footer.company') })
        .click()
      await expect(
        page.getByRole('dialog', { name: t('footer.company') }).getByRole('link', { name: t('support.contact') }),
      ).toHaveAttribute('href', '/qna/register')
      await page.goto('/my')
      // a guest follows it: login first, then the form
      await support().click()
      await expect(page).toHaveURL(/\/user\/login\?callback=%2Fqna%2Fregister$/)
      const email = await newAccount(page.request)
      await page.getByLabel(t('auth.login.email')).fill(email)
      await page.getByLabel(t('auth.login.password')).fill(PASSWORD)
      await page.getByRole('button', { name: t('auth.login.submit') }).click()
      await expect(page).toHaveURL(/\/qna\/register$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('community.qna.registerTitle'))
      await expect(page.getByRole('button', { name: t('community.qna.submit') })).toBeVisible()
      await page.goto('/my')
      await expect(support()).toBeVisible()
      // a cancelled payment offers support with the payment category chosen
      const product = ((await (await page.request.get('/api/v1/payment/products')).json()).data.items as { id: number }[])[0]!
      const charge = await page.request.post('/api/v1/payment/charge', {
        data: { productId: product.id, method: 'card' },
        headers: { 'idempotency-key': crypto.randomUUID(), origin: baseURL! },
      })
      expect(charge.status()).toBe(200)
      await page.goto(`/shop/result?payment=${(await charge.json()).data.paymentId}&cancelled=1`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('wallet.result.cancelledTitle'))
      await support().click()
      await expect(page).toHaveURL(/\/qna\/register\?category=PAYMENT$/)
      await expect(page.getByLabel(t('community.qna.category.label'))).toHaveValue('PAYMENT')
    })

    test('the ranking shows its places in order, across pages', async ({ page }) => {
      await page.goto('/home/ranking')
      const list = page.locator('main ol.series-grid')
      const places = (await list.locator('.rank').allInnerTexts()).map((s) => s.trim())
      expect(places.length).toBeGreaterThan(3)
      expect(places).toEqual(places.map((_, i) => String(i + 1)))
      await expect(list.locator('.rank').first()).toBeVisible()
      await page
        .getByRole('link', { name: t('hometab.more'), exact: true })
        .last()
        .click()
      await expect(page).toHaveURL(/\/home\/ranking\?cursor=/)
      const next = (await page.locator('main ol.series-grid .rank').allInnerTexts()).map(Number)
      expect(next[0]).toBe(places.length + 1)
      expect(await page.locator('main ol.series-grid').getAttribute('start')).toBe(String(places.length + 1))
      // home's most-read row is the top of the ranking, numbered too
      await page.goto('/')
      expect((await page.locator('#popular ~ ol .rank, section[aria-labelledby="popular"] ol .rank').allInnerTexts()).slice(0, 3)).toEqual([
        '1',
        '2',
        '3',
      ])
    })

    test('a guest: the series button starts at episode 1, the ticket rule is stated, no continue-reading row', async ({ page }) => {
      await page.goto(`/detail/${SERIES}`)
      const read = page.locator('.actions a.read')
      await expect(read).toHaveText(words('library.recent.next', { no: 1 }))
      await expect(read).toHaveAttribute('href', '/viewer/1')
      await expect(page.locator('.ticket')).toBeVisible()
      await expect(page.locator('.ticket-state')).toBeHidden()
      await page.goto('/')
      await expect(page.locator('[data-continue-row]')).toHaveCount(0)
    })

    test('a reader: continue reading on home opens the next episode in one tap; the series button resumes; the ticket state shows', async ({
      page,
      baseURL,
    }, info) => {
      await readerWhoReadEpisodeOne(page, id)
      // the series page offers the next episode, episode 1 being finished (SeriesMe.astro)
      await page.goto(`/detail/${SERIES}`)
      await expect(page.locator('.actions a.read')).toHaveText(words('library.recent.next', { no: 2 }))
      await expect(page.locator('.actions a.read')).toHaveAttribute('href', '/viewer/2')
      // home's HTML is the class's, the same for every reader: the row is an empty frame the reader's own replaces
      const html = await (await page.request.get('/')).text()
      expect(html).toContain('data-continue-row')
      expect(html).not.toContain('href="/viewer/2"')
      await page.addInitScript(() => {
        const w = window as unknown as { shift: number }
        w.shift = 0
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.shift += (e as unknown as { value: number }).value
        }).observe({ type: 'layout-shift', buffered: true })
      })
      await page.goto('/')
      const row = page.getByRole('region', { name: t('home.continue') })
      const card = row.getByRole('link', { name: textPattern(words('library.recent.next', { no: 2 })) })
      await expect(card).toBeVisible()
      await page.waitForTimeout(300)
      const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift)
      info.annotations.push({ type: 'layout shift on home while the row fills', description: shift.toFixed(4) })
      expect(shift).toBeLessThan(0.01) // the frame kept the row's place
      const box = (await card.boundingBox())!
      expect(box.y + box.height).toBeLessThan(844) // on the first screen
      let taps = 0
      await card.tap()
      taps++
      await expect(page).toHaveURL(/\/viewer\/2$/)
      info.annotations.push({ type: 'taps from home to the next episode', description: String(taps) })
      expect(taps).toBeLessThanOrEqual(2)

      // half of episode 2 read, then left (the viewer sends the place as it goes): the series page resumes it
      await hydrated(page)
      await page
        .locator('#viewer-content')
        .evaluate((el) => scrollTo(0, el.getBoundingClientRect().top + scrollY + (el.getBoundingClientRect().height - innerHeight) * 0.5))
      await page.goto(`/detail/${SERIES}`)
      await expect.poll(async () => (await (await page.request.get('/api/v1/viewer/2')).json()).data.progress).toBeGreaterThan(0.3)
      await page.reload()
      const read = page.locator('.actions a.read')
      await expect(read).toHaveText(words('library.recent.continue', { no: 2 }))
      await expect(read).toHaveAttribute('href', /^\/viewer\/2\?p=0\.\d+$/)
      const state = page.locator('.ticket-state')
      await expect(state).toHaveText(t('detail.ticket.ready'))
      // the ticket used on episode 6: the next one comes in 24 h
      const used = await page.request.post('/api/v1/purchase/freetime', {
        data: { episodeId: 6 },
        headers: { 'idempotency-key': crypto.randomUUID(), origin: baseURL! },
      })
      expect(used.status()).toBe(200)
      await page.reload()
      await expect(state).toHaveText(new RegExp(`24`))
      await expect(state).not.toHaveText(t('detail.ticket.ready'))
      expect(await smallTargets(page)).toEqual([])

      // screenshots, signed in (home with the row, the series, the ranking, /my, /faq)
      for (const [name, path] of [
        ['home', '/'],
        ['series', `/detail/${SERIES}`],
        ['ranking', '/home/ranking'],
        ['my', '/my'],
        ['faq', '/faq'],
      ] as const) {
        await page.goto(path)
        if (name === 'home') await expect(row.getByRole('link').first()).toBeVisible()
        if (name === 'series') await expect(state).toBeVisible()
        expect(await smallTargets(page), `targets under 44 px on ${path}`).toEqual([])
        await shoot(page, info, `${id}-${name}`, { after: PHONE })
      }
    })

    test('signed-in home holds still while its after-paint answers come late (issue 40): nothing read yet, then one episode read, at 390 and 1280 px', async ({
      page,
      baseURL,
    }, info) => {
      test.setTimeout(90_000)
      const email = await newAccount(page.request)
      await signIn(page, id, email)
      // every layout shift of the page with what moved (no input on the page: all count)
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: string[] }
        w.shifts = []
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as {
            value: number
            sources: { node?: Node; previousRect: DOMRect; currentRect: DOMRect }[]
          }[])
            w.shifts.push(
              `${e.value.toFixed(4)}: ${e.sources
                .map(
                  (s) =>
                    `${s.node instanceof Element ? `${s.node.localName}.${s.node.getAttribute('class') ?? ''}` : s.node?.nodeName} ${Math.round(s.previousRect.x)},${Math.round(s.previousRect.y)} → ${Math.round(s.currentRect.x)},${Math.round(s.currentRect.y)}`,
                )
                .join('; ')}`,
            )
        }).observe({ type: 'layout-shift', buffered: true })
      })
      // a slow network: the page's personal parts (the header's balance and bell, the reader's recent series: server
      // islands) and any API call answer 1.5 s after the page is on screen
      await page.route(/\/(api|_server-islands)\//, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500))
        await route.continue()
      })
      const row = page.getByRole('region', { name: t('home.continue') })
      const stillAt = async (width: number, what: string) => {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
        await page.goto('/')
        // both late parts are in: the bell (the session's answer) and the row no longer waiting
        await expect(page.locator('[data-alarm-bell]')).toBeVisible()
        await expect(page.locator('[data-continue-row][aria-busy]')).toHaveCount(0)
        await page.waitForTimeout(300)
        const shifts = await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts)
        info.annotations.push({ type: `layout shifts on signed-in home, ${what}, ${width} px`, description: shifts.join(' | ') || 'none' })
        expect.soft(shifts, `${what} at ${width} px`).toEqual([])
      }
      for (const width of [390, 1280]) {
        await stillAt(width, 'nothing read yet')
        await expect.soft(row.getByText(t('library.recent.empty'))).toBeVisible() // the row stays and says so
      }
      await shoot(page, info, `${id}-home-nothing-read`, { after: PHONE })

      const read = await page.request.post('/api/v1/viewer/1/progress', { data: { position: 1 }, headers: { origin: baseURL! } })
      expect(read.status()).toBe(200)
      for (const width of [390, 1280]) {
        await stillAt(width, 'one episode read')
        await expect.soft(row.getByRole('link', { name: textPattern(words('library.recent.next', { no: 2 })) })).toBeVisible()
      }
      await shoot(page, info, `${id}-home-one-read`, { after: PHONE })
    })

    test('home banner: icon buttons under the artwork, 44 px, named', async ({ page }) => {
      await page.goto('/')
      const region = page.getByRole('region', { name: t('banner.label') })
      const pause = region.getByRole('button', { name: t('banner.pause') })
      await expect(pause).toBeVisible()
      const art = (await region.locator('.banner:visible').boundingBox())!
      for (const name of ['banner.previous', 'banner.pause', 'banner.next']) {
        const b = (await region.getByRole('button', { name: t(name) }).boundingBox())!
        expect(b.width).toBeGreaterThanOrEqual(44)
        expect(b.height).toBeGreaterThanOrEqual(44)
        expect(b.y).toBeGreaterThanOrEqual(art.y + art.height) // beside the artwork, not on it
      }
      await pause.tap()
      await expect(region.getByRole('button', { name: t('banner.play') })).toBeVisible()
      expect(await smallTargets(page)).toEqual([])
    })
  })
}
