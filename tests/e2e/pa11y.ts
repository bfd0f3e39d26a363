import { expect, test, type APIRequestContext, type TestInfo } from '@playwright/test'
import puppeteer, { type Browser, type BrowserContext } from 'puppeteer'
import pa11y, { type Pa11yIssue } from 'pa11y'
import { CHROMIUM_FLAGS, findChromium } from '../../scripts/chromium.ts'
import { DEMO_READER } from './helpers.ts'

/**
 * Issue 19 point 4, the independent audit: pa11y with its two runners (HTML_CodeSniffer and axe), standard WCAG 2
 * AA, pa11y's defaults otherwise (errors only; axe's "needs review" findings of serious impact count as errors), over
 * every page type of one edition, as a guest and as the demo reader. A page passes with 0 errors; a failure lists
 * each error as "page [runner] code — selector: message". pa11y drives its own puppeteer browser, launched on the
 * Chromium the rest of the suite runs (scripts/chromium.ts; `.puppeteerrc.json` skips puppeteer's download), one
 * per test, one tab reused from page to page.
 *
 * Demo data (every edition's seed): series 1 is published with a free first episode and notices exist.
 */

/** Pages every reader sees, as a guest too (catalogue, detail, viewer, search, shop, sign-in pages, support, …). */
function publicPages(s: Sample) {
  return [
    '/',
    '/home/weekly',
    '/home/romance',
    '/home/ranking',
    '/home/free',
    `/detail/${s.series}`,
    '/creator/1',
    `/viewer/${s.freeEpisode}`,
    `/search?keyword=${encodeURIComponent(s.keyword)}`,
    '/shop',
    `/comment?contentsId=${s.series}`,
    '/notice',
    `/notice/detail/${s.notice}`,
    '/faq',
    '/event',
  ]
}
/** Pages only a guest sees (a member is sent on). */
const GUEST_ONLY = ['/user/login', '/user/signup', '/user/findPassword', '/user/findId']
/** Pages only a member sees (a guest is sent to sign in). */
const MEMBER_ONLY = [
  '/my',
  '/my/profile',
  '/library/my',
  '/library/favorite',
  '/library/recent',
  '/history/charge',
  '/history/use',
  '/history/mileage',
  '/setting',
  '/setting/push',
  '/comment/my',
  '/qna',
  '/qna/register',
  '/gift',
  '/coupon',
  '/alarm',
]

type Sample = { series: number; freeEpisode: number; keyword: string; notice: number }

async function sample(request: APIRequestContext): Promise<Sample> {
  const series = (await (await request.get('/api/v1/contents/1')).json()).data as {
    title: string
    episodes: { id: number; free: boolean }[]
  }
  const notice = /\/notice\/detail\/(\d+)/.exec(await (await request.get('/notice')).text())
  expect(notice, 'a notice to audit').not.toBeNull()
  return { series: 1, freeEpisode: series.episodes.find((e) => e.free)!.id, keyword: series.title, notice: Number(notice![1]) }
}

/** One finding, readable in the test output. */
const line = (path: string, i: Pa11yIssue) => `${path} [${i.runner}] ${i.code} — ${i.selector}: ${i.message} ${i.context}`

/**
 * pa11y over `paths` in one tab of `tab`; after each page of `shots`, that page at 390 and 1280 px into the report
 * (the screens this audit changed: the signed-in header, the ranking's numbers).
 */
async function audit(
  who: string,
  tab: BrowserContext,
  browser: Browser,
  baseURL: string,
  paths: string[],
  info: TestInfo,
  shots: string[],
) {
  const page = await tab.newPage()
  const errors: string[] = []
  for (const path of paths) {
    try {
      const result = await pa11y(baseURL + path, { browser, page, runners: ['htmlcs', 'axe'], standard: 'WCAG2AA' })
      const landed = new URL(result.pageUrl).pathname
      if (landed !== new URL(baseURL + path).pathname) errors.push(`${path}: sent on to ${landed}, not audited`)
      errors.push(...result.issues.filter((i) => i.type === 'error').map((i) => line(path, i)))
    } catch (e) {
      errors.push(`${path}: pa11y could not run (${(e as Error).message})`)
    }
    if (!shots.includes(path)) continue
    for (const width of [390, 1280]) {
      await page.setViewport({ width, height: width === 390 ? 844 : 900 })
      await new Promise((done) => setTimeout(done, 150))
      const name = `${who}${path === '/' ? '-home' : path.replace(/\W+/g, '-')}-${width}`
      await info.attach(name, { body: Buffer.from(await page.screenshot({ fullPage: width === 390 })), contentType: 'image/png' })
    }
  }
  await page.close()
  return errors
}

export function pa11ySuite(id: string) {
  test.describe(`pa11y WCAG 2 AA, HTML_CodeSniffer + axe (${id})`, () => {
    test.describe.configure({ mode: 'parallel' })
    let browser: Browser

    test.beforeEach(async () => {
      const chromium = await findChromium()
      if (chromium.path === null) throw new Error(chromium.reason)
      browser = await puppeteer.launch({ executablePath: chromium.path, args: CHROMIUM_FLAGS, headless: true })
    })
    test.afterEach(async () => {
      await browser.close()
    })

    /** pa11y over `paths` as `who`, its figures in the report and the output, then 0 errors expected. */
    async function check(who: string, tab: BrowserContext, baseURL: string, paths: string[], info: TestInfo, shots: string[]) {
      const started = Date.now()
      const errors = await audit(who, tab, browser, baseURL, paths, info, shots)
      const summary = `pa11y ${id} ${who}: ${paths.length} pages, ${errors.length} errors, ${((Date.now() - started) / 1000).toFixed(1)} s`
      console.log(summary)
      info.annotations.push({ type: 'pa11y', description: summary })
      await info.attach(`pa11y-${id}-${who}`, { body: JSON.stringify({ pages: paths, errors }, null, 2), contentType: 'application/json' })
      expect(errors.length, `pa11y errors on ${paths.length} pages (${id}, ${who}):\n${errors.join('\n')}\n`).toBe(0)
    }

    test('every page type as a guest: 0 errors', async ({ request, baseURL }, info) => {
      test.setTimeout(240_000)
      const paths = [...publicPages(await sample(request)), ...GUEST_ONLY]
      await check('guest', await browser.createBrowserContext(), baseURL!, paths, info, ['/home/ranking'])
    })

    test('every page type as the demo reader: 0 errors', async ({ request, baseURL }, info) => {
      test.setTimeout(240_000)
      const s = await sample(request)
      // and the report form of an episode (issue 37 point 4), which names one
      const paths = [...publicPages(s), ...MEMBER_ONLY, `/qna/report?episodeId=${s.freeEpisode}`]
      const tab = await browser.createBrowserContext()
      const login = await tab.newPage()
      await login.goto(`${baseURL}/user/login`)
      await login.type('#login-email', DEMO_READER.email)
      await login.type('#login-password', DEMO_READER.password)
      await Promise.all([login.waitForNavigation(), login.click('form:has(#login-email) [type=submit]')])
      expect(new URL(login.url()).pathname, 'signed in').not.toBe('/user/login')
      await login.close()
      await check('member', tab, baseURL!, paths, info, ['/'])
    })
  })
}
