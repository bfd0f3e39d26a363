import { expect, test, type Page } from '@playwright/test'
import { HOME_PAGES } from '../../src/features/catalogue/catalogue.ts'

/**
 * Issue 19 point 4, reflow (WCAG 1.4.10): every catalogue page type, as a guest, at 320 CSS px wide, scrolls
 * only vertically — `document.documentElement.scrollWidth` stays within the window. A row that scrolls on its
 * own (the home tabs, a series row) is allowed: the page itself does not move sideways. Shared by
 * reflow.fr.spec.ts and reflow.ar.spec.ts (right to left: an overflow to the left counts the same); the bottom
 * bar's labels fit the bar. Each page at 320 px goes into the report.
 */
const WIDTH = 320

/** The catalogue pages with a fixed address: home, its tabs and genres (HOME_PAGES), search, notices, FAQ, events. */
const FIXED = ['/', ...HOME_PAGES.map((p) => `/home/${p}`), '/home/weekly?day=TEN', '/search', '/notice', '/faq', '/event', '/benefit']

/** The first link of `from` whose path starts with `prefix` (a theme, a series, a notice of the demo seed). */
async function firstLink(page: Page, from: string, prefix: string): Promise<string> {
  await page.goto(from)
  const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href')
  expect(href, `a link to ${prefix}… on ${from}`).not.toBeNull()
  return href!
}

/** What sticks out of the window sideways, outside any box that scrolls on its own: "tag.class (left..right)". */
const overflowing = (page: Page) =>
  page.evaluate((width) => {
    const scrolls = (el: Element | null): boolean => {
      for (let p = el?.parentElement; p; p = p.parentElement) if (/auto|scroll|hidden|clip/.test(getComputedStyle(p).overflowX)) return true
      return false
    }
    return [...document.body.querySelectorAll('*')]
      .filter((el) => {
        const r = el.getBoundingClientRect()
        return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5) && !scrolls(el)
      })
      .slice(0, 8)
      .map((el) => {
        const r = el.getBoundingClientRect()
        return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(r.left)}..${Math.round(r.right)})`
      })
  }, WIDTH)

export function reflowSuite(id: 'fr' | 'ar') {
  test.describe(`${id}: catalogue pages reflow at ${WIDTH} CSS px (WCAG 1.4.10)`, () => {
    test(`every catalogue page type at ${WIDTH} px: no horizontal scrolling`, async ({ browser, baseURL }, info) => {
      test.setTimeout(120_000)
      const context = await browser.newContext({ baseURL, viewport: { width: WIDTH, height: 640 } })
      const page = await context.newPage()
      const detail = await firstLink(page, '/home/ranking', '/detail/')
      const pick = await firstLink(page, '/home/pick', '/home/pick/')
      const notice = await firstLink(page, '/notice', '/notice/detail/')
      const title = (await page.goto(detail), await page.locator('h1').innerText())
      const pages = [...FIXED, pick, detail, `/search?keyword=${encodeURIComponent(title.split(/\s+/)[0]!)}`, notice]
      const wide: Record<string, { scrollWidth: number; overflowing: string[] }> = {}
      for (const path of pages) {
        const res = await page.goto(path)
        expect(res?.status(), path).toBeLessThan(500)
        await expect(page.locator('html')).toHaveAttribute('dir', id === 'ar' ? 'rtl' : 'ltr')
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
        if (scrollWidth > WIDTH) wide[path] = { scrollWidth, overflowing: await overflowing(page) }
        // the bottom bar's labels fit it (a label on two lines was cut off by the bar's height)
        const cut = await page.locator('.nav-bottom a').evaluateAll((links) =>
          links
            .filter((a) => {
              const bar = a.closest('.nav-bottom')!.getBoundingClientRect()
              return a.getBoundingClientRect().bottom > bar.bottom + 1 || a.scrollWidth > a.clientWidth + 1
            })
            .map((a) => a.textContent!.trim()),
        )
        if (cut.length) wide[path] = { scrollWidth, overflowing: [...(wide[path]?.overflowing ?? []), ...cut.map((c) => `cut: ${c}`)] }
        await info.attach(`${id}-320-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: 'image/png',
        })
      }
      info.annotations.push({ type: `${id} pages checked at ${WIDTH} px`, description: String(pages.length) })
      expect(wide).toEqual({})
      await context.close()
    })
  })
}
