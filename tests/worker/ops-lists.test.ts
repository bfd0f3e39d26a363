/**
 * The operator's lists (issue 39 point 2, docs/API.md "Operator API": `GET /api/ops/series`, `/series/{id}/episodes`,
 * `/notices`, `/events`, `/banners`; `npm run ops -- series|episode|notice|event|banner list`) on the real edge app and
 * D1: off without OPS_TOKEN, 401 without the right token; each row's id and state as the reader pages have it
 * (published, scheduled, unpublished, importing), the title search, pages walked by their cursor (every row once, in
 * order), the edition's time zone; bad ids and queries refused with INVALID_PARAMETER or NOT_EXIST, and 1,000
 * generated queries per route that answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS } from './ops.helpers.ts'
import { app, call, db, expectError, read } from './comment.helpers.ts'
import { expectApiAnswer, request } from './app.ts'
import { EPISODE_UNPUBLISHED_AT } from '../../src/features/catalogue/catalogue-ops.ts'
import { NOTICE_UNPUBLISHED_AT } from '../../src/features/notice/notice.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

/** Everything a list could change if it wrote (it must not). */
const snapshot = () =>
  db.first(`SELECT (SELECT group_concat(id || is_published || updated_at) FROM series) AS series,
    (SELECT group_concat(id || published_at || coalesce(announced_at, '-')) FROM episodes) AS episodes,
    (SELECT group_concat(id || is_pinned || published_at) FROM notices) AS notices,
    (SELECT group_concat(id || starts_at || ends_at) FROM events) AS events,
    (SELECT group_concat(id || coalesce(ends_at, '-')) FROM banners) AS banners,
    (SELECT count(*) FROM series_imports) AS imports`)

const LISTS = ['/api/ops/series', '/api/ops/series/1/episodes', '/api/ops/notices', '/api/ops/events', '/api/ops/banners']

const hour = 3_600_000
const at = (ms: number) => new Date(Date.now() + ms).toISOString()
let seq = 0

/** A series titled `title` with episodes at `dates` (numbers 1, 2, …), priced as told. */
async function seriesWith(title: string, dates: string[], opts: { published?: boolean; adult?: boolean } = {}) {
  const s = await db.first<{ id: number }>(
    `INSERT INTO series (title, status, genre, is_adult, is_published) VALUES (?, 'SCHEDULED', 'DRAMA', ?, ?) RETURNING id`,
    title,
    opts.adult ? 1 : 0,
    opts.published === false ? 0 : 1,
  )
  const ids: number[] = []
  for (const [i, date] of dates.entries()) {
    const free = i === 0
    const e = await db.first<{ id: number }>(
      `INSERT INTO episodes (series_id, no, title, is_free, price_rent, price_buy, published_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      s!.id,
      i + 1,
      `Épisode ${i + 1}`,
      free ? 1 : 0,
      free ? null : 3,
      free ? null : 5,
      date,
    )
    ids.push(e!.id)
  }
  return { id: s!.id, episodeIds: ids }
}

const get = async (path: string) => {
  const res = await call(OPS, 'GET', path)
  expect(res.status, path).toBe(200)
  expect(res.headers.get('cache-control')).toBe('no-store')
  return (await read(res)).data as { items: Record<string, unknown>[]; next: string | null; timeZone: string; series?: unknown }
}

/** Every row of a list, page after page of `limit`, by the cursor each page gives. */
async function walk(path: string, limit: number): Promise<{ rows: Record<string, unknown>[]; pages: number }> {
  const rows: Record<string, unknown>[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const sep = path.includes('?') ? '&' : '?'
    const page = await get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(page.items.length).toBeLessThanOrEqual(limit)
    if (page.next !== null) expect(page.items.length).toBe(limit)
    rows.push(...page.items)
    cursor = page.next
    pages++
  } while (cursor !== null && pages < 1000)
  return { rows, pages }
}

describe('operator API: the lists with their ids (issue 39 point 2)', () => {
  it('every list is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token', async () => {
    for (const path of LISTS) {
      for (const OPS_TOKEN of ['', undefined]) {
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => call(OPS, 'GET', path))) as Response, 404, 'NOT_EXIST')
      }
      await expectError(await call(null, 'GET', path), 401, 'NOT_LOGIN_USER')
      const wrong = await call({ headers: { authorization: 'Bearer wrong' } }, 'GET', path)
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="ops"')
      await expectError(wrong, 401, 'NOT_LOGIN_USER')
      await expectError(await call({ headers: { authorization: 'Basic test-ops-token' } }, 'GET', path), 401, 'NOT_LOGIN_USER')
    }
  })

  it('series: id, title, state (published, scheduled, unpublished, importing), adult, episode counts, the title search', async () => {
    const mark = `Phare${++seq}x${Date.now() % 1e6}`
    const live = await seriesWith(`${mark} en ligne`, [at(-48 * hour), at(-hour), at(24 * hour), EPISODE_UNPUBLISHED_AT], { adult: true })
    const soon = await seriesWith(`${mark} bientôt`, [at(2 * hour), at(26 * hour)])
    const withdrawn = await seriesWith(`${mark} retiré`, [at(-hour)], { published: false })
    const importing = await seriesWith(`${mark} importé`, [], { published: false })
    await db.run(`INSERT INTO series_imports (series_id, request) VALUES (?, '{}')`, importing.id)
    const empty = await seriesWith(`${mark} vide`, [])

    const page = await get(`/api/ops/series?q=${encodeURIComponent(mark.toLowerCase())}`)
    expect(page.timeZone).toBe('Europe/Paris')
    expect(page.next).toBeNull()
    expect(page.items.map((s) => s.id)).toEqual([empty.id, importing.id, withdrawn.id, soon.id, live.id])
    const byId = new Map(page.items.map((s) => [s.id, s]))
    expect(byId.get(live.id)).toEqual({
      id: live.id,
      title: `${mark} en ligne`,
      isAdult: true,
      isPublished: true,
      state: 'PUBLISHED',
      episodes: 4,
      published: 2,
      nextEpisodeAt: expect.any(String),
    })
    expect(Date.parse(byId.get(live.id)!.nextEpisodeAt as string)).toBeGreaterThan(Date.now() + 23 * hour)
    expect(byId.get(soon.id)).toMatchObject({ state: 'SCHEDULED', isAdult: false, episodes: 2, published: 0 })
    expect(Date.parse(byId.get(soon.id)!.nextEpisodeAt as string)).toBeLessThan(Date.now() + 3 * hour)
    expect(byId.get(withdrawn.id)).toMatchObject({ state: 'UNPUBLISHED', isPublished: false, episodes: 1, published: 1 })
    expect(byId.get(importing.id)).toMatchObject({ state: 'IMPORTING', episodes: 0, nextEpisodeAt: null })
    expect(byId.get(empty.id)).toMatchObject({ state: 'PUBLISHED', episodes: 0, published: 0, nextEpisodeAt: null })

    // the search is a substring of the title (any case for A to Z), % _ and \\ plain characters, trimmed
    expect((await get(`/api/ops/series?q=${encodeURIComponent(` ${mark.toUpperCase()} BIENTôT `)}`)).items.map((s) => s.id)).toEqual([
      soon.id,
    ])
    const odd = await seriesWith(`${mark} 100%_sûr`, [])
    expect((await get(`/api/ops/series?q=${encodeURIComponent('100%_s')}`)).items.map((s) => s.id)).toEqual([odd.id])
    expect((await get(`/api/ops/series?q=${encodeURIComponent(`${mark}%retiré`)}`)).items).toEqual([])
    expect((await get(`/api/ops/series?q=${encodeURIComponent(`${mark}_en`)}`)).items).toEqual([])
    expect((await get(`/api/ops/series?q=${encodeURIComponent('\\')}`)).items).toEqual([])
    expect((await get(`/api/ops/series?q=nothing-has-this-title-${mark}`)).items).toEqual([])
  })

  it('series: pages by the cursor give every series once, newest first, and the search pages the same way', async () => {
    const all = await db.all<{ id: number }>(`SELECT id FROM series ORDER BY id DESC`)
    expect(all.length).toBeGreaterThan(7)
    const { rows, pages } = await walk('/api/ops/series', 7)
    expect(rows.map((r) => r.id)).toEqual(all.map((r) => r.id))
    expect(pages).toBe(Math.ceil(all.length / 7))
    expect((await get('/api/ops/series')).items.length).toBe(Math.min(50, all.length))
    expect((await get('/api/ops/series?limit=200')).items.length).toBe(Math.min(200, all.length))

    const mark = `Page${++seq}x${Date.now() % 1e6}`
    const made: number[] = []
    for (let i = 0; i < 5; i++) made.push((await seriesWith(`${mark} ${i}`, [])).id)
    const searched = await walk(`/api/ops/series?q=${mark}`, 2)
    expect(searched.rows.map((r) => r.id)).toEqual([...made].reverse())
    expect(searched.pages).toBe(3)
    // a cursor past the oldest series is an empty last page
    expect(await get(`/api/ops/series?q=${mark}&cursor=${Math.min(...made)}`)).toEqual({ items: [], next: null, timeZone: 'Europe/Paris' })
  })

  it("episodes: a series' episodes latest first, each with its id, state, date and price; pages by number", async () => {
    const dates = [at(-72 * hour), at(-48 * hour), at(-hour), at(5 * hour), EPISODE_UNPUBLISHED_AT]
    const s = await seriesWith(`Épisodes ${++seq}`, dates)
    await db.run(`UPDATE episodes SET announced_at = published_at WHERE id = ?`, s.episodeIds[2])
    const page = await get(`/api/ops/series/${s.id}/episodes`)
    expect(page.series).toEqual({ id: s.id, title: `Épisodes ${seq}` })
    expect(page.timeZone).toBe('Europe/Paris')
    expect(page.next).toBeNull()
    expect(page.items.map((e) => [e.id, e.no, e.state])).toEqual([
      [s.episodeIds[4], 5, 'UNPUBLISHED'],
      [s.episodeIds[3], 4, 'SCHEDULED'],
      [s.episodeIds[2], 3, 'PUBLISHED'],
      [s.episodeIds[1], 2, 'PUBLISHED'],
      [s.episodeIds[0], 1, 'PUBLISHED'],
    ])
    expect(page.items[0]).toEqual({
      id: s.episodeIds[4],
      no: 5,
      title: 'Épisode 5',
      isFree: false,
      priceRent: 3,
      priceBuy: 5,
      publishedAt: EPISODE_UNPUBLISHED_AT,
      announcedAt: null,
      earlyAt: null,
      earlyRent: null,
      earlyBuy: null,
      state: 'UNPUBLISHED',
    })
    expect(page.items[1]!.publishedAt).toBe(dates[3])
    expect(page.items[2]!.announcedAt).toBe(dates[2])
    expect(page.items[4]).toMatchObject({ isFree: true, priceRent: null, priceBuy: null })

    const first = await get(`/api/ops/series/${s.id}/episodes?limit=2`)
    expect(first.items.map((e) => e.no)).toEqual([5, 4])
    expect(first.next).toBe('4')
    const { rows, pages } = await walk(`/api/ops/series/${s.id}/episodes`, 2)
    expect(rows.map((e) => e.no)).toEqual([5, 4, 3, 2, 1])
    expect(pages).toBe(3)
    // a series without episodes: an empty page; an unknown series: NOT_EXIST
    const none = await seriesWith(`Vide ${++seq}`, [])
    expect((await get(`/api/ops/series/${none.id}/episodes`)).items).toEqual([])
    await expectError(await call(OPS, 'GET', '/api/ops/series/999999999/episodes'), 404, 'NOT_EXIST')
  })

  it('notices, events, banners: newest first with their ids and states, every row once by the cursor', async () => {
    const notice = async (publishedAt: string, pinned: number, seriesId: number | null) =>
      (await db.first<{ id: number }>(
        `INSERT INTO notices (category, series_id, title, body, is_pinned, published_at) VALUES ('NOTICE', ?, ?, 'corps', ?, ?) RETURNING id`,
        seriesId,
        `Avis ${++seq}`,
        pinned,
        publishedAt,
      ))!.id
    const s = await seriesWith(`Avis ${++seq}`, [])
    const shown = await notice(at(-hour), 1, null)
    const later = await notice(at(hour), 0, s.id)
    const down = await notice(NOTICE_UNPUBLISHED_AT, 0, null)
    const notices = await get('/api/ops/notices?limit=3')
    expect(notices.items.map((n) => [n.id, n.state, n.isPinned, n.seriesId])).toEqual([
      [down, 'UNPUBLISHED', false, null],
      [later, 'SCHEDULED', false, s.id],
      [shown, 'PUBLISHED', true, null],
    ])
    expect(notices.items[0]).not.toHaveProperty('body')
    expect(notices.items[0]).toEqual({
      id: down,
      category: 'NOTICE',
      seriesId: null,
      title: expect.stringMatching(/^Avis /),
      isPinned: false,
      publishedAt: NOTICE_UNPUBLISHED_AT,
      state: 'UNPUBLISHED',
    })
    const allNotices = await db.all<{ id: number }>(`SELECT id FROM notices ORDER BY id DESC`)
    expect((await walk('/api/ops/notices', 4)).rows.map((n) => n.id)).toEqual(allNotices.map((n) => n.id))

    const event = async (startsAt: string, endsAt: string, active = 1) =>
      (await db.first<{ id: number }>(
        `INSERT INTO events (kind, title, description, starts_at, ends_at, is_active) VALUES ('PROMOTION', ?, '', ?, ?, ?) RETURNING id`,
        `Évènement ${++seq}`,
        startsAt,
        endsAt,
        active,
      ))!.id
    const running = await event(at(-hour), at(hour))
    const notYet = await event(at(hour), at(2 * hour))
    const over = await event(at(-2 * hour), at(-hour))
    const off = await event(at(-hour), at(hour), 0)
    const events = await get('/api/ops/events?limit=4')
    expect(events.items.map((e) => [e.id, e.state])).toEqual([
      [off, 'ENDED'],
      [over, 'ENDED'],
      [notYet, 'NOT_STARTED'],
      [running, 'RUNNING'],
    ])
    expect(Object.keys(events.items[0]!).sort()).toEqual([
      'description',
      'endsAt',
      'id',
      'kind',
      'restriction',
      'startsAt',
      'state',
      'title',
    ])
    const allEvents = await db.all<{ id: number }>(`SELECT id FROM events ORDER BY id DESC`)
    expect((await walk('/api/ops/events', 3)).rows.map((e) => e.id)).toEqual(allEvents.map((e) => e.id))

    const banner = async (startsAt: string | null, endsAt: string | null) =>
      (await db.first<{ id: number }>(
        `INSERT INTO banners (placement, display, title, link, starts_at, ends_at) VALUES ('HOME', 'ONLY_TEXT', ?, '/event', ?, ?) RETURNING id`,
        `Bannière ${++seq}`,
        startsAt,
        endsAt,
      ))!.id
    const always = await banner(null, null)
    const ended = await banner(at(-2 * hour), at(-hour))
    const coming = await banner(at(hour), null)
    const banners = await get('/api/ops/banners?limit=3')
    expect(banners.items.map((b) => [b.id, b.state, b.startsAt, b.endsAt])).toEqual([
      [coming, 'NOT_STARTED', expect.any(String), null],
      [ended, 'ENDED', expect.any(String), expect.any(String)],
      [always, 'SHOWN', null, null],
    ])
    expect(banners.items[2]).toMatchObject({
      title: expect.stringMatching(/^Bannière /),
      link: '/event',
      placement: 'HOME',
      isAdult: false,
    })
    const allBanners = await db.all<{ id: number }>(`SELECT id FROM banners ORDER BY id DESC`)
    expect((await walk('/api/ops/banners', 2)).rows.map((b) => b.id)).toEqual(allBanners.map((b) => b.id))
  })

  it('refuses bad ids and bad queries with INVALID_PARAMETER (unknown series: NOT_EXIST), changing nothing', async () => {
    const before = await snapshot()
    const bad = [
      'limit=0',
      'limit=201',
      'limit=-1',
      'limit=1.5',
      'limit=x',
      'limit=',
      'limit=01',
      'limit=1e2',
      'limit=10&limit=20',
      'cursor=0',
      'cursor=-3',
      'cursor=abc',
      'cursor=',
      'cursor=1&cursor=2',
      'cursor=9999999999999999',
      'cursor=%20',
    ]
    for (const path of LISTS) {
      for (const query of bad) await expectError(await call(OPS, 'GET', `${path}?${query}`), 400, 'INVALID_PARAMETER')
    }
    for (const query of ['q=', 'q=%20%20', `q=${'x'.repeat(101)}`, 'q=a&q=b']) {
      await expectError(await call(OPS, 'GET', `/api/ops/series?${query}`), 400, 'INVALID_PARAMETER')
    }
    expect((await get(`/api/ops/series?q=${'x'.repeat(100)}`)).items).toEqual([])
    for (const id of ['0', '-1', 'abc', '1.5', '1e3', '9999999999999999', '%20']) {
      await expectError(await call(OPS, 'GET', `/api/ops/series/${id}/episodes`), 400, 'INVALID_PARAMETER')
    }
    await expectError(await call(OPS, 'GET', '/api/ops/series/999999999999999/episodes'), 404, 'NOT_EXIST')
    // another method on a list is no route
    await expectError(await call(OPS, 'DELETE', '/api/ops/series'), 404, 'NOT_EXIST')
    expect(await snapshot()).toEqual(before)
  })

  it('1,000 generated queries per list: no 5xx, only SUCCESS or catalogue codes, nothing changed', { timeout: 300_000 }, async () => {
    const before = await snapshot()
    const value = fc.oneof(
      fc.string(),
      fc.integer().map(String),
      fc.bigInt().map(String),
      fc.double().map(String),
      fc.constantFrom('', '0', '1', '200', '201', '%', '_', '\\', "'", '%00', 'NULL', '1;DROP TABLE series'),
    )
    const pairs = fc.array(fc.tuple(fc.constantFrom('limit', 'cursor', 'q', 'id', 'x', 'limit[]'), value), { maxLength: 5 })
    const queries = fc.oneof(
      pairs.map((p) => new URLSearchParams(p).toString()),
      // raw text, percent signs and all, as a client might send it
      fc.string().map((t) => t.replace(/[#\s]/g, '')),
    )
    const ids = fc.oneof(fc.constant('1'), fc.integer().map(String), fc.string({ minLength: 1 }).map(encodeURIComponent))
    for (const path of LISTS) {
      await fc.assert(
        fc.asyncProperty(queries, ids, async (query, id) => {
          const url = `${path.replace('/1/', `/${id}/`)}?${query}`
          await expectApiAnswer(await request(app, url, { headers: OPS.headers }), url)
        }),
        { numRuns: 1000 },
      )
    }
    expect(await snapshot()).toEqual(before)
  })
})
