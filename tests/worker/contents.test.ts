import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
import { seedDemo } from './seed.ts'
import jp from '../../editions/jp/edition.json'
import ar from '../../editions/ar/edition.json'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { listContents, type SeriesCard } from '../../src/features/catalogue/catalogue.server.ts'
import { encodeCursor, resolveContents, SCHEDULE_DAYS } from '../../src/features/catalogue/catalogue.ts'
import { audienceClass, audienceSees } from '../../src/features/age/age.ts'
import type { DemoCatalogue } from '../../scripts/seed/data.ts'

type Body = { result: string; data: { items: SeriesCard[]; next: string | null }; code?: string; message?: string }

const app = appFor()
let demo: DemoCatalogue
const series = () => demo.tables.series!
const adultIds = () =>
  new Set(
    series()
      .filter((s) => s.is_adult === 1)
      .map((s) => Number(s.id)),
  )

beforeAll(async () => {
  demo = await seedDemo(env.DB)
})

async function get(path: string, init?: RequestInit, a = app) {
  const res = await request(a, path, init)
  return { res, body: (await res.json()) as Body }
}

/** Every page of a tab, following `next` (and checking each page's bound). */
async function all(query: string, init?: RequestInit, a = app) {
  const items: SeriesCard[] = []
  let cursor: string | null = null
  for (let i = 0; i < 20; i++) {
    const { res, body } = await get(`/api/v1/contents?${query}&size=5${cursor ? `&cursor=${cursor}` : ''}`, init, a)
    expect(res.status, query).toBe(200)
    expect(body.data.items.length).toBeLessThanOrEqual(5)
    items.push(...body.data.items)
    cursor = body.data.next
    if (!cursor) return items
  }
  throw new Error('pagination did not end')
}

describe('GET /api/v1/contents', () => {
  it('lists every tab for a guest, paginated without repeats, never an adult series', async () => {
    for (const tab of ['RANKING', 'FREE', 'BL', 'NEWEST', 'ACTION', 'ROMANCE', 'FREETIME']) {
      const items = await all(`tab=${tab}`)
      expect(items.length, tab).toBeGreaterThan(0)
      expect(new Set(items.map((s) => s.id)).size, tab).toBe(items.length)
      expect(
        items.filter((s) => adultIds().has(s.id)),
        tab,
      ).toEqual([])
    }
  })

  it('filters and orders each tab as the spec says', async () => {
    const visible = series().filter((s) => s.is_adult === 0)
    const ids = (xs: readonly { id?: unknown }[]) => xs.map((s) => Number(s.id)).sort((a, b) => a - b)
    expect(ids(await all('tab=RANKING'))).toEqual(ids(visible))
    expect(ids(await all('tab=FREE'))).toEqual(ids(visible.filter((s) => s.free_promo === 1)))
    expect(ids(await all('tab=BL'))).toEqual(ids(visible.filter((s) => s.is_bl === 1)))
    expect(ids(await all('tab=ACTION'))).toEqual(ids(visible.filter((s) => s.genre === 'ACTION')))
    expect(ids(await all('tab=ROMANCE'))).toEqual(ids(visible.filter((s) => s.genre === 'ROMANCE')))
    expect(ids(await all('tab=FREETIME'))).toEqual(ids(visible.filter((s) => s.wuf_hours !== null)))
    const ranking = await all('tab=RANKING')
    const score = new Map(series().map((s) => [Number(s.id), Number(s.rank_score)]))
    for (let i = 1; i < ranking.length; i++) expect(score.get(ranking[i - 1]!.id)!).toBeGreaterThanOrEqual(score.get(ranking[i]!.id)!)
    const newest = await all('tab=NEWEST')
    const launched = new Map(series().map((s) => [Number(s.id), String(s.launched_at)]))
    for (let i = 1; i < newest.length; i++) expect(launched.get(newest[i - 1]!.id)! >= launched.get(newest[i]!.id)!).toBe(true)
  })

  it('lists each weekday and TEN of the schedule (tab=SCHEDULE&day= or the day as tab)', async () => {
    const schedules = demo.tables.schedules!
    for (const day of SCHEDULE_DAYS) {
      const expected = schedules
        .filter((r) => r.weekday === day && !adultIds().has(Number(r.series_id)))
        .map((r) => Number(r.series_id))
        .sort((a, b) => a - b)
      const got = (await all(`tab=SCHEDULE&day=${day}`)).map((s) => s.id).sort((a, b) => a - b)
      expect(got, day).toEqual(expected)
      expect(got.length, day).toBeGreaterThan(0)
      expect((await all(`tab=${day}`)).map((s) => s.id).sort((a, b) => a - b)).toEqual(expected)
    }
    const { body } = await get('/api/v1/contents')
    expect(body.result).toBe('SUCCESS') // no tab: today's schedule
  })

  it('answers MATURE for a guest with ADULT_ONLY_CONTENTS (age popup), never a list', async () => {
    const { res, body } = await get('/api/v1/contents?tab=MATURE')
    expect(res.status).toBe(403)
    expect(body.code).toBe('ADULT_ONLY_CONTENTS')
    expect(body.message).not.toMatch(/^error\./)
  })

  it('shows adult series to a jp guest whose not-logged-in-adult cookie is Y, and only then', async () => {
    const jpApp = appFor(parseEdition('jp', jp))
    const items = await all('tab=MATURE', { headers: { cookie: 'not-login-adult=Y' } }, jpApp)
    expect(items.length).toBeGreaterThan(0)
    expect(items.every((s) => s.isAdult)).toBe(true)
    expect((await get('/api/v1/contents?tab=MATURE', { headers: { cookie: 'not-login-adult=N' } }, jpApp)).res.status).toBe(403)
    expect((await get('/api/v1/contents?tab=MATURE', { headers: { cookie: 'not-login-adult=Y' } })).res.status).toBe(403) // fr has no such rule
  })

  it('shows BL to guests even on the BL-toggle edition, and hides it from a reader who has not turned it on', async () => {
    const arApp = appFor(parseEdition('ar', ar))
    expect((await all('tab=BL', { headers: { 'x-platform': 'IOS_APP' } }, arApp)).length).toBeGreaterThan(0)
    const arEdition = parseEdition('ar', ar)
    const off = audienceSees(
      audienceClass(arEdition, {
        isAdult: true,
        isKrIpUser: false,
        isAdultKr: false,
        birthedAt: '1990-01-01',
        showAdult: false,
        isBlToggle: false,
      }),
    )
    expect(off.showBl).toBe(false)
    for (const tab of ['BL', 'RANKING', 'NEWEST', 'ROMANCE']) {
      const r = resolveContents({ tab, size: '50' }, off, 'MONDAY')
      if (!r.ok) throw new Error(tab)
      const page = await listContents(createDb(env.DB), r.request, off)
      expect(
        page.items.filter((s) => s.genre === 'BL'),
        tab,
      ).toEqual([])
    }
  })

  it('reads one page in one D1 query', async () => {
    const { res } = await get('/api/v1/contents?tab=RANKING')
    expect(res.headers.get('x-d1-queries')).toBe('1')
  })

  it('answers bad tab, day, size and cursor with 400 INVALID_PARAMETER', async () => {
    const bad = [
      'tab=NOPE',
      'tab=',
      'tab=RANKING&day=MONDAY',
      'tab=SCHEDULE&day=FUNDAY',
      'tab=MONDAY&day=TUESDAY',
      'tab=RANKING&size=0',
      'tab=RANKING&size=51',
      'tab=RANKING&size=abc',
      'tab=RANKING&cursor=',
      'tab=RANKING&cursor=%%%',
      'tab=RANKING&cursor=bm9wZQ',
      `tab=RANKING&cursor=${'A'.repeat(300)}`,
      `tab=RANKING&cursor=${encodeCursor({ k: '2026-01-01T00:00:00.000Z', id: 1 })}`,
      `tab=NEWEST&cursor=${encodeCursor({ k: 5, id: 1 })}`,
      'tab=RANKING&tab=FREE',
    ]
    for (const q of bad) {
      const { res, body } = await get(`/api/v1/contents?${q}`)
      expect(res.status, q).toBe(400)
      expect(body.code, q).toBe('INVALID_PARAMETER')
    }
  })

  it('answers an out-of-range cursor with an empty last page', async () => {
    const { res, body } = await get(`/api/v1/contents?tab=RANKING&cursor=${encodeCursor({ k: -1, id: 999999 })}`)
    expect(res.status).toBe(200)
    expect(body.data).toEqual({ items: [], next: null })
  })

  it('never answers 5xx to 1,000 random query strings', async () => {
    const key = fc.constantFrom('tab', 'day', 'cursor', 'size', 'x', '')
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('RANKING', 'SCHEDULE', 'MATURE', 'TEN', 'MONDAY', '50', '-1'),
      fc.string({ unit: 'binary' }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 5 }), fc.boolean(), async (pairs, raw) => {
        const qs = raw ? pairs.map(([k, v]) => `${k}=${v}`).join('&') : new URLSearchParams(pairs).toString()
        let res: Response
        try {
          res = await request(app, `/api/v1/contents?${qs}`)
        } catch {
          return // the URL itself could not be built: no request reached the worker
        }
        expect(res.status, qs).toBeLessThan(500)
        const body = (await res.json()) as Body
        if (res.status >= 400) expect(isErrorCode(body.code!)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  }, 60_000)
})
