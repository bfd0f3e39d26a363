/**
 * `npm run capacity` (and a section of `npm run bench`): what one reader costs the edition's D1 database, measured
 * on the running demo worker, then projected per active reader per month and for an edition at 100 k, 1 M and
 * 10 M readers under the assumptions of docs/SCALE.md (the `READER_MONTH` profile below). Reported, never asserted.
 *
 * Measured per request type, from the worker's `X-D1-Queries` (round trips), `X-Reader-Calls` (calls to readers'
 * objects, issue 38) and `X-D1-Usage` headers (statements,
 * rows read and written, from D1's result meta; src/lib/server/db.ts): catalogue and series pages (rendered and
 * from the edge cache), sign-in, token refresh, balance, a rental, and an episode opened and read to the end in
 * Chromium (page, episode API, every slice, the next episode's prefetch, progress saves; service worker blocked so
 * every request is seen). The queue consumers' D1 work (the events a request's reader object sent) is added to the
 * request that caused it, from the usage line the worker logs per batch (functions/worker.ts `queue`). New rows per
 * table come from row counts before and after each type; bytes per row of each table from SQLite's `dbstat` on a
 * copy of the local database (pages of the table and its indexes, minus free space, over its rows). Last, a heavy
 * reader's object after 3 years (heavy-reader.ts).
 */
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findChromium } from '../chromium.ts'
import { PROGRESS_INTERVAL_MS } from '../../src/features/viewer/reading.ts'
import { RETENTION_RULES } from '../../src/features/retention/retention.ts'
import { DAY_MS, HOUR_MS } from '../../src/lib/time.ts'
import { TALLY_FLUSH_MS } from '../../src/features/catalogue/tally.ts'
import { LOCAL_OPS_TOKEN, root } from '../lib.ts'
import { d1 } from './bench-data.ts'
import { grantCoins, objectRows } from './objects.ts'
import { benchHeavyReader, heavyReaderLines, type HeavyReader } from './heavy-reader.ts'

/** One request type's cost to D1. */
/** A request's store work: D1 round trips, statements and rows (X-D1-Queries, X-D1-Usage) and calls to readers' objects (X-Reader-Calls). */
type Cost = { requests: number; trips: number; statements: number; rowsRead: number; rowsWritten: number; objectCalls: number }
/** `queue`: the part of the cost the queue consumers spent after the requests (the events they sent), included in the rest. */
type Measured = Cost & { newRows: Record<string, number>; queue: Cost }

/** One batch of a queue consumer, as functions/worker.ts logs it (`queue.usage`). */
export type QueueUsage = { queue: string; messages: number; tallyCalls?: number; statements: number; rowsRead: number; rowsWritten: number }

/** The `queue.usage` entry a line of the worker's output holds, if any. */
export function queueUsageOf(line: string): QueueUsage[] {
  const at = line.indexOf('{"event":"queue.usage"')
  if (at < 0) return []
  try {
    return [JSON.parse(line.slice(at)) as QueueUsage]
  } catch {
    return []
  }
}

/**
 * Tables whose rows grow with the catalogue and the days, not with readers: `series_daily` holds one row per series and
 * UTC day, and the ranking's refresh drops those past its 30 days (ranking.server.ts); `local_metrics` one row per UTC
 * day, figure and key, in a local run only (a deployed edition writes its figures to Analytics Engine). Their rows are
 * left out of the bytes per reader (the demo's one reader makes each of them look like a reader's).
 */
const NOT_PER_READER = new Set(['series_daily', 'local_metrics'])

/**
 * An active reader's month (docs/SCALE.md "Assumptions"): how often each measured type happens. Progress saves
 * follow the viewer's own policy (a save per PROGRESS_INTERVAL_MS of reading while the place moves, and one at the end).
 */
const READER_MONTH = {
  visits: 20,
  signIns: 1,
  tokenRefreshes: 40,
  cataloguePages: 60,
  seriesPages: 20,
  /** Share of catalogue and series page views answered by the edge cache (cached per audience class). */
  edgeCacheHitRatio: 0.9,
  episodes: 40,
  readingSecondsPerEpisode: 90,
  rentals: 10,
  balanceChecks: 20,
}
/**
 * The series' tallies' writes (src/features/catalogue/tally.server.ts), which follow the catalogue, not the readers: at
 * the peak every one of an edition's `series` (WEBTOON's French catalogue is about 1,500; twice that) adds its sums once
 * per TALLY_FLUSH_MS, a batch that writes a row per episode viewed in that time (`episodes`), the day's counter row and
 * the series' row twice (its views, its flush number).
 */
const TALLY_PEAK = { series: 3000, episodes: 10 }
const tallyRowsPerSecond = Math.round((TALLY_PEAK.series * (TALLY_PEAK.episodes + 3)) / (TALLY_FLUSH_MS / 1000))

/** Peak hour against the month's average second (10 % of a day's requests in its busiest hour: 2.4). */
const PEAK_FACTOR = 2.4
/** Statements per second one D1 database sustains for this mix (docs/SCALE.md: ~1 ms per statement). */
const DB_STATEMENTS_PER_SECOND = 1000
const EDITION_SIZES = [100_000, 1_000_000, 10_000_000]

/**
 * Cloudflare's published prices (Workers Paid plan, USD, 2026-11): what a month costs beyond what the plan includes.
 * Not counted: Worker CPU time (not measured locally), R2 and the edge cache (slices and covers), Queues (reader
 * events: about 1 message per series read per day), SQLite rows inside readers' objects.
 */
const PRICES = {
  plan: 5,
  workerRequests: { included: 10e6, perMillion: 0.3 },
  d1RowsRead: { included: 25e9, perMillion: 0.001 },
  d1RowsWritten: { included: 50e6, perMillion: 1 },
  d1StorageGB: { included: 5, perGB: 0.75 },
  objectRequests: { included: 1e6, perMillion: 0.15 },
  /** A call keeps its object active ≈ 10 ms (measured locally: 1–12 ms) at 128 MB. */
  objectGBs: { included: 400_000, perMillion: 12.5, perCall: 0.01 * 0.128 },
  objectStorageGB: { included: 5, perGB: 0.2, perReaderGB: 20e3 / 1e9 },
}

/** The month's bill for `readers` active readers whose D1 holds `d1GB`. */
function monthlyCost(
  readers: number,
  m: { requests: number; rowsRead: number; rowsWritten: number; objectCalls: number },
  d1GB: number,
): number {
  const over = (used: number, p: { included: number; perMillion: number }) => (Math.max(0, used - p.included) / 1e6) * p.perMillion
  const calls = readers * m.objectCalls
  const usd =
    PRICES.plan +
    over(readers * m.requests, PRICES.workerRequests) +
    over(readers * m.rowsRead, PRICES.d1RowsRead) +
    over(readers * m.rowsWritten, PRICES.d1RowsWritten) +
    Math.max(0, d1GB - PRICES.d1StorageGB.included) * PRICES.d1StorageGB.perGB +
    over(calls, PRICES.objectRequests) +
    over(calls * PRICES.objectGBs.perCall, PRICES.objectGBs) +
    Math.max(0, readers * PRICES.objectStorageGB.perReaderGB - PRICES.objectStorageGB.included) * PRICES.objectStorageGB.perGB
  return Math.round(usd)
}
const MONTH_MS = 30 * DAY_MS

export type CapacityBench = {
  perType: Record<string, Measured>
  episodeOpen?: BrowserCosts
  /** A signed-in page view in Chromium by request kind, by path (the page itself from the edge cache). */
  afterPaint: Record<string, Record<string, Cost>>
  bytesPerRow: Record<string, number>
  /**
   * `newRowsBytes`: rows kept for good (tables without a retention rule); `boundedBytes`: the month's inflow of
   * bookkeeping that a rule of docs/SCALE.md "Retention" deletes later (it does not accumulate).
   */
  perReaderMonth: {
    statements: number
    /** Of the statements and rows written, those of the queue consumers (events the requests sent to D1). */
    queueStatements: number
    queueRowsWritten: number
    /** Worker requests, D1 rows read and written, reader-object calls in the month. */
    requests: number
    rowsRead: number
    rowsWritten: number
    objectCalls: number
    newRowsBytes: number
    boundedBytes: number
    /** What the retained tables hold for one reader at any time: each table's monthly inflow × its rows' life in months. */
    standingBytes: number
    standingByTable: Record<string, number>
    /** The account's own row (`users`), one per reader. */
    accountBytes: number
    byType: Record<string, number>
    byTable: Record<string, number>
  }
  editions: {
    readers: number
    peakStatementsPerSecond: number
    peakRequestsPerSecond: number
    /**
     * What the primary alone must take once reads go to replicas (docs/ARCHITECTURE.md "Read replicas"): the readers'
     * share and the series' tallies' (TALLY_PEAK).
     */
    peakRowsWrittenPerSecond: number
    databases: number
    storageGBPerYear: number
    standingGB: number
    /** D1's size after 1 and 3 years (rows kept for good, the standing stock and the accounts). */
    d1GB: [number, number]
    /** The month's bill after 1 and 3 years, from Cloudflare's published prices (PRICES). */
    monthlyUSD: [number, number]
  }[]
  /** A heavy reader's object after 3 years (heavy-reader.ts). */
  heavyReader?: HeavyReader
  error?: string
}

const ZERO: Cost = { requests: 0, trips: 0, statements: 0, rowsRead: 0, rowsWritten: 0, objectCalls: 0 }

function costOf(res: { headers: { get(n: string): string | null } | Record<string, string> }): Cost {
  const get = (n: string) =>
    typeof (res.headers as { get?: unknown }).get === 'function'
      ? (res.headers as { get(n: string): string | null }).get(n)
      : ((res.headers as Record<string, string>)[n] ?? null)
  const usage = /(\d+) statements; (\d+) read; (\d+) written/.exec(get('x-d1-usage') ?? '')
  return {
    requests: 1,
    trips: Number(get('x-d1-queries') ?? 0),
    statements: Number(usage?.[1] ?? 0),
    rowsRead: Number(usage?.[2] ?? 0),
    rowsWritten: Number(usage?.[3] ?? 0),
    objectCalls: Number(get('x-reader-calls') ?? 0),
  }
}

const add = (a: Cost, b: Cost): Cost => ({
  requests: a.requests + b.requests,
  trips: a.trips + b.trips,
  statements: a.statements + b.statements,
  rowsRead: a.rowsRead + b.rowsRead,
  rowsWritten: a.rowsWritten + b.rowsWritten,
  objectCalls: a.objectCalls + b.objectCalls,
})

/** Row counts of every table of the local database (one `wrangler d1 execute`). */
function rowCounts(persist: string, edition: string): Record<string, number> {
  const tables = d1(
    `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'`,
    persist,
    edition,
  ).map((r) => String(r.name))
  const [row] = d1(`SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t}") AS "${t}"`).join(', ')}`, persist, edition)
  return Object.fromEntries(tables.map((t) => [t, Number(row?.[t] ?? 0)]))
}

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).flatMap(([t, n]) => (n - (before[t] ?? 0) > 0 ? [[t, n - (before[t] ?? 0)]] : [])))

/** Bytes per row of each table (with its indexes), by `dbstat` on a copy of the local D1 file. */
async function bytesPerRow(persist: string): Promise<Record<string, number>> {
  const dir = join(persist, 'v3/d1/miniflare-D1DatabaseObject')
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
  if (!file) throw new Error(`no D1 database in ${dir}`)
  const tmp = mkdtempSync(join(tmpdir(), 'capacity-'))
  try {
    for (const suffix of ['', '-wal', '-shm'])
      try {
        copyFileSync(join(dir, file + suffix), join(tmp, 'db.sqlite' + suffix))
      } catch {
        /* no WAL file */
      }
    const { DatabaseSync } = await import('node:sqlite')
    const db = new DatabaseSync(join(tmp, 'db.sqlite'))
    const rows = db
      .prepare(
        `SELECT s.tbl_name AS tbl, SUM(d.pgsize - d.unused) AS bytes
           FROM dbstat d JOIN sqlite_schema s ON s.name = d.name
          WHERE s.tbl_name NOT LIKE 'sqlite_%' AND s.tbl_name NOT LIKE '_cf_%' GROUP BY s.tbl_name`,
      )
      .all() as { tbl: string; bytes: number }[]
    const out: Record<string, number> = {}
    for (const r of rows) {
      const count = Number((db.prepare(`SELECT count(*) AS n FROM "${r.tbl}"`).get() as { n: number }).n)
      if (count > 0) out[r.tbl] = Math.round(r.bytes / count)
    }
    db.close()
    return out
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * fetch, tried once more when the socket it reused was closed meanwhile (workerd closes idle keep-alive sockets
 * while a `wrangler d1 execute` row count runs between requests).
 */
const request = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init))

type Session = { cookie: string; accessToken: string; refreshToken: string }

async function webSignIn(base: string): Promise<{ cost: Cost; cookie: string }> {
  const res = await request(`${base}/api/v1/auth/web/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email: 'reader@example.com', password: 'Reader-2026!', callback: '/' }),
  })
  const cookie = /wt_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? ''
  if (!cookie) throw new Error(`web sign-in failed (${res.status})`)
  return { cost: costOf(res), cookie }
}

async function apiSignIn(base: string): Promise<Pick<Session, 'accessToken' | 'refreshToken'>> {
  const res = await request(`${base}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'reader@example.com', password: 'Reader-2026!' }),
  })
  const data = ((await res.json()) as { data?: { accessToken?: { value?: string }; refreshToken?: { value?: string } } }).data
  if (!data?.accessToken?.value || !data.refreshToken?.value) throw new Error(`API sign-in failed (${res.status})`)
  return { accessToken: data.accessToken.value, refreshToken: data.refreshToken.value }
}

type BrowserCosts = { byKind: Record<string, Cost>; slices: number; progressSaves: number }

/** Runs `visit` in Chromium as the signed-in reader (390 px phone, service worker blocked so every request is seen); every request's store work counted by kind. */
async function inChromium(
  base: string,
  cookie: string,
  visit: (page: import('playwright-core').Page, restart: () => Promise<void>) => Promise<void>,
): Promise<BrowserCosts> {
  const chromium = (await findChromium()).path
  if (!chromium) throw new Error('no Chromium for the browser journey')
  const { chromium: pw } = await import('playwright-core')
  const browser = await pw.launch({ executablePath: chromium, args: ['--no-sandbox', '--disable-gpu'] })
  const out: BrowserCosts = { byKind: {}, slices: 0, progressSaves: 0 }
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    })
    const [name, value] = cookie.split('=') as [string, string]
    await context.addCookies([{ name, value, url: base }])
    const page = await context.newPage()
    const pending: Promise<void>[] = []
    page.on('response', (res) => {
      pending.push(
        res.allHeaders().then((headers) => {
          const p = new URL(res.url()).pathname
          const kind = p.includes('/slice/')
            ? 'slice'
            : p.endsWith('/progress')
              ? 'progress'
              : res.request().resourceType() === 'document'
                ? 'page'
                : /^\/api\/v1\/viewer\/\d+$/.test(p)
                  ? 'episode API'
                  : p.startsWith('/api/')
                    ? `API ${p.replace(/\d+/g, '{n}')}`
                    : 'media and other'
          if (kind === 'slice') out.slices++
          if (kind === 'progress') out.progressSaves++
          // built scripts, styles, fonts and icons are static assets: served without a Worker invocation (not billed)
          const isStatic = p.startsWith('/_astro/') || (/\.[a-z0-9]+$/i.test(p) && !p.startsWith('/media/') && !p.startsWith('/api/'))
          const cost = costOf({ headers })
          out.byKind[kind] = add(out.byKind[kind] ?? ZERO, isStatic ? { ...cost, requests: 0 } : cost)
        }),
      )
    })
    /** Forgets what was counted so far (a warm-up visit). */
    const restart = async () => {
      await Promise.all(pending)
      Object.assign(out, { byKind: {}, slices: 0, progressSaves: 0 })
    }
    await visit(page, restart)
    await Promise.all(pending)
  } finally {
    await browser.close()
  }
  return out
}

/** Opens `path` as the signed-in reader, reads to the end at 400 px/s, pauses there and leaves. */
function episodeOpen(base: string, path: string, cookie: string): Promise<BrowserCosts> {
  return inChromium(base, cookie, async (page) => {
    await page.goto(base + path, { waitUntil: 'load' })
    await page.waitForTimeout(1500)
    await page.evaluate(async () => {
      while (innerHeight + scrollY < document.documentElement.scrollHeight - 2) {
        scrollBy(0, 40)
        await new Promise((r) => setTimeout(r, 100))
        if ((document.querySelector('section.viewer-episode')?.getBoundingClientRect().top ?? Infinity) < innerHeight) break
      }
    })
    await page.waitForTimeout(2000)
    await page.goto('about:blank')
    await page.waitForTimeout(1000)
  })
}

/**
 * A page viewed as a reader's browser does (issue 38): the page, then what its scripts ask after paint (session,
 * alarm count, balance, continue reading, the series' personal part). Viewed once to warm the edge cache; the
 * second view is counted.
 */
async function pageView(base: string, path: string, cookie: string): Promise<{ afterPaint: Cost; byKind: Record<string, Cost> }> {
  const costs = await inChromium(base, cookie, async (page, restart) => {
    for (const view of ['warm-up', 'counted']) {
      if (view === 'counted') await restart()
      await page.goto(base + path, { waitUntil: 'load' })
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(500)
    }
  })
  const afterPaint = Object.entries(costs.byKind)
    .filter(([kind]) => kind !== 'page')
    .reduce((a, [, c]) => add(a, c), ZERO)
  return { afterPaint, byKind: costs.byKind }
}

/** Measures the worker at `base` (serving `persist`), prints the figures and the projection. */
/**
 * `queueLog`: the consumers' batches as the worker logs them (bench.ts fills it from the worker's output); each step
 * waits for the queues to go quiet and takes what they did after it.
 */
export async function benchCapacity(opts: {
  base: string
  persist: string
  edition: string
  queueLog: QueueUsage[]
}): Promise<CapacityBench> {
  const { base, persist, edition, queueLog } = opts
  const perType: Record<string, Measured> = {}
  const out: CapacityBench = {
    perType,
    afterPaint: {},
    bytesPerRow: {},
    perReaderMonth: {
      statements: 0,
      queueStatements: 0,
      queueRowsWritten: 0,
      requests: 0,
      rowsRead: 0,
      rowsWritten: 0,
      objectCalls: 0,
      newRowsBytes: 0,
      boundedBytes: 0,
      standingBytes: 0,
      standingByTable: {},
      accountBytes: 0,
      byType: {},
      byTable: {},
    },
    editions: [],
  }
  try {
    /**
     * What the queues' consumers did since the last call: waits until no batch came for 2.5 s (a consumer waits up to 1 s
     * to fill a batch), at most 20 s. A message is one D1 batch; a reader event's is acknowledged with one object call,
     * and each series' tally the batch counted in is one more.
     */
    const queued = async (): Promise<Cost> => {
      for (let seen = -1, waited = 0; seen !== queueLog.length && waited < 20_000; waited += 2500) {
        seen = queueLog.length
        await new Promise((r) => setTimeout(r, 2500))
      }
      return queueLog.splice(0).reduce(
        (a, u) =>
          add(a, {
            ...ZERO,
            trips: u.messages,
            statements: u.statements,
            rowsRead: u.rowsRead,
            rowsWritten: u.rowsWritten,
            objectCalls: u.queue.includes('reader-events') ? u.messages + (u.tallyCalls ?? 0) : 0,
          }),
        ZERO,
      )
    }
    await queued()
    let counts = rowCounts(persist, edition)
    /** Runs `step` (which returns the costs of its requests) and records it with its queue work and the rows they added. */
    const measure = async (name: string, step: () => Promise<Cost[]>) => {
      const costs = await step()
      const queue = await queued()
      const after = rowCounts(persist, edition)
      perType[name] = { ...add(costs.reduce(add, ZERO), queue), newRows: diff(after, counts), queue }
      counts = after
    }
    const tag = `capacity-${Date.now()}`
    // coins for the rental and a paid episode the reader does not hold yet (their rights are in their object)
    await grantCoins(opts.base, LOCAL_OPS_TOKEN, 'reader@example.com', 1000, tag)
    // the demo catalogue's episodes offered for rent, then the first they do not hold of a series they have not read
    // (the benches' own series and the demo reader's purchases there grow with every run: they stay out of the command line)
    const candidates = d1(
      `SELECT e.id, s.id AS seriesId, (SELECT id FROM users WHERE email = 'reader@example.com') AS readerId FROM episodes e JOIN series s ON s.id = e.series_id
        WHERE e.is_free = 0 AND e.price_rent IS NOT NULL AND s.is_published = 1 AND e.published_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
          AND s.title NOT GLOB 'bench-*' AND s.title NOT GLOB 'heavy-*'
        ORDER BY e.id LIMIT 5000`,
      persist,
      edition,
    )
    const held = new Set(
      objectRows<{ episodeId: number }>(opts.persist, `SELECT episode_id AS episodeId FROM ownerships WHERE user_id = ?`, [
        Number(candidates[0]?.readerId),
      ]).map((r) => r.episodeId),
    )
    const started = new Set(
      objectRows<{ seriesId: number }>(
        opts.persist,
        `SELECT series_id AS seriesId FROM progress WHERE (SELECT value FROM facts WHERE key = 'reader') = ?`,
        [String(candidates[0]?.readerId)],
      ).map((r) => r.seriesId),
    )
    const paid = candidates.find((c) => !held.has(Number(c.id)) && !started.has(Number(c.seriesId)))
    if (!paid) throw new Error('no paid episode left to rent in the demo')
    const paidId = Number(paid.id)
    counts = rowCounts(persist, edition)

    let session: Session = { cookie: '', accessToken: '', refreshToken: '' }
    await measure('sign-in (web)', async () => {
      const r = await webSignIn(base)
      session.cookie = r.cookie
      return [r.cost]
    })
    session = { ...session, ...(await apiSignIn(base)) }
    counts = rowCounts(persist, edition)
    const page = (path: string, headers: Record<string, string> = {}) =>
      request(base + path, { headers: { Accept: 'text/html', Cookie: session.cookie, ...headers } }).then(async (r) => {
        await r.arrayBuffer()
        return costOf(r)
      })
    await measure('catalogue page, rendered', async () => [await page('/', { 'Cache-Control': 'no-cache' })])
    await measure('catalogue page, edge cache', async () => [await page('/'), await page('/')].slice(1))
    await measure('series page, rendered', async () => [await page('/detail/1', { 'Cache-Control': 'no-cache' })])
    // what a browser asks after paint, on every view whether the page came from the edge cache or not
    for (const [name, path] of [
      ['catalogue page, after-paint calls (browser)', '/'],
      ['series page, after-paint calls (browser)', '/detail/1'],
    ] as const)
      await measure(name, async () => {
        const view = await pageView(base, path, session.cookie)
        out.afterPaint[path] = view.byKind
        return [view.afterPaint]
      })
    await measure('token refresh', async () => {
      const res = await request(`${base}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ accessToken: session.accessToken, refreshToken: session.refreshToken }),
      })
      await res.arrayBuffer()
      return [costOf(res)]
    })
    session = { ...session, ...(await apiSignIn(base)) }
    counts = rowCounts(persist, edition)
    const api = (path: string, init: RequestInit = {}) =>
      request(base + path, {
        ...init,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.accessToken}`, ...init.headers },
      }).then(async (r) => {
        const body = await r.text()
        if (!r.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${r.status} ${body.slice(0, 200)}`)
        return costOf(r)
      })
    await measure('balance (GET /coin)', async () => [await api('/api/v1/coin')])
    await measure('rental (POST /purchase)', async () => [
      await api('/api/v1/purchase', {
        method: 'POST',
        headers: { 'idempotency-key': tag },
        body: JSON.stringify({ episodeIds: [paidId], kind: 'RENT' }),
      }),
    ])
    const before = counts
    const read = await episodeOpen(base, `/viewer/${paidId}`, session.cookie)
    const queue = await queued()
    counts = rowCounts(persist, edition)
    out.episodeOpen = read
    const openCost = Object.values(read.byKind).reduce(add, ZERO)
    perType['episode open and read (browser)'] = { ...add(openCost, queue), newRows: diff(counts, before), queue }
    out.bytesPerRow = await bytesPerRow(persist)
  } catch (e) {
    out.error = (e as Error).message
  }
  out.heavyReader = await benchHeavyReader(opts)
  // a row's life before the instant its rule counts from (the others count from their creation, or expire within hours)
  const { rentalHours } = JSON.parse(readFileSync(join(root, 'editions', edition, 'edition.json'), 'utf8')) as { rentalHours: number }
  project(out, { ownerships: rentalHours * HOUR_MS })
  printCapacity(out)
  return out
}

/** Per active reader per month and per edition size, from the measured costs and READER_MONTH. */
function project(out: CapacityBench, lifeBeforeSince: Partial<Record<string, number>>) {
  const m = READER_MONTH
  const t = out.perType
  const read = out.episodeOpen
  const savesPerEpisode = Math.floor((m.readingSecondsPerEpisode * 1000 - 1) / PROGRESS_INTERVAL_MS) + 1
  /** One measure of the month, by kind of request (`f`: statements, rows read, object calls…; `queue`: the consumers' part only). */
  const month = (f: keyof Cost, queue = false): Record<string, number> => {
    const of = (name: string) => (queue ? t[name]?.queue[f] : t[name]?.[f]) ?? 0
    const pages = (name: string, afterPaint: string, views: number) =>
      views * (m.edgeCacheHitRatio * of('catalogue page, edge cache') + (1 - m.edgeCacheHitRatio) * of(name) + of(afterPaint))
    const saves = read?.byKind.progress
    const perSaveOf = saves && saves.requests > 0 ? saves[f] / saves.requests : 0
    return {
      'sign-in': m.signIns * of('sign-in (web)'),
      'token refresh': m.tokenRefreshes * of('token refresh'),
      'catalogue pages (with after-paint calls)': pages(
        'catalogue page, rendered',
        'catalogue page, after-paint calls (browser)',
        m.cataloguePages,
      ),
      'series pages (with after-paint calls)': pages('series page, rendered', 'series page, after-paint calls (browser)', m.seriesPages),
      'episode open (page, API, slices, prefetch)': m.episodes * (of('episode open and read (browser)') - (queue ? 0 : (saves?.[f] ?? 0))),
      'progress saves': queue ? 0 : m.episodes * savesPerEpisode * perSaveOf,
      rentals: m.rentals * of('rental (POST /purchase)'),
      balance: m.balanceChecks * of('balance (GET /coin)'),
    }
  }
  const byType = month('statements')
  const total = (f: keyof Cost, queue = false) => Object.values(month(f, queue)).reduce((a, b) => a + b, 0)
  const times: Record<string, number> = {
    'sign-in (web)': m.signIns,
    'token refresh': m.tokenRefreshes,
    'rental (POST /purchase)': m.rentals,
    'balance (GET /coin)': m.balanceChecks,
    'episode open and read (browser)': m.episodes,
    'catalogue page, after-paint calls (browser)': m.cataloguePages,
    'series page, after-paint calls (browser)': m.seriesPages,
  }
  const byTable: Record<string, number> = {}
  for (const [name, n] of Object.entries(times))
    for (const [table, rows] of Object.entries(t[name]?.newRows ?? {})) {
      if (NOT_PER_READER.has(table)) continue
      const count = n
      byTable[table] = (byTable[table] ?? 0) + count * rows * (out.bytesPerRow[table] ?? 0)
    }
  const bounded = new Set<string>(RETENTION_RULES.map((r) => r.table))
  const sum = (entries: [string, number][]) => Math.round(entries.reduce((a, [, b]) => a + b, 0))
  const statements = Object.values(byType).reduce((a, b) => a + b, 0)
  const newRowsBytes = sum(Object.entries(byTable).filter(([table]) => !bounded.has(table)))
  const boundedBytes = sum(Object.entries(byTable).filter(([table]) => bounded.has(table)))
  // a retained table holds, at any time, the inflow of as many months as its rows live (issue 38: a standing stock, not zero)
  const standingByTable = Object.fromEntries(
    RETENTION_RULES.filter((r) => byTable[r.table]).map((r) => [
      r.table,
      Math.round((byTable[r.table]! * (r.keepMs + (lifeBeforeSince[r.table] ?? 0))) / MONTH_MS),
    ]),
  )
  const standingBytes = sum(Object.entries(standingByTable))
  // the account index: one `users` row per reader (e-mail, nickname, flags; taken as one account per monthly reader)
  const accountBytes = out.bytesPerRow.users ?? 0
  const usage = {
    requests: total('requests'),
    rowsRead: total('rowsRead'),
    rowsWritten: total('rowsWritten'),
    objectCalls: total('objectCalls'),
  }
  out.perReaderMonth = {
    statements: Math.round(statements),
    queueStatements: Math.round(total('statements', true)),
    queueRowsWritten: Math.round(total('rowsWritten', true)),
    ...usage,
    newRowsBytes,
    boundedBytes,
    standingBytes,
    standingByTable,
    accountBytes,
    byType,
    byTable,
  }
  const gb = (bytes: number) => Math.round((bytes / 1e9) * 10) / 10
  out.editions = EDITION_SIZES.map((readers) => {
    const peak = ((readers * statements) / (30 * 86_400)) * PEAK_FACTOR
    const d1GB = (years: number) => gb(readers * (newRowsBytes * 12 * years + standingBytes + accountBytes))
    return {
      readers,
      peakStatementsPerSecond: Math.round(peak),
      peakRequestsPerSecond: Math.round(((readers * usage.requests) / (30 * 86_400)) * PEAK_FACTOR),
      peakRowsWrittenPerSecond: Math.round(((readers * usage.rowsWritten) / (30 * 86_400)) * PEAK_FACTOR) + tallyRowsPerSecond,
      databases: Math.max(1, Math.ceil(peak / DB_STATEMENTS_PER_SECOND)),
      storageGBPerYear: gb(readers * newRowsBytes * 12),
      standingGB: gb(readers * standingBytes),
      d1GB: [d1GB(1), d1GB(3)],
      monthlyUSD: [monthlyCost(readers, usage, d1GB(1)), monthlyCost(readers, usage, d1GB(3))],
    }
  })
}

function printCapacity(out: CapacityBench) {
  const bounded = new Set<string>(RETENTION_RULES.map((r) => r.table))
  console.log('\nCapacity — D1 cost per request type (demo worker, signed-in adult reader)')
  for (const [name, c] of Object.entries(out.perType)) {
    const rows = Object.entries(c.newRows)
      .map(([t, n]) => `${t} +${n}`)
      .join(', ')
    console.log(
      `  ${name.padEnd(34)} ${String(c.requests).padStart(3)} req · ${String(c.trips).padStart(3)} round trips · ${String(c.statements).padStart(3)} statements · ${String(c.rowsRead).padStart(6)} rows read · ${String(c.rowsWritten).padStart(4)} written · ${c.objectCalls} reader-object calls${rows ? ` · new rows: ${rows}` : ''}`,
    )
  }
  if (out.episodeOpen) {
    console.log(`  episode open by request kind (${out.episodeOpen.slices} slices, ${out.episodeOpen.progressSaves} progress saves):`)
    for (const [kind, c] of Object.entries(out.episodeOpen.byKind))
      console.log(
        `    ${kind.padEnd(32)} ${c.requests} req · ${c.trips} round trips · ${c.statements} statements · ${c.objectCalls} reader-object calls`,
      )
  }
  for (const [path, byKind] of Object.entries(out.afterPaint)) {
    console.log(`  ${path} viewed in a browser, by request kind:`)
    for (const [kind, c] of Object.entries(byKind).filter(([, c]) => c.statements > 0 || c.objectCalls > 0))
      console.log(
        `    ${kind.padEnd(32)} ${c.requests} req · ${c.trips} round trips · ${c.statements} statements · ${c.objectCalls} reader-object calls`,
      )
  }
  const r = out.perReaderMonth
  console.log(
    `\nPer active reader per month (docs/SCALE.md profile): ${Math.round(r.requests)} requests, ${r.statements} statements (target ≤ 2,000; ${Math.round(r.rowsRead)} rows read, ${Math.round(r.rowsWritten)} written; of those the queue consumers' ${r.queueStatements} statements and ${r.queueRowsWritten} rows written), ${Math.round(r.objectCalls)} reader-object calls, ${(r.newRowsBytes / 1024).toFixed(1)} KB of new rows kept (target ≤ 6 KB), ${(r.boundedBytes / 1024).toFixed(1)} KB of bookkeeping deleted by its retention rule`,
  )
  console.log(
    `Standing stock of the retained tables per active reader: ${(r.standingBytes / 1024).toFixed(1)} KB (${Object.entries(r.standingByTable)
      .sort((a, b) => b[1] - a[1])
      .map(([table, bytes]) => `${table} ${(bytes / 1024).toFixed(1)}`)
      .join(', ')}); the account's row ${r.accountBytes} B`,
  )
  for (const [name, n] of Object.entries(r.byType)) console.log(`  ${name.padEnd(44)} ${Math.round(n)} statements`)
  for (const [table, bytes] of Object.entries(r.byTable).sort((a, b) => b[1] - a[1]))
    console.log(
      `  ${table.padEnd(44)} ${(bytes / 1024).toFixed(2)} KB (${out.bytesPerRow[table] ?? '?'} B/row)${bounded.has(table) ? ', retention rule' : ''}`,
    )
  console.log('\nPer edition')
  for (const e of out.editions)
    console.log(
      `  ${String(e.readers).padStart(10)} readers: peak ${e.peakStatementsPerSecond} statements/s (${e.databases} × ${DB_STATEMENTS_PER_SECOND}/s database; ${e.peakRowsWrittenPerSecond} rows written/s on the primary), ${e.peakRequestsPerSecond} requests/s, ${e.storageGBPerYear} GB of new rows per year + ${e.standingGB} GB standing in retained tables; D1 ${e.d1GB[0]} GB after 1 year, ${e.d1GB[1]} GB after 3; about $${e.monthlyUSD[0]} a month after 1 year, $${e.monthlyUSD[1]} after 3`,
    )
  if (out.heavyReader) console.log(['', ...heavyReaderLines(out.heavyReader)].join('\n'))
  if (out.error) console.log(`  capacity: ${out.error}`)
}
