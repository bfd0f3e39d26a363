import { expect, test, type Page, type Request } from '@playwright/test'
import { hydrated, newAccount, signIn } from './viewer.helpers.ts'

/**
 * Reading progress saved as a reader expects, not every few seconds (issue 24 §2, docs/API.md "Reading
 * progress"): on reaching the end, on leaving the page (a beacon), at most every 30 s while reading, only a moved
 * place. Demo episode 1 (free) of series 1, on a phone, by a fresh reader; every progress request is counted.
 */
test.use({ viewport: { width: 390, height: 844 } })

const PROGRESS = /\/api\/v1\/viewer\/\d+\/progress$/

type Save = { url: string; beacon: boolean; position: number }

/**
 * Every progress save the page makes. Playwright's `page.on('request')` sees the ones sent while the page lives, not
 * a beacon sent as it unloads; so the page also logs each save (fetch or sendBeacon) in sessionStorage, which
 * outlives the navigation. `saves()` reads that log; `seen` are the requests Playwright saw (a subset of it).
 */
async function countSaves(page: Page) {
  const seen: Request[] = []
  page.on('request', (r) => {
    if (r.method() === 'POST' && PROGRESS.test(new URL(r.url()).pathname)) seen.push(r)
  })
  await page.addInitScript((pattern) => {
    const matches = (url: string) => new RegExp(pattern).test(new URL(url, location.href).pathname)
    const log = (url: string, beacon: boolean, body: unknown) => {
      const saves = JSON.parse(sessionStorage.getItem('progress-saves') ?? '[]') as unknown[]
      saves.push({ url, beacon, position: (JSON.parse(String(body)) as { position: number }).position })
      sessionStorage.setItem('progress-saves', JSON.stringify(saves))
    }
    const sendBeacon = navigator.sendBeacon.bind(navigator)
    navigator.sendBeacon = (url, data) => {
      if (matches(String(url))) log(String(url), true, data)
      return sendBeacon(url, data)
    }
    const fetch = window.fetch.bind(window)
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (matches(url) && init?.method === 'POST') log(url, false, init.body)
      return fetch(input, init)
    }
  }, PROGRESS.source)
  const saves = async () => JSON.parse((await page.evaluate(() => sessionStorage.getItem('progress-saves'))) ?? '[]') as Save[]
  return { seen, saves }
}

/** Where the reader is in episode 1, as the viewer computes it (0 top, 1 once its end is on screen). */
const position = (page: Page) =>
  page.locator('#viewer-content').evaluate((el) => {
    const r = el.getBoundingClientRect()
    return Math.min(1, Math.max(0, -r.top / (r.height - innerHeight)))
  })

/** Scrolls down by `step` px, never past the end of episode 1 (the next one flows in below); false once at the end. */
const scrollOn = (page: Page, step: number) =>
  page.locator('#viewer-content').evaluate((el, step) => {
    const left = el.getBoundingClientRect().bottom - innerHeight
    if (left <= 0.5) return false
    scrollBy({ top: Math.min(step, left), behavior: 'instant' })
    return true
  }, step)

/** The saved place of episode 1, read back through the API once the page is gone (the beacon is on its way). */
const savedPlace = (page: Page) =>
  expect.poll(
    async () => ((await (await page.request.get('/api/v1/viewer/1')).json()) as { data: { progress: number | null } }).data.progress,
    {
      timeout: 10_000,
    },
  )

async function openEpisodeOne(page: Page) {
  await signIn(page, await newAccount(page.request))
  const count = await countSaves(page)
  await page.goto('/viewer/1')
  await hydrated(page)
  await page.waitForTimeout(500) // the island settled (restoring the place saves nothing)
  return count
}

test('an episode read to the end in about 40 s, then left: at most 3 progress writes, the end saved', async ({ page }, info) => {
  test.setTimeout(120_000)
  const { seen, saves } = await openEpisodeOne(page)
  const height = await page.locator('#viewer-content').evaluate((el) => el.getBoundingClientRect().height - innerHeight)
  const step = 200
  const steps = Math.max(1, Math.ceil(height / step))
  const pause = Math.round(40_000 / steps) // a steady reader: the whole episode in about 40 s, past one 30 s interval
  const started = Date.now()
  while (await scrollOn(page, step)) await page.waitForTimeout(pause)
  const readFor = Date.now() - started
  expect(await position(page)).toBeGreaterThanOrEqual(0.999)
  await page.waitForTimeout(1000)
  await page.goto('/') // leaving the episode
  await savedPlace(page).toBe(1)
  const made = await saves()
  info.annotations.push({
    type: 'progress writes for one episode read',
    description: `${made.length} (${made.map((m) => `${m.position}${m.beacon ? ' beacon' : ''}`).join(', ')}) over ${Math.round(readFor / 1000)} s of reading, ${steps} scroll steps`,
  })
  expect(made.length).toBeGreaterThanOrEqual(1)
  expect(made.length).toBeLessThanOrEqual(3)
  expect(made.at(-1)!.position).toBe(1)
  expect(made.every((m) => new URL(m.url, 'http://x').pathname === '/api/v1/viewer/1/progress')).toBe(true)
  expect(seen.length).toBeLessThanOrEqual(made.length)
})

test('leaving in the middle of an episode sends the place once, as a beacon, and another visit restores it', async ({ page }, info) => {
  const { seen, saves } = await openEpisodeOne(page)
  const half = await page.locator('#viewer-content').evaluate((el) => (el.getBoundingClientRect().height - innerHeight) / 2)
  for (let i = 0; i < 3; i++) {
    await scrollOn(page, half / 3)
    await page.waitForTimeout(300)
  }
  const at = await position(page)
  expect(at).toBeGreaterThan(0.05)
  expect(at).toBeLessThan(0.95)
  expect(await saves()).toEqual([]) // reading for a few seconds saves nothing yet
  expect(seen).toEqual([])
  await page.goto('/')
  await savedPlace(page).toBeCloseTo(at, 2)
  const made = await saves()
  info.annotations.push({ type: 'progress writes', description: JSON.stringify(made) })
  expect(made).toEqual([{ url: '/api/v1/viewer/1/progress', beacon: true, position: expect.closeTo(at, 2) as unknown }])

  // the place comes back on the next visit
  await page.goto('/viewer/1')
  await hydrated(page)
  await expect.poll(() => position(page)).toBeCloseTo(at, 1)
})

test('continuous reading: moving on into episode 2 saves episode 1 once, at its end; leaving saves the place in episode 2', async ({
  page,
}, info) => {
  const { saves } = await openEpisodeOne(page)
  const next = page.locator('section[data-episode="2"]')
  await expect(next).toBeAttached()
  // one long flick from the top of episode 1 to the middle of episode 2: episode 1's end passes in between
  await next.evaluate((el) =>
    scrollTo({ top: el.getBoundingClientRect().top + scrollY + el.getBoundingClientRect().height / 2, behavior: 'instant' }),
  )
  await expect(page).toHaveURL(/\/viewer\/2$/)
  await page.waitForTimeout(1000)
  expect(await saves()).toEqual([{ url: '/api/v1/viewer/1/progress', beacon: false, position: 1 }])
  const at = await next.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return Math.min(1, Math.max(0, -r.top / (r.height - innerHeight)))
  })
  await page.goto('/')
  await expect
    .poll(async () => ((await (await page.request.get('/api/v1/viewer/2')).json()) as { data: { progress: number | null } }).data.progress)
    .toBeCloseTo(at, 2)
  const made = await saves()
  info.annotations.push({ type: 'progress writes', description: JSON.stringify(made) })
  expect(made).toHaveLength(2)
  expect(made[1]).toMatchObject({ url: '/api/v1/viewer/2/progress', beacon: true })
})
