/**
 * Viewer figures for `npm run bench` (docs/QUALITY.md viewer row; issue 6 "Speed"), reported, never asserted:
 *   - Lighthouse mobile (simulated throttling) on a free episode, median of N runs: LCP, CLS, JS transferred
 *     (gzip as served), performance score;
 *   - a Playwright reading of the same episode on a phone-sized window: time to the first slice (its image
 *     loaded, from navigation start), and whether the next episode's first slice was already loaded (in the
 *     cache) before the last slice of the current one came on screen for a fast reader (2000 px/s), with how
 *     long before the reader reached the next episode it had loaded;
 *   - the same episode reached as a reader does: on the series page, a tap on its main button ("Lire l'épisode 1"),
 *     timed from the tap to the first slice's image loaded (issue 25's closing figure).
 *   - the layout shift across the end of an episode (issue 42): /viewer/24 read to its end at 120, 400 and 800 ms per
 *     step of 0.8 window on a 150 ms RTT / 1.6 Mbit/s network, the sum of the browser's layout-shift entries.
 * Called by scripts/bench.ts with the running worker's base URL; prints its figures and returns them.
 */
import { CHROMIUM_FLAGS, findChromium } from '../chromium.ts'

export type ViewerBench = {
  path: string
  lighthouse: { runs: number; lcpMs: number | null; cls: number | null; jsGzKB: number | null; performance: number | null; error?: string }
  reading: {
    firstSliceMs: number | null
    /** From the tap on the series page's main button to the first slice loaded. */
    tapToFirstSliceMs: number | null
    lcpMs: number | null
    nextFirstSliceCached: boolean | null
    nextLeadMs: number | null
    error?: string
  }
  /** Layout shift across the end of /viewer/24 per ms a step (slow network), or the error. */
  endShift: Record<string, number | string>
  targets: { lcpMs: number; cls: number; jsGzKB: number }
}

const TARGETS = { lcpMs: 1200, cls: 0, jsGzKB: 90 }
const FLAGS = ['--headless=new', ...CHROMIUM_FLAGS]

/** The free episode measured: the first episode of series 1 in the demo seed (three slices, a free next one). */
const PATH = '/viewer/1'
/** Its series page, whose main button opens it. */
const SERIES_PATH = '/detail/1'

async function lighthouseRuns(url: string, runs: number, chromePath: string): Promise<ViewerBench['lighthouse']> {
  const out: ViewerBench['lighthouse'] = { runs: 0, lcpMs: null, cls: null, jsGzKB: null, performance: null }
  try {
    const lighthouse = (await import('lighthouse')).default
    const chromeLauncher = await import('chrome-launcher')
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: FLAGS, handleSIGINT: false, logLevel: 'silent' })
    const figures: { performance: number; lcpMs: number; cls: number; js: number }[] = []
    try {
      for (let attempt = 0; figures.length < runs && attempt < runs + 2; attempt++) {
        try {
          const rr = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })
          const lhr = rr?.lhr
          if (!lhr || lhr.runtimeError) throw new Error(lhr?.runtimeError?.message ?? 'no result')
          const rows =
            (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ??
            []
          figures.push({
            performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
            lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
            cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
            js: rows.find((r) => r.resourceType === 'script')?.transferSize ?? 0,
          })
          console.log(`  lighthouse viewer ${figures.length}/${runs}: LCP ${Math.round(figures.at(-1)!.lcpMs)} ms`)
        } catch (e) {
          console.log(`  lighthouse viewer: failed — ${(e as Error).message}`)
        }
      }
    } finally {
      await chrome.kill()
    }
    figures.sort((a, b) => a.lcpMs - b.lcpMs)
    const m = figures[Math.floor((figures.length - 1) / 2)]
    if (m)
      Object.assign(out, {
        runs: figures.length,
        lcpMs: Math.round(m.lcpMs),
        cls: m.cls,
        jsGzKB: Math.round((m.js / 1024) * 10) / 10,
        performance: m.performance,
      })
  } catch (e) {
    out.error = (e as Error).message
  }
  return out
}

async function reading(url: string, chromePath: string): Promise<ViewerBench['reading']> {
  const out: ViewerBench['reading'] = {
    firstSliceMs: null,
    tapToFirstSliceMs: null,
    lcpMs: null,
    nextFirstSliceCached: null,
    nextLeadMs: null,
  }
  let browser: import('playwright-core').Browser | undefined
  try {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_FLAGS })
    const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
    const page = await browser.newPage(phone)
    await page.addInitScript(() => {
      const w = window as unknown as { __lcp: number }
      w.__lcp = 0
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.__lcp = e.startTime
      }).observe({ type: 'largest-contentful-paint', buffered: true })
    })
    const firstLoaded = (p: import('playwright-core').Page) =>
      p
        .locator('#viewer-content img')
        .first()
        .evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true }))))
    // the tap is timed in its own context (cold cache, as a reader arriving from the series page)
    const tapContext = await browser.newContext(phone)
    const series = await tapContext.newPage()
    await series.goto(new URL(SERIES_PATH, url).href, { waitUntil: 'load' })
    const tapped = Date.now()
    await series.locator('a.read').first().tap()
    await firstLoaded(series)
    out.tapToFirstSliceMs = Date.now() - tapped
    await tapContext.close()
    await page.goto(url, { waitUntil: 'load' })
    await firstLoaded(page)
    const first = page.locator('#viewer-content img').first()
    out.firstSliceMs = await first.evaluate((img: HTMLImageElement) => {
      const entry = performance.getEntriesByName(img.currentSrc)[0] as PerformanceResourceTiming | undefined
      return entry ? Math.round(entry.responseEnd) : null
    })
    out.lcpMs = Math.round(await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp))
    // A fast reader: 80 px every 40 ms (2000 px/s). docs/QUALITY.md: the next episode's first slice must be loaded
    // before the last slice of the current one is on screen; also noted when the next episode itself is reached.
    const reached = await page.evaluate(async () => {
      const loaded = (img: HTMLImageElement | null | undefined) => !!img && img.complete && img.naturalWidth > 0
      const deadline = performance.now() + 30_000
      let atLastSlice: boolean | null = null
      while (performance.now() < deadline) {
        const last = document.querySelector<HTMLElement>('#viewer-content > li:last-child')
        const section = document.querySelector<HTMLElement>('section.viewer-episode')
        const img = section?.querySelector('img')
        if (atLastSlice === null && last && last.getBoundingClientRect().top <= innerHeight) atLastSlice = loaded(img)
        if (section && img && section.getBoundingClientRect().top <= innerHeight) {
          const entry = performance.getEntriesByName(img.currentSrc)[0] as PerformanceResourceTiming | undefined
          return {
            atLastSlice,
            atNext: loaded(img),
            leadMs: entry && entry.responseEnd > 0 ? Math.round(performance.now() - entry.responseEnd) : null,
          }
        }
        scrollBy(0, 80)
        await new Promise((r) => setTimeout(r, 40))
      }
      return null
    })
    if (reached) {
      out.nextFirstSliceCached = reached.atLastSlice === true && reached.atNext
      out.nextLeadMs = reached.leadMs
    } else out.error = 'the next episode never appeared below the first'
  } catch (e) {
    out.error = (e as Error).message
  } finally {
    await browser?.close()
  }
  return out
}

/** The end-of-episode layout shift (issue 42): see the header; each step time in a fresh context. */
async function endShift(base: string, chromePath: string): Promise<ViewerBench['endShift']> {
  const out: ViewerBench['endShift'] = {}
  let browser: import('playwright-core').Browser | undefined
  try {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: chromePath, args: CHROMIUM_FLAGS })
    for (const stepMs of [120, 400, 800]) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 915 },
        isMobile: true,
        hasTouch: true,
        serviceWorkers: 'block',
      })
      await context.addInitScript(() => {
        const w = window as unknown as { __shift: number }
        w.__shift = 0
        new PerformanceObserver((l) => {
          for (const e of l.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!e.hadRecentInput) w.__shift += e.value
        }).observe({ type: 'layout-shift', buffered: true })
      })
      const page = await context.newPage()
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: 200_000,
        uploadThroughput: 93_750,
      })
      await page.goto(`${base}/viewer/24`, { waitUntil: 'commit' })
      await page.locator('.viewer-slice img').first().waitFor({ state: 'visible', timeout: 30_000 })
      for (let step = 0; step < 200; step++) {
        const box = await page.locator('.viewer-nav').first().boundingBox()
        if (box && box.y >= 0 && box.y + box.height <= 915) break
        await page.evaluate(() => scrollBy(0, innerHeight * 0.8))
        await page.waitForTimeout(stepMs)
      }
      await page.waitForTimeout(3000)
      out[String(stepMs)] = Math.round((await page.evaluate(() => (window as unknown as { __shift: number }).__shift)) * 1000) / 1000
      await context.close()
    }
  } catch (e) {
    out.error = (e as Error).message
  } finally {
    await browser?.close()
  }
  return out
}

const fmt = (v: number | null | undefined, ok?: boolean) => (v == null ? '—' : `${v}${ok === undefined ? '' : ok ? ' ✓' : ' ✗'}`)

/** Measures the viewer against the worker at `base`; prints the figures. */
export async function benchViewer(base: string, opts: { runs?: number; notes?: string[] } = {}): Promise<ViewerBench> {
  const found = await findChromium()
  const chromePath = found.path ?? '/nonexistent-chromium' // the runs below report the failure
  const url = base + PATH
  console.log(`Viewer: Lighthouse × ${opts.runs ?? 3} and a Playwright reading of ${PATH}…`)
  const lh = await lighthouseRuns(url, opts.runs ?? 3, chromePath)
  const rd = await reading(url, chromePath)
  const end = await endShift(base, chromePath)
  const result: ViewerBench = { path: PATH, lighthouse: lh, reading: rd, endShift: end, targets: TARGETS }
  console.log(`\nViewer ${PATH} — Lighthouse mobile median of ${lh.runs}; Playwright 390×844`)
  console.log(
    `  LCP ${fmt(lh.lcpMs, lh.lcpMs == null ? undefined : lh.lcpMs <= TARGETS.lcpMs)} ms (≤ ${TARGETS.lcpMs}) · CLS ${fmt(lh.cls, lh.cls == null ? undefined : lh.cls <= TARGETS.cls)} · JS ${fmt(lh.jsGzKB, lh.jsGzKB == null ? undefined : lh.jsGzKB <= TARGETS.jsGzKB)} KB gz (≤ ${TARGETS.jsGzKB}) · performance ${fmt(lh.performance)}`,
  )
  console.log(
    `  first slice loaded at ${fmt(rd.firstSliceMs)} ms, ${fmt(rd.tapToFirstSliceMs)} ms after the tap on the series page's "read" button (LCP ${fmt(rd.lcpMs)} ms, unthrottled) · next episode's first slice in cache before the last slice was on screen (reader at 2000 px/s): ${rd.nextFirstSliceCached == null ? '—' : rd.nextFirstSliceCached ? 'yes ✓' : 'no ✗'}${rd.nextLeadMs == null ? '' : ` (loaded ${rd.nextLeadMs} ms before)`}`,
  )
  console.log(
    `  layout shift across the end of /viewer/24 (150 ms RTT, 1.6 Mbit/s; ≤ 0.05): ${[120, 400, 800].map((ms) => `${ms} ms a step ${fmt(end[String(ms)] as number | undefined)}`).join(' · ')}`,
  )
  for (const e of [lh.error, rd.error, end.error]) if (typeof e === 'string') opts.notes?.push(`viewer: ${e}`)
  return result
}
