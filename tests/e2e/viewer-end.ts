import { expect, test, type Browser, type Page } from '@playwright/test'
import { PASSWORD, hydrated, newAccount } from './viewer.helpers.ts'

/**
 * The viewer holds still at the end of an episode (issue 42): reading a free episode whose next one is free too, on a
 * 412 × 915 phone, the browser's own layout-shift entries (`PerformanceObserver`, scrolling is not input for them)
 * sum to at most 0.05 across the end of the episode — whether the island has run yet or not and whether the next
 * episode is there or on its way: scrolling 0.8 of the window per step at 120, 400 and 800 ms, locally and on a
 * 150 ms RTT / 1.6 Mbit/s network (Chromium's emulation), the End key in SCROLL and in PAGE mode, the next episode
 * coming in while the comments show under the space kept for it. The figure is
 * layout, the same on every machine; the time per step only sets the race.
 */
export function viewerEndSuite(edition: string) {
  const EPISODE = 24
  const MAX_SHIFT = 0.05

  async function reader(browser: Browser, baseURL: string, slow: boolean, settings?: object) {
    const context = await browser.newContext({
      baseURL,
      viewport: { width: 412, height: 915 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    })
    if (settings) {
      const url = new URL(baseURL)
      await context.addCookies([
        { name: `viewer-settings_${edition}`, value: encodeURIComponent(JSON.stringify(settings)), domain: url.hostname, path: '/' },
      ])
    }
    await context.addInitScript(() => {
      const w = window as unknown as { shifts: { value: number; at: number; sources: string[] }[] }
      w.shifts = []
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] })[])
          if (!e.hadRecentInput)
            w.shifts.push({
              value: e.value,
              at: Math.round(e.startTime),
              sources: (e.sources ?? []).map((s) =>
                s.node instanceof Element ? `${s.node.tagName}.${s.node.className}` : String(s.node?.nodeName),
              ),
            })
      }).observe({ type: 'layout-shift', buffered: true })
    })
    const page = await context.newPage()
    if (slow) {
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: 1_600_000 / 8,
        uploadThroughput: 750_000 / 8,
      })
    }
    return { context, page }
  }

  /** Opens the episode and waits for its first slice to show (the reader starts then, island or not). */
  async function open(page: Page, episode = EPISODE) {
    await page.goto(`/viewer/${episode}`, { waitUntil: 'commit' })
    await expect(page.locator('.viewer-slice img').first()).toBeVisible({ timeout: 30_000 })
  }

  /** The layout shift so far, once nothing has moved for a second (the next episode in, or its offer). */
  async function settledShift(page: Page) {
    await hydrated(page)
    await expect(page.locator('section.viewer-episode, .viewer-next').first()).toBeAttached({ timeout: 30_000 })
    await page.waitForTimeout(1500)
    const shifts = await page.evaluate(() => (window as unknown as { shifts: { value: number; at: number; sources: string[] }[] }).shifts)
    return { sum: shifts.reduce((a, s) => a + s.value, 0), shifts }
  }

  for (const slow of [false, true])
    for (const stepMs of [120, 400, 800])
      test(`${edition}: reading to the end at ${stepMs} ms a step${slow ? ' on a slow network' : ''} moves nothing on screen`, async ({
        browser,
        baseURL,
      }, info) => {
        const { context, page } = await reader(browser, baseURL!, slow)
        await open(page)
        const nav = page.locator('.viewer-nav').first()
        // down to the end section: the episode's links entirely on screen
        for (let step = 0; step < 200; step++) {
          const box = await nav.boundingBox()
          if (box && box.y + box.height <= 915 && box.y >= 0) break
          await page.evaluate(() => scrollBy(0, innerHeight * 0.8))
          await page.waitForTimeout(stepMs)
        }
        const { sum, shifts } = await settledShift(page)
        await info.attach('layout shifts', { body: JSON.stringify(shifts, null, 1), contentType: 'application/json' })
        expect(sum, JSON.stringify(shifts)).toBeLessThanOrEqual(MAX_SHIFT)
        // the end section is where the reader left it, above what joined
        const navBox = (await nav.boundingBox())!
        expect(navBox.y + navBox.height).toBeLessThanOrEqual(915)
        await context.close()
      })

  for (const [mode, slow] of [
    ['SCROLL', false],
    ['SCROLL', true],
    ['PAPER', false],
  ] as const)
    test(`${edition}: the End key in ${mode} mode${slow ? ' on a slow network' : ''} moves nothing on screen`, async ({
      browser,
      baseURL,
    }, info) => {
      const { context, page } = await reader(browser, baseURL!, slow, mode === 'PAPER' ? { mode, double: false } : undefined)
      await open(page)
      await page.keyboard.press('End')
      const { sum, shifts } =
        mode === 'PAPER'
          ? await page.waitForTimeout(2500).then(() =>
              page.evaluate(() => {
                const s = (window as unknown as { shifts: { value: number }[] }).shifts
                return { sum: s.reduce((a, x) => a + x.value, 0), shifts: s }
              }),
            )
          : await settledShift(page)
      await info.attach('layout shifts', { body: JSON.stringify(shifts, null, 1), contentType: 'application/json' })
      expect(sum, JSON.stringify(shifts)).toBeLessThanOrEqual(MAX_SHIFT)
      await context.close()
    })

  // The End key pressed while the page is still coming in stops short of the final bottom: the reader sees the lower
  // part of the space kept for the next episode, the comments and the picks under it (the run above failed so, 3 in
  // 30 on a slow network, 0.15 of shift). Put there on purpose, before the island runs.
  test(`${edition}: the next episode coming in while the comments show under its space moves nothing on screen`, async ({
    browser,
    baseURL,
  }, info) => {
    const { context, page } = await reader(browser, baseURL!, true)
    await open(page)
    await expect(page.locator('.viewer-picks')).toBeAttached()
    const seen = await page.evaluate(() => {
      const space = document.querySelector('.viewer-chain')!
      scrollTo({ top: space.getBoundingClientRect().top + scrollY + 300, behavior: 'instant' })
      return {
        space: space.getBoundingClientRect().bottom,
        comments: document.querySelector('.viewer-comments')!.getBoundingClientRect().top,
        joined: space.querySelector('.viewer-episode') !== null,
      }
    })
    expect(seen.joined, 'nothing joined yet').toBe(false)
    expect(seen.space, 'the space’s end on screen').toBeLessThan(915)
    expect(seen.comments, 'the comments on screen').toBeLessThan(915)
    const { sum, shifts } = await settledShift(page)
    await info.attach('layout shifts', { body: JSON.stringify(shifts, null, 1), contentType: 'application/json' })
    await expect(page.locator('.viewer-chain section.viewer-episode').first()).toBeAttached()
    expect(sum, JSON.stringify(shifts)).toBeLessThanOrEqual(MAX_SHIFT)
    // where they were, to the pixel the scroll position rounds to
    expect(Math.abs((await page.locator('.viewer-comments').boundingBox())!.y - seen.comments)).toBeLessThanOrEqual(2)
    await context.close()
  })

  for (const member of [false, true])
    test(`${edition}: a locked next episode's offer comes in below the end without moving it (${member ? 'signed in' : 'guest'})`, async ({
      browser,
      baseURL,
    }, info) => {
      // the last free episode of series 1: its episode 6 is paid (the offer, not an episode, joins); a signed-in
      // reader's offer also holds the automatic unlock's button, read after the offer shows
      const { context, page } = await reader(browser, baseURL!, true)
      if (member) {
        const email = await newAccount(context.request)
        const res = await context.request.post('/api/v1/auth/web/sign-in', {
          form: { email, password: PASSWORD, callback: '/' },
          headers: { origin: baseURL! },
          maxRedirects: 0,
        })
        expect(res.status()).toBeLessThan(400)
      }
      await open(page, 5)
      // the end near the top of the screen, what follows it (comments, picks) in view while the offer comes in
      // (through the locator: the island may be putting its own bar in place of the page's at this moment)
      await page.locator('.viewer-nav').evaluate((nav) => scrollTo(0, nav.getBoundingClientRect().top + scrollY - 100))
      const { sum, shifts } = await settledShift(page)
      await info.attach('layout shifts', { body: JSON.stringify(shifts, null, 1), contentType: 'application/json' })
      await expect(page.locator('.viewer-chain .viewer-next')).toBeAttached()
      expect(sum, JSON.stringify(shifts)).toBeLessThanOrEqual(MAX_SHIFT)
      await context.close()
    })

  test(`${edition}: jumping to the very end (the scrollbar) before the next episode is in moves nothing on screen`, async ({
    browser,
    baseURL,
  }, info) => {
    const { context, page } = await reader(browser, baseURL!, true)
    await open(page)
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight))
    const { sum, shifts } = await settledShift(page)
    await info.attach('layout shifts', { body: JSON.stringify(shifts, null, 1), contentType: 'application/json' })
    expect(sum, JSON.stringify(shifts)).toBeLessThanOrEqual(MAX_SHIFT)
    await context.close()
  })
}
