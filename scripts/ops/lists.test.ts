/**
 * `npm run ops -- series list`, `episode list`, `notice list`, `event list`, `banner list` (issue 39 point 2: the ids
 * every edit needs) through the command line, against a tiny HTTP server standing in for the operator API: the request
 * each sends (a GET with its query and the bearer token, to a local or a deployed edition alike: nothing changes, so
 * no --yes), the table it prints with times in the edition's time zone and the next page's command, the refusals of a
 * bad command line with nothing sent, the API's refusals, and help. Also: every command of --help has a row in the
 * README's command table (issue 39 point 9). The API itself runs on real D1 in tests/worker/ops-lists.test.ts.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { root } from '../lib.ts'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, outward, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const PARIS = 'Europe/Paris'
const series = [
  {
    id: 45,
    title: 'Le phare',
    isAdult: false,
    isPublished: true,
    state: 'PUBLISHED',
    episodes: 12,
    published: 11,
    nextEpisodeAt: '2026-12-04T09:00:00.000Z',
  },
  {
    id: 44,
    title: 'Nuit rouge',
    isAdult: true,
    isPublished: true,
    state: 'SCHEDULED',
    episodes: 1,
    published: 0,
    nextEpisodeAt: '2026-07-01T22:30:00.000Z',
  },
  { id: 43, title: 'Retiré', isAdult: false, isPublished: false, state: 'UNPUBLISHED', episodes: 3, published: 3, nextEpisodeAt: null },
]
const episodes = [
  {
    id: 240,
    no: 12,
    title: 'La fuite',
    isFree: false,
    priceRent: 3,
    priceBuy: 5,
    publishedAt: '2026-12-04T09:00:00.000Z',
    announcedAt: null,
    earlyAt: '2026-12-02T09:00:00.000Z', // open early (issue 37 point 1)
    earlyRent: 4,
    earlyBuy: 6,
    state: 'SCHEDULED',
  },
  {
    id: 239,
    no: 11,
    title: 'Le retour',
    isFree: false,
    priceRent: null,
    priceBuy: 5,
    publishedAt: '9999-12-31T00:00:00.000Z',
    announcedAt: null,
    state: 'UNPUBLISHED',
  },
  {
    id: 201,
    no: 1,
    title: 'Épisode 1',
    isFree: true,
    priceRent: null,
    priceBuy: null,
    publishedAt: '2026-01-01T00:00:00.000Z',
    announcedAt: '2026-01-01T00:00:00.000Z',
    state: 'PUBLISHED',
  },
]
const notices = [
  {
    id: 7,
    category: 'MAINTENANCE',
    seriesId: null,
    title: 'Maintenance',
    isPinned: true,
    publishedAt: '2026-12-01T01:00:00.000Z',
    state: 'SCHEDULED',
  },
  {
    id: 6,
    category: 'NOTICE',
    seriesId: 45,
    title: 'Pause',
    isPinned: false,
    publishedAt: '9999-12-31T00:00:00.000Z',
    state: 'UNPUBLISHED',
  },
]
const events = [
  {
    id: 9,
    kind: 'PROMOTION',
    title: 'Hiver',
    description: '',
    startsAt: '2026-12-01T00:00:00.000Z',
    endsAt: '2027-01-31T23:59:59.999Z',
    restriction: 'ADULT',
    state: 'NOT_STARTED',
  },
]
const banners = [
  {
    id: 12,
    placement: 'HOME',
    display: 'ONLY_TEXT',
    title: 'Nouvelle saison',
    subtitle: null,
    link: '/detail/45',
    imageKey: null,
    imageWidth: null,
    imageHeight: null,
    background: null,
    startsAt: null,
    endsAt: '2026-11-20T12:00:00.000Z',
    position: 0,
    isAdult: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    state: 'ENDED',
  },
]

/** Replies to each list as the API does, `next` set for the series and episode pages. */
const lists =
  (timeZone = PARIS) =>
  (path: string) =>
    path.startsWith('/api/ops/series/45/episodes')
      ? success({ series: { id: 45, title: 'Le phare' }, items: episodes, next: '1', timeZone })
      : path.startsWith('/api/ops/series')
        ? success({ items: series, next: '43', timeZone })
        : path.startsWith('/api/ops/notices')
          ? success({ items: notices, next: null, timeZone })
          : path.startsWith('/api/ops/events')
            ? success({ items: events, next: null, timeZone })
            : success({ items: banners, next: null, timeZone })

/** The table row of `id` in a command's output, its cells split on runs of two spaces or more. */
const row = (stdout: string, id: number) =>
  stdout
    .split('\n')
    .find((l) => new RegExp(`^\\s+${id}\\s`).test(l))
    ?.trim()
    .split(/\s{2,}/)

describe('npm run ops -- series|episode|notice|event|banner list', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['episode', 'list'], /--series is required/],
        [['episode', 'list', '--series', 'x'], /--series must be a positive whole number \(an id\), not "x"/],
        [['episode', 'list', '--series', '0'], /--series must be a positive whole number/],
        [['episode', 'list', '--series', '45', '--limit', '0'], /--limit must be a whole number from 1 to 200/],
        [['series', 'list', '--limit', '201'], /--limit must be a whole number from 1 to 200/],
        [['notice', 'list', '--limit', 'ten'], /--limit must be a whole number from 1 to 200/],
        [['event', 'list', '--cursor', '0'], /--cursor must be a positive whole number/],
        [['banner', 'list', '--cursor', 'abc'], /--cursor must be a positive whole number/],
        [['series', 'list', '--search', '  '], /--search must be 1 to 100 characters once trimmed/],
        [['series', 'list', '--search', 'x'.repeat(101)], /--search must be 1 to 100 characters once trimmed/],
        [['series', 'list', '45'], /unexpected argument "45"/],
        [['notice', 'list', '--reason', 'r'], /Unknown option '--reason'/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it("sends a GET with its query and prints each row's id, state and times in the edition's time zone", async () => {
    api.reply = lists()
    const [s, e, n, ev, b] = await Promise.all([
      api.ops(['series', 'list', '--search', 'phare', '--limit', '3']),
      api.ops(['episode', 'list', '--series', '45', '--limit', '3', '--cursor', '13']),
      api.ops(['notice', 'list']),
      api.ops(['event', 'list', '--limit', '200']),
      api.ops(['banner', 'list', '--cursor', '13']),
    ])
    for (const r of [s, e, n, ev, b]) {
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).not.toMatch(/plan/)
    }
    expect(api.seen.map((x) => `${x.method} ${x.path} ${x.authorization}`).sort()).toEqual(
      [
        'GET /api/ops/series?limit=3&q=phare',
        'GET /api/ops/series/45/episodes?limit=3&cursor=13',
        'GET /api/ops/notices',
        'GET /api/ops/events?limit=200',
        'GET /api/ops/banners?cursor=13',
      ]
        .map((l) => `${l} Bearer ${LOCAL_OPS_TOKEN}`)
        .sort(),
    )

    expect(s.stdout).toContain(`3 series whose title contains "phare" (http://127.0.0.1:${api.port}), newest first; times in Europe/Paris:`)
    expect(s.stdout).toMatch(/id\s+title\s+state\s+adult\s+episodes\s+out\s+next episode \(Europe\/Paris\)/)
    expect(row(s.stdout, 45)).toEqual(['45', 'Le phare', 'PUBLISHED', '12', '11', '2026-12-04 10:00'])
    expect(row(s.stdout, 44)).toEqual(['44', 'Nuit rouge', 'SCHEDULED', 'adult', '1', '0', '2026-07-02 00:30']) // summer time
    expect(row(s.stdout, 43)).toEqual(['43', 'Retiré', 'UNPUBLISHED', '3', '3'])
    expect(s.stdout.trimEnd().split('\n').at(-1)).toBe('more: npm run ops -- series list --search phare --limit 3 --cursor 43')

    expect(e.stdout).toContain('series 45 "Le phare": 3 episodes')
    expect(e.stdout).toContain('latest first; times in Europe/Paris:')
    expect(e.stdout).toMatch(/id\s+no\s+title\s+state\s+published \(Europe\/Paris\)\s+alarms\s+price\s+early/)
    expect(row(e.stdout, 240)).toEqual([
      '240',
      '12',
      'La fuite',
      'SCHEDULED',
      '2026-12-04 10:00',
      'rent 3 · buy 5',
      'since 2026-12-02 10:00: rent 4 · buy 6',
    ])
    expect(row(e.stdout, 239)).toEqual(['239', '11', 'Le retour', 'UNPUBLISHED', 'buy 5'])
    expect(row(e.stdout, 201)).toEqual(['201', '1', 'Épisode 1', 'PUBLISHED', '2026-01-01 01:00', 'sent', 'free'])
    expect(e.stdout.trimEnd().split('\n').at(-1)).toBe('more: npm run ops -- episode list --series 45 --limit 3 --cursor 1')

    expect(n.stdout).toContain('2 notices')
    expect(row(n.stdout, 7)).toEqual(['7', 'SCHEDULED', '2026-12-01 02:00', 'pinned', 'MAINTENANCE', 'global', 'Maintenance'])
    expect(row(n.stdout, 6)).toEqual(['6', 'UNPUBLISHED', 'NOTICE', 'series 45', 'Pause'])
    expect(n.stdout.trimEnd().split('\n').at(-1)).toBe('(last page)')

    expect(ev.stdout).toContain('1 event (')
    expect(row(ev.stdout, 9)).toEqual(['9', 'NOT_STARTED', 'PROMOTION', '2026-12-01 01:00', '2027-02-01 00:59', 'adults', 'Hiver'])
    expect(row(b.stdout, 12)).toEqual(['12', 'ENDED', 'HOME', '0', 'always', '2026-11-20 13:00', 'Nouvelle saison', '/detail/45'])
  })

  it("prints times in the time zone the API names (another edition's)", async () => {
    api.reply = lists('Asia/Tokyo')
    const r = await api.ops(['episode', 'list', '--series', '45'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('times in Asia/Tokyo')
    expect(row(r.stdout, 240)).toContain('2026-12-04 18:00')
    expect(api.seen.map((s) => s.path)).toEqual(['/api/ops/series/45/episodes'])
  })

  it('reads a deployed edition without --yes (nothing changes) but not without its token', async () => {
    const noToken = await api.ops(['series', 'list'], { OPS_URL: 'https://fr.example.com' })
    expect(noToken.code).toBe(2)
    expect(noToken.stderr.split('\n')[0]).toBe(
      'ops: OPS_TOKEN is required for https://fr.example.com (the local default token is only used on a local OPS_URL)',
    )
    expect(api.seen).toEqual([])
    if (!outward) return // no address but loopback on this machine: the refusal above is the test
    api.reply = lists()
    const url = `http://${outward}:${api.port}`
    const runs = await Promise.all(
      [
        ['series', 'list'],
        ['episode', 'list', '--series', '45'],
        ['notice', 'list'],
        ['event', 'list'],
        ['banner', 'list'],
      ].map((args) => api.ops(args, { OPS_URL: url, OPS_TOKEN: 'deployed' })),
    )
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout).toContain(`(${url})`)
    }
    expect(api.seen.length).toBe(5)
    expect(api.seen.every((s) => s.method === 'GET' && s.authorization === 'Bearer deployed')).toBe(true)
  })

  it("prints the API's refusals and answers that are not its lists as one line, exit code 1", async () => {
    const error = (status: number, code: string, message: string) => json(status, { result: 'ERROR', code, message, requestId: 'r1' })
    api.reply = () => error(404, 'NOT_EXIST', 'Ce contenu n’existe pas.')
    const unknown = await api.ops(['episode', 'list', '--series', '99'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain(
      'ops: NOT_EXIST (HTTP 404) from GET /api/ops/series/99/episodes: Ce contenu n’existe pas. (no series 99,',
    )
    api.reply = () => error(401, 'NOT_LOGIN_USER', 'Connectez-vous.')
    const token = await api.ops(['notice', 'list'])
    expect(token.code).toBe(1)
    expect(token.stderr.trim()).toBe('ops: NOT_LOGIN_USER (HTTP 401) from GET /api/ops/notices: Connectez-vous. (check OPS_TOKEN)')
    api.reply = () => error(400, 'INVALID_PARAMETER', 'Paramètre invalide.')
    expect((await api.ops(['banner', 'list'])).stderr).toContain('ops: INVALID_PARAMETER (HTTP 400) from GET /api/ops/banners')
    for (const data of [{ items: [] }, { items: [], timeZone: 'Mars/Olympus' }, { items: null, timeZone: PARIS }, null]) {
      api.reply = () => success(data)
      const r = await api.ops(['event', 'list'])
      expect(r.code, JSON.stringify(data)).toBe(1)
      expect(r.stderr.trim()).toBe(`ops: GET http://127.0.0.1:${api.port}/api/ops/events is not an operator API list`)
    }
    api.reply = () => ({ status: 502, body: 'Bad gateway' })
    expect((await api.ops(['series', 'list'])).stderr.trim()).toBe(
      `ops: HTTP 502 from GET http://127.0.0.1:${api.port}/api/ops/series is not an operator API answer`,
    )
  })

  it('prints an empty page as such', async () => {
    api.reply = () => success({ items: [], next: null, timeZone: PARIS })
    const r = await api.ops(['series', 'list', '--search', 'zzz'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('0 series whose title contains "zzz"')
    expect(r.stdout).toContain('  (none)')
    expect(r.stdout).toContain('(last page)')
  })

  it('lists the commands in --help and explains each in help <command>', async () => {
    const names = ['series list', 'episode list', 'notice list', 'event list', 'banner list']
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops(['help', ...n.split(' ')]))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain("Times are in the edition's time zone")
      expect(each[i]!.stdout).toContain('--cursor C')
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
    expect(each[1]!.stdout).toContain('what episode publish|schedule|unpublish take')
  })

  it("every command of --help has a row in the README's command table (issue 39 point 9)", async () => {
    const help = (await api.ops(['--help'])).stdout
    const names = [
      ...help
        .split('Commands:\n')[1]!
        .split('\n\n')[0]!
        .matchAll(/^ {2}(\S+(?: \S+)*?) {2,}/gm),
    ]
      .map((m) => m[1]!)
      .filter((n) => n !== 'help <command>')
    expect(names.length).toBeGreaterThan(30)
    const table = readFileSync(`${root}/README.md`, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| `npm run ops -- '))
      .join('\n')
    // a row names a command in full (`series list`) or among its siblings (`coins grant\|deduct`)
    const missing = names.filter((name) => {
      const words = name.split(' ')
      const last = words.pop()!
      const prefix = words.map((w) => `${w} `).join('')
      return !new RegExp(`\`(?:npm run ops -- )?${prefix}(?:[\\w-]+\\\\\\|)*${last}\\b`).test(table)
    })
    expect(missing).toEqual([])
  })
})
