/**
 * `npm run bench`: builds the edition (EDITION, default fr), serves it with `wrangler dev` on its own D1
 * state (.wrangler/bench), then reports — never asserts — the figures of docs/QUALITY.md:
 *   - Lighthouse mobile (default form factor, simulated throttling), median of N runs by performance score, then LCP;
 *   - autocannon throughput of the edge-rendered detail page against a pre-rendered page on the same worker;
 *   - the password hash's CPU ms (argon2id, scripts/bench/hash.ts), and `GET /` p50/p99 idle and during 200 sign-ins;
 *   - D1 queries per request, read from the worker's `X-D1-Queries` header, and for catalogue pages the second
 *     view's (edge cache hit or not); the "(adult)" pages are measured signed in as the demo adult reader,
 *     Lighthouse included (pages are cached per audience class, issue 11).
 * Prints a table and writes bench/results.json (figures + machine + commit + date).
 * Options: --no-build, --port N (8799), --runs N (3), --duration S (10), --connections N (20), --rounds N (2: load runs alternate),
 *          --only name,name (pages of PAGES), --no-lighthouse, --no-load, --verbose (show the worker's output),
 *          --money-runs N (1000: runs of the money model test; 0 skips it),
 *          --capacity (only the D1 capacity section: `npm run capacity`, scripts/bench/capacity.ts; writes bench/capacity.json),
 *          --alarms (only the alarm fan-out section, scripts/bench/alarms.ts; writes bench/alarms.json), --no-alarms,
 *          --alarm-readers N (10000), --alarm-pushes N (10000: readers with a browser subscribed),
 *          --purchase (only the purchase section, scripts/bench/purchase.ts; printed, not written).
 * Exits 0 unless the worker never started.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { args, editionId, root, run } from './lib.ts'
import { benchPurchase, purchaseLine } from './bench/purchase.ts'
import { benchViewer } from './bench/viewer.ts'
import { CHROMIUM_FLAGS, findChromium } from './chromium.ts'
import { benchHash, benchSignInStorm, stormLine } from './bench/hash.ts'
import { benchMoneyModel, moneyModelLine } from './bench/money.ts'
import { benchCapacity, queueUsageOf, type QueueUsage } from './bench/capacity.ts'
import { alarmsLines, benchAlarms } from './bench/alarms.ts'
import { startPushService, type PushService } from './push-service.ts'

// ---------------------------------------------------------------------------------------------------
// Pages measured. Extend here: `path` is a string, or a function of what
// was discovered on the home page. `jsKB` is the JavaScript budget (docs/QUALITY.md: 5 KB on catalogue pages,
// 90 KB gz on island pages); `lcpMs` overrides the LCP target (docs/QUALITY.md: 1,200 ms for every page).
// ---------------------------------------------------------------------------------------------------
type Discovered = { detail: string }
/** `as: 'adult'`: measured signed in as the demo adult reader (issue 11: pages cached per audience class). */
export type PageSpec = {
  name: string
  path: string | ((d: Discovered) => string)
  jsKB?: number
  lcpMs?: number
  edge?: boolean
  as?: 'adult'
}

// Feature measurements live in scripts/bench/<feature>.ts (viewer, purchase), called after the load runs.

const PAGES: PageSpec[] = [
  { name: 'home', path: '/', jsKB: 5, edge: true },
  { name: 'detail', path: (d) => d.detail, jsKB: 5, edge: true },
  { name: 'weekly', path: '/home/weekly', jsKB: 5, edge: true },
  { name: 'notice', path: '/notice', jsKB: 5, edge: true },
  { name: 'faq', path: '/faq', jsKB: 5, edge: true },
  { name: 'prepare', path: '/prepare' },
  { name: 'home (adult)', path: '/', jsKB: 5, edge: true, as: 'adult' },
  { name: 'mature (adult)', path: '/home/mature', jsKB: 5, edge: true, as: 'adult' },
]
/** Throughput comparison: the edge-rendered page against the pre-rendered one (names from PAGES). */
const LOAD = { edge: 'detail', baseline: 'prepare' }

const TARGETS = {
  performance: 98,
  accessibility: 95,
  bestPractices: 95,
  seo: 100,
  lcpMs: 1200,
  cls: 0.02,
  tbtMs: 50,
  ratio: 0.6,
  d1Queries: 5,
}
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS]

const opts = args()
const id = editionId()
const port = Number(opts.port ?? 8799)
const runs = Math.max(1, Number(opts.runs ?? 3))
const duration = Math.max(1, Number(opts.duration ?? 10))
const connections = Math.max(1, Number(opts.connections ?? 20))
const rounds = Math.max(1, Number(opts.rounds ?? 2))
/** `--only home,detail`: measure just these pages (the load comparison needs its two pages among them). */
const only = typeof opts.only === 'string' ? new Set(String(opts.only).split(',')) : null
const moneyRuns = Math.max(0, Number(opts['money-runs'] ?? 1000))
const persist = '.wrangler/bench'
/** The alarm section runs unless --no-alarms (never in --capacity or --purchase); --alarms runs it alone. */
const alarmsOn = Boolean(opts.alarms) || (!opts.capacity && !opts.purchase && !opts['no-alarms'])
const alarmOpts = { readers: Number(opts['alarm-readers'] ?? 10_000), pushes: Number(opts['alarm-pushes'] ?? 10_000) }
const base = `http://127.0.0.1:${port}`
const notes: string[] = []

// ---------------------------------------------------------------------------------------------------
// Worker lifecycle
// ---------------------------------------------------------------------------------------------------
let worker: ChildProcess | undefined
const workerLog: string[] = []
/** The queue consumers' D1 work, batch by batch, from the worker's log (`queue.usage`; taken by the capacity section). */
const queueLog: QueueUsage[] = []
let stopping: Promise<void> | undefined
let interrupted = false

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal)
  } catch {
    /* already gone */
  }
}

/** Ends the worker's whole process group (start.ts → wrangler → workerd): TERM, then KILL after 5 s. */
function stopWorker(): Promise<void> {
  const pid = worker?.pid
  if (!pid) return Promise.resolve()
  stopping ??= (async () => {
    killGroup(pid, 'SIGTERM')
    for (let i = 0; i < 50 && groupAlive(pid); i++) await sleep(100)
    if (groupAlive(pid)) killGroup(pid, 'SIGKILL')
  })()
  return stopping
}

process.on('exit', () => {
  if (worker?.pid) killGroup(worker.pid, 'SIGKILL')
})
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (interrupted) return
    interrupted = true
    console.error(`\n${sig}: stopping the worker`)
    void Promise.all([stopWorker(), chromeKill?.()]).finally(() => process.exit(130))
  })
}
process.on('uncaughtException', (e) => {
  console.error('bench crashed:', e)
  void Promise.all([stopWorker(), chromeKill?.()]).finally(() => process.exit(1))
})

/** `sink`: the alarm section's push service, known to the worker as PUSH_SERVICE_BASE (so started before it). */
function startWorker(sink?: PushService): ChildProcess {
  const verbose = Boolean(opts.verbose)
  const vars = sink ? ['--var', `PUSH_SERVICE_BASE:${sink.base}`] : []
  // `log`: the queue consumers' usage lines (queueLog) are console.log lines
  const startArgs = ['scripts/start.ts', '--no-build', '--port', String(port), '--persist-to', persist, '--log-level', 'log', ...vars]
  const child = spawn(process.execPath, startArgs, {
    cwd: root,
    detached: true,
    stdio: verbose ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, EDITION: id },
  })
  /** Whole lines of one stream (a chunk may end mid-line). */
  const keep = () => {
    let partial = ''
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      queueLog.push(...lines.flatMap(queueUsageOf))
      workerLog.push(...lines)
      if (workerLog.length > 300) workerLog.splice(0, workerLog.length - 300)
    }
  }
  child.stdout?.on('data', keep())
  child.stderr?.on('data', keep())
  return child
}

async function waitHealthy(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`${base}/_/health`, { signal: AbortSignal.timeout(2000) })
      await res.arrayBuffer()
      if (res.status === 200) return true
    } catch {
      /* not up yet */
    }
    await sleep(500)
  }
  return false
}

// ---------------------------------------------------------------------------------------------------
// Discovery and D1 query counts
// ---------------------------------------------------------------------------------------------------
/** `second`: the same page viewed again (no forced reload): whether the edge cache answered, and its D1 queries. */
type Resolved = {
  spec: PageSpec
  path: string
  url?: string
  status: number | string
  d1Queries?: number
  redirectedTo?: string
  second?: { edgeCache: string; d1Queries: number }
}

/** The demo adult reader's session cookie (web sign-in form), for the pages measured `as: 'adult'`. */
let adultCookie = ''
async function signInAdult() {
  const res = await fetch(`${base}/api/v1/auth/web/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email: 'reader@example.com', password: 'Reader-2026!', callback: '/' }),
  })
  adultCookie = /wt_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? ''
  if (!adultCookie) notes.push(`adult reader sign-in failed (${res.status}): the "(adult)" pages are measured as a guest`)
}
const cookieOf = (spec: PageSpec): Record<string, string> => (spec.as === 'adult' && adultCookie ? { Cookie: adultCookie } : {})

/**
 * Puts the adult reader's session into the browser's own cookie jar (or empties it) before Lighthouse loads a page:
 * the page's scripts then call the API as that reader, as a signed-in browser does. An extra `Cookie` header
 * (Lighthouse's extraHeaders) reached the page alone: once the page's answer set `wt_signed`, Chromium sent the jar's
 * cookies instead, so every call after paint was a guest's (issue 40: a 401 in the console, home's continue-reading
 * row taken away, CLS 0.27). Lighthouse's storage reset leaves cookies alone.
 */
async function browserSession(port: number, spec: PageSpec) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string }
  const ws = new WebSocket(webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  let next = 0
  const send = <T = unknown>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = ++next
      ws.addEventListener('message', function answer(m) {
        const msg = JSON.parse(String(m.data)) as { id?: number; result: T; error?: { message: string } }
        if (msg.id !== id) return
        ws.removeEventListener('message', answer)
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`))
        else resolve(msg.result)
      })
      ws.send(JSON.stringify({ id, method, params }))
    })
  try {
    // the worker renews the session cookie as its access token nears its end: keep the renewed one (the one signed in
    // with is spent then, a second use of its refresh token ends the session)
    const { cookies } = await send<{ cookies: { name: string; value: string }[] }>('Storage.getCookies')
    const held = cookies.find((c) => c.name === 'wt_session')
    if (held) adultCookie = `wt_session=${held.value}`
    await send('Storage.clearCookies')
    const [name, value] = adultCookie.split(/=(.*)/s) as [string, string]
    if (spec.as === 'adult' && adultCookie)
      await send('Storage.setCookies', { cookies: [{ name, value, url: base, httpOnly: true, sameSite: 'Lax' }] })
  } finally {
    ws.close()
  }
}

async function get(url: string, headers: Record<string, string> = {}, render = true) {
  const res = await fetch(url, {
    headers: { Accept: 'text/html', ...(render ? { 'Cache-Control': 'no-cache' /* count a real render's queries */ } : {}), ...headers },
    signal: AbortSignal.timeout(30_000),
  })
  const body = await res.text()
  return { res, body }
}

async function discover(): Promise<Discovered> {
  const found: Discovered = { detail: '/detail/1' }
  try {
    const { res, body } = await get(`${base}/`)
    const m = res.ok ? /href="(\/detail\/[^"?#]+)"/.exec(body) : null
    if (m) found.detail = m[1]!
    else notes.push('no /detail/<id> link on the home page: using /detail/1')
  } catch (e) {
    notes.push(`home page unreachable for discovery: ${(e as Error).message}`)
  }
  return found
}

/** Fetches each page once (following redirects): 200 → measured at its final URL, else "missing". */
async function resolvePages(found: Discovered): Promise<Resolved[]> {
  const out: Resolved[] = []
  for (const spec of PAGES.filter((p) => !only || only.has(p.name))) {
    const path = typeof spec.path === 'function' ? spec.path(found) : spec.path
    try {
      const { res } = await get(base + path, cookieOf(spec))
      const r: Resolved = { spec, path, status: res.status }
      if (res.status === 200) {
        r.url = res.url
        r.d1Queries = Number(res.headers.get('x-d1-queries') ?? 0)
        if (spec.edge) {
          await get(res.url, cookieOf(spec), false) // fills the edge cache if the render above could not
          const again = (await get(res.url, cookieOf(spec), false)).res
          r.second = { edgeCache: again.headers.get('x-edge-cache') ?? 'none', d1Queries: Number(again.headers.get('x-d1-queries') ?? 0) }
        }
        const finalPath = new URL(res.url).pathname + new URL(res.url).search
        if (finalPath !== path) r.redirectedTo = finalPath
      }
      out.push(r)
    } catch (e) {
      out.push({ spec, path, status: (e as Error).message })
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------------
// Lighthouse
// ---------------------------------------------------------------------------------------------------
type LhFigures = {
  performance: number | null
  accessibility: number | null
  bestPractices: number | null
  seo: number | null
  lcpMs: number | null
  cls: number | null
  tbtMs: number | null
  jsBytes: number | null
  /** Each script the page loaded in that run (Lighthouse's `network-requests`), its path and bytes transferred. */
  scripts: { path: string; bytes: number }[]
  totalBytes: number | null
  benchmarkIndex?: number
  /** Audits scoring below 1 in accessibility, best practices and SEO: why those scores are not 100. */
  failing: string[]
}
type LhResult = { median?: LhFigures; performanceRuns: (number | null)[]; errors: string[] }
let chromeKill: (() => Promise<void>) | undefined
const lighthouseMeta: { version?: string; userAgent?: string; error?: string } = {}

const score = (s: number | null | undefined) => (s == null ? null : Math.round(s * 100))

async function lighthouseAll(pages: Resolved[]): Promise<Map<string, LhResult>> {
  const results = new Map<string, LhResult>()
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
  if (major < 22 || (major === 22 && minor < 19)) notes.push(`lighthouse 13 wants Node ≥ 22.19; running on ${process.version}`)
  let lighthouse: typeof import('lighthouse').default
  let chromeLauncher: typeof import('chrome-launcher')
  try {
    lighthouse = (await import('lighthouse')).default
    chromeLauncher = await import('chrome-launcher')
  } catch (e) {
    lighthouseMeta.error = `cannot load lighthouse / chrome-launcher: ${(e as Error).message}`
    return results
  }
  const found = await findChromium()
  if (found.path === null) {
    lighthouseMeta.error = found.reason
    return results
  }
  const chromePath = found.path
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>>
  try {
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'silent' })
  } catch (e) {
    lighthouseMeta.error = `cannot launch Chromium at ${chromePath}: ${(e as Error).message}`
    return results
  }
  chromeKill = async () => {
    try {
      await chrome.kill()
    } catch {
      /* gone */
    }
  }
  try {
    for (const page of pages) {
      if (!page.url) continue
      const res: LhResult = { performanceRuns: [], errors: [] }
      const figures: LhFigures[] = []
      // A run that fails (Lighthouse's NO_NAVSTART and the like happen on a busy machine) is retried, twice at most per page.
      for (let attempt = 0; figures.length < runs && attempt < runs + 2 && !interrupted; attempt++) {
        const label = `  lighthouse ${page.spec.name} ${figures.length + 1}/${runs}`
        try {
          await browserSession(chrome.port, page.spec)
          const rr = await lighthouse(page.url, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
          })
          if (!rr) throw new Error('no result')
          const lhr = rr.lhr
          lighthouseMeta.version ??= lhr.lighthouseVersion
          lighthouseMeta.userAgent ??= lhr.environment.hostUserAgent
          if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`)
          const a = lhr.audits
          const rows =
            (a['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? []
          const row = (t: string) => rows.find((r) => r.resourceType === t)?.transferSize ?? null
          const f: LhFigures = {
            performance: score(lhr.categories.performance?.score),
            accessibility: score(lhr.categories.accessibility?.score),
            bestPractices: score(lhr.categories['best-practices']?.score),
            seo: score(lhr.categories.seo?.score),
            lcpMs: a['largest-contentful-paint']?.numericValue ?? null,
            cls: a['cumulative-layout-shift']?.numericValue ?? null,
            tbtMs: a['total-blocking-time']?.numericValue ?? null,
            jsBytes: row('script'),
            scripts: (
              (a['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)
                ?.items ?? []
            )
              .filter((r) => r.resourceType === 'Script')
              .map((r) => ({ path: new URL(r.url).pathname, bytes: r.transferSize ?? 0 })),
            totalBytes: row('total'),
            benchmarkIndex: lhr.environment.benchmarkIndex,
            failing: ['accessibility', 'best-practices', 'seo'].flatMap((c) =>
              (lhr.categories[c]?.auditRefs ?? [])
                .filter((ref) => ref.weight > 0 && a[ref.id]?.score != null && a[ref.id]!.score! < 1)
                .map((ref) => `${c}: ${ref.id}`),
            ),
          }
          figures.push(f)
          res.performanceRuns.push(f.performance)
          console.log(`${label}: performance ${f.performance ?? '—'}, LCP ${cell(f.lcpMs, 0)} ms`)
        } catch (e) {
          res.errors.push((e as Error).message)
          console.log(`${label}: failed — ${(e as Error).message}`)
        }
      }
      // the median run by performance, and among runs of one score by LCP (all at 100, the order of the runs chose it)
      const scored = figures
        .filter((f) => f.performance != null)
        .sort((x, y) => x.performance! - y.performance! || (y.lcpMs ?? 0) - (x.lcpMs ?? 0))
      const pool = scored.length ? scored : figures
      if (pool.length) res.median = pool[Math.floor((pool.length - 1) / 2)]
      results.set(page.spec.name, res)
    }
  } finally {
    await chromeKill()
  }
  return results
}

// ---------------------------------------------------------------------------------------------------
// Load (autocannon)
// ---------------------------------------------------------------------------------------------------
type CannonResult = {
  requests: { average: number }
  latency: { p99: number; average: number }
  non2xx: number
  errors: number
  timeouts: number
  '2xx': number
}
type Autocannon = (o: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<CannonResult>
type LoadFigures = {
  page: string
  url: string
  reqPerSec: number
  p99Ms: number
  meanLatencyMs: number
  non2xx: number
  errors: number
  timeouts: number
}

/** `render: true` sends `Cache-Control: no-cache`, which bypasses the edge cache: every request renders. */
async function load(page: Resolved, autocannon: Autocannon, render = false): Promise<LoadFigures> {
  const headers: Record<string, string> = { Accept: 'text/html', ...(render ? { 'Cache-Control': 'no-cache' } : {}) }
  const r = await autocannon({ url: page.url!, connections, duration, headers })
  console.log(
    `  autocannon ${page.spec.name}${render ? ' (rendered every request)' : ''}: ${r.requests.average.toFixed(1)} req/s, p99 ${r.latency.p99} ms`,
  )
  return {
    page: page.spec.name,
    url: page.url!,
    reqPerSec: r.requests.average,
    p99Ms: r.latency.p99,
    meanLatencyMs: r.latency.average,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  }
}

/** Mean of several runs of one page (p99: the worst run's). */
function meanLoad(runs: LoadFigures[]): LoadFigures {
  const mean = (f: (x: LoadFigures) => number) => runs.reduce((a, x) => a + f(x), 0) / runs.length
  const sum = (f: (x: LoadFigures) => number) => runs.reduce((a, x) => a + f(x), 0)
  return {
    page: runs[0]!.page,
    url: runs[0]!.url,
    reqPerSec: mean((x) => x.reqPerSec),
    p99Ms: Math.max(...runs.map((x) => x.p99Ms)),
    meanLatencyMs: mean((x) => x.meanLatencyMs),
    non2xx: sum((x) => x.non2xx),
    errors: sum((x) => x.errors),
    timeouts: sum((x) => x.timeouts),
  }
}

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------
const mark = (ok: boolean) => (ok ? '✓' : '✗')
function cell(v: number | null | undefined, digits: number, ok?: (v: number) => boolean): string {
  if (v == null || Number.isNaN(v)) return '—'
  const s = v.toFixed(digits)
  return ok ? `${s} ${mark(ok(v))}` : s
}
/** Aligned columns; a row shorter than the header lets its last cell run across the rest. */
function table(rows: string[][]): string {
  const n = rows[0]!.length
  const fits = (r: string[], i: number) => r.length === n || i < r.length - 1
  const widths = rows[0]!.map((_, i) => Math.max(...rows.filter((r) => fits(r, i)).map((r) => (r[i] ?? '').length)))
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

function machine() {
  const cpus = os.cpus()
  return {
    os: `${os.type()} ${os.release()} (${os.platform()}/${os.arch()})`,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
  }
}

function gitCommit(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim()
    const dirty =
      execFileSync('git', ['status', '--porcelain'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() !== ''
    return { commit, dirty }
  } catch {
    return { commit: 'uncommitted', dirty: true }
  }
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms))
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------
const started = Date.now()
// the bench's own build folder (and its servers read it): a running `npm start` keeps serving dist/<id> (issue 40 point 5)
process.env.BUILD_DIR ??= 'dist/bench'
if (!opts['no-build']) {
  console.log(`Building edition ${id}…`)
  await run(process.execPath, ['scripts/build.ts'], { env: { EDITION: id } }).catch((e) => {
    console.error(`build failed: ${(e as Error).message}`)
    process.exit(1)
  })
}

try {
  const busy = await fetch(`${base}/_/health`, { signal: AbortSignal.timeout(1000) }).then(
    () => true,
    () => false,
  )
  if (busy) {
    console.error(`Port ${port} already answers: stop that server or pass --port N.`)
    process.exit(1)
  }
  console.log(`Starting the worker on ${base} (state in ${persist})…`)
  const sink = alarmsOn ? await startPushService() : undefined
  worker = startWorker(sink)
  if (!(await waitHealthy(worker, 4 * 60_000))) {
    console.error(`The worker never answered ${base}/_/health with 200. Its last output:\n${workerLog.slice(-40).join('\n')}`)
    await stopWorker()
    process.exit(1)
  }
  console.log(`Worker up after ${((Date.now() - started) / 1000).toFixed(0)} s`)
  if (opts.capacity) {
    const capacity = await benchCapacity({ base, persist, edition: id, queueLog })
    mkdirSync(`${root}bench`, { recursive: true })
    writeFileSync(
      `${root}bench/capacity.json`,
      JSON.stringify({ date: new Date().toISOString(), ...gitCommit(), edition: id, capacity }, null, 2) + '\n',
    )
    console.log('\nWrote bench/capacity.json')
    await stopWorker()
    process.exit(capacity.error ? 1 : 0)
  }
  const runAlarms = () => benchAlarms({ base, persist, edition: id, sink: sink!, workerPid: worker?.pid, ...alarmOpts })
  if (opts.alarms) {
    console.log(`Alarm fan-out: ${alarmOpts.readers} readers, ${alarmOpts.pushes} pushes…`)
    const alarms = await runAlarms()
    for (const line of alarmsLines(alarms)) console.log(line)
    mkdirSync(`${root}bench`, { recursive: true })
    writeFileSync(
      `${root}bench/alarms.json`,
      JSON.stringify({ date: new Date().toISOString(), ...gitCommit(), edition: id, alarms }, null, 2) + '\n',
    )
    console.log('\nWrote bench/alarms.json')
    await stopWorker()
    process.exit(alarms.error ? 1 : 0)
  }
  if (opts.purchase) {
    const purchase = await benchPurchase({ base, persist, edition: id })
    console.log(purchaseLine(purchase))
    await stopWorker()
    process.exit(purchase.error ? 1 : 0)
  }

  await signInAdult()
  const found = await discover()
  const pages = await resolvePages(found)
  const measured = pages.filter((p) => p.url)
  for (const p of pages) if (!p.url) notes.push(`${p.spec.name} ${p.path}: missing (${p.status})`)

  let lh = new Map<string, LhResult>()
  if (!opts['no-lighthouse']) {
    console.log(`Lighthouse: ${measured.length} pages × ${runs} runs (mobile, simulated throttling)…`)
    lh = await lighthouseAll(measured)
    if (lighthouseMeta.error) notes.push(`lighthouse: ${lighthouseMeta.error}`)
  }

  const loadResult: {
    baseline?: LoadFigures
    edge?: LoadFigures
    rendered?: LoadFigures
    ratio?: number
    renderedRatio?: number
    error?: string
    rounds?: Record<string, LoadFigures[]>
  } = {}
  if (!opts['no-load'] && !interrupted) {
    const edge = measured.find((p) => p.spec.name === LOAD.edge)
    const baseline = measured.find((p) => p.spec.name === LOAD.baseline)
    if (!edge || !baseline) loadResult.error = `needs both ${LOAD.edge} and ${LOAD.baseline} answering 200`
    else {
      try {
        const autocannon = ((await import('autocannon' as string)) as { default: Autocannon }).default
        console.log(
          `autocannon: ${rounds} rounds of ${duration} s × ${connections} connections on ${baseline.spec.name} and ${edge.spec.name}…`,
        )
        // Rounds alternate the three runs so a machine getting busier or quieter during the bench (shared
        // cores) weighs on each the same; figures are the rounds' means.
        const acc: { baseline: LoadFigures[]; edge: LoadFigures[]; rendered: LoadFigures[] } = { baseline: [], edge: [], rendered: [] }
        for (let r = 0; r < rounds && !interrupted; r++) {
          acc.baseline.push(await load(baseline, autocannon))
          acc.edge.push(await load(edge, autocannon))
          acc.rendered.push(await load(edge, autocannon, true))
        }
        loadResult.baseline = meanLoad(acc.baseline)
        loadResult.edge = meanLoad(acc.edge)
        loadResult.rendered = meanLoad(acc.rendered)
        loadResult.rounds = acc
        if (loadResult.baseline.reqPerSec > 0) {
          loadResult.ratio = loadResult.edge.reqPerSec / loadResult.baseline.reqPerSec
          loadResult.renderedRatio = loadResult.rendered.reqPerSec / loadResult.baseline.reqPerSec
        }
      } catch (e) {
        loadResult.error = (e as Error).message
      }
    }
    if (loadResult.error) notes.push(`load: ${loadResult.error}`)
  }

  // issue 40 point 3: which scripts a page over its JS budget loaded (Lighthouse's own network records of its median run)
  for (const p of measured.filter((m) => m.spec.jsKB !== undefined)) {
    const m = lh.get(p.spec.name)?.median
    if (m?.jsBytes != null && m.jsBytes / 1024 > p.spec.jsKB!)
      notes.push(
        `JS ${p.spec.name}: ${(m.jsBytes / 1024).toFixed(1)} KB > ${p.spec.jsKB} KB: ${[...m.scripts]
          .sort((a, b) => b.bytes - a.bytes)
          .map((f) => `${f.path.replace('/_astro/', '')} ${f.bytes} B`)
          .join(', ')}`,
      )
  }

  const viewer = !opts['no-lighthouse'] && !interrupted ? await benchViewer(base, { runs, notes }) : null
  const purchase = !opts['no-load'] && !interrupted ? await benchPurchase({ base, persist, edition: id }) : null // p50/p99 at 50 concurrent
  if (purchase) notes.push(purchaseLine(purchase))
  const hash = interrupted ? null : await benchHash() // argon2id CPU ms per hash (issue 26)
  const storm = opts['no-load'] || interrupted ? null : await benchSignInStorm(base) // GET / during 200 sign-ins (issue 34)
  if (storm) notes.push(`sign-in storm: ${stormLine(storm)}`)
  const moneyModel = moneyRuns > 0 && !interrupted ? await benchMoneyModel(moneyRuns) : null
  if (moneyModel) notes.push(moneyModelLine(moneyModel))
  const capacity = interrupted ? null : await benchCapacity({ base, persist, edition: id, queueLog })
  // after capacity (its row counts and bytes per row do not see the 10,000 bench readers; it deletes them after)
  const alarms = alarmsOn && !interrupted ? await runAlarms() : null
  if (alarms) notes.push(...alarmsLines(alarms))

  // --- table ---
  const head = ['page', 'path', 'perf', 'a11y', 'b.p.', 'SEO', 'LCP ms', 'CLS', 'TBT ms', 'JS KB', 'total KB', 'D1', '2nd view']
  const target = [
    'target',
    '',
    `≥${TARGETS.performance}`,
    `≥${TARGETS.accessibility}`,
    `≥${TARGETS.bestPractices}`,
    `${TARGETS.seo}`,
    `≤${TARGETS.lcpMs}`,
    `≤${TARGETS.cls}`,
    `≤${TARGETS.tbtMs}`,
    '≤5 catalogue',
    '',
    `≤${TARGETS.d1Queries}`,
    'edge HIT',
  ]
  const rows = [head, target]
  for (const p of pages) {
    const shownPath = p.redirectedTo ? `${p.path} → ${p.redirectedTo}` : p.path
    if (!p.url) {
      rows.push([p.spec.name, shownPath, `missing (${p.status})`])
      continue
    }
    const m = lh.get(p.spec.name)?.median
    const lcpTarget = p.spec.lcpMs ?? TARGETS.lcpMs
    rows.push([
      p.spec.name,
      shownPath,
      cell(m?.performance, 0, (v) => v >= TARGETS.performance),
      cell(m?.accessibility, 0, (v) => v >= TARGETS.accessibility),
      cell(m?.bestPractices, 0, (v) => v >= TARGETS.bestPractices),
      cell(m?.seo, 0, (v) => v >= TARGETS.seo),
      cell(m?.lcpMs, 0, (v) => v <= lcpTarget),
      cell(m?.cls, 3, (v) => v <= TARGETS.cls),
      cell(m?.tbtMs, 0, (v) => v <= TARGETS.tbtMs),
      cell(m?.jsBytes == null ? null : m.jsBytes / 1024, 1, p.spec.jsKB == null ? undefined : (v) => v <= p.spec.jsKB!),
      cell(m?.totalBytes == null ? null : m.totalBytes / 1024, 1),
      cell(p.d1Queries, 0, p.spec.edge ? (v) => v <= TARGETS.d1Queries : undefined),
      p.second ? `${p.second.edgeCache}, D1 ${p.second.d1Queries}` : '',
    ])
  }
  console.log(
    `\nEdition ${id} — Lighthouse ${lighthouseMeta.version ?? '?'} mobile, simulated throttling, median of ${runs} by performance`,
  )
  console.log(table(rows))
  for (const p of measured) {
    const r = lh.get(p.spec.name)
    if (r?.errors.length)
      console.log(
        `  ${p.spec.name}: ${r.errors.length} lighthouse attempt(s) failed, ${r.performanceRuns.length}/${runs} runs kept — ${r.errors[0]}`,
      )
    if (r?.median?.failing.length) console.log(`  ${p.spec.name} below 100: ${r.median.failing.join(', ')}`)
  }

  if (loadResult.baseline && loadResult.edge) {
    const lr = [['load', 'url', 'req/s', 'p99 ms', 'mean ms', 'non-2xx', 'errors']]
    const rows = [
      ['pre-rendered', loadResult.baseline],
      ['edge-rendered, edge cache', loadResult.edge],
      ['edge-rendered, no cache', loadResult.rendered],
    ] as const
    for (const [label, f] of rows)
      if (f)
        lr.push([
          `${label} (${f.page})`,
          new URL(f.url).pathname,
          f.reqPerSec.toFixed(1),
          String(f.p99Ms),
          f.meanLatencyMs.toFixed(1),
          String(f.non2xx),
          String(f.errors + f.timeouts),
        ])
    console.log(`\nautocannon ${duration} s × ${connections} connections, same worker, same run, mean of ${rounds} alternating rounds`)
    console.log(table(lr))
    console.log(
      `ratio edge/pre-rendered: ${cell(loadResult.ratio, 2, (v) => v >= TARGETS.ratio)} (target ≥ ${TARGETS.ratio}); rendering every request: ${cell(loadResult.renderedRatio, 2)}`,
    )
  }
  if (notes.length) console.log(`\nNotes:\n${notes.map((n) => `  - ${n}`).join('\n')}`)

  // --- results.json ---
  const results = {
    date: new Date().toISOString(),
    ...gitCommit(),
    edition: id,
    machine: machine(),
    lighthouse: {
      version: lighthouseMeta.version ?? null,
      userAgent: lighthouseMeta.userAgent ?? null,
      runs,
      formFactor: 'mobile',
      throttling: 'simulate',
      error: lighthouseMeta.error ?? null,
    },
    targets: { ...TARGETS, jsKB: Object.fromEntries(PAGES.filter((p) => p.jsKB != null).map((p) => [p.name, p.jsKB])) },
    pages: pages.map((p) => ({
      name: p.spec.name,
      path: p.path,
      url: p.url ?? null,
      status: p.url ? 'ok' : 'missing',
      httpStatus: p.status,
      d1Queries: p.d1Queries ?? null,
      secondView: p.second ?? null,
      signedIn: p.spec.as ?? null,
      lighthouse: lh.get(p.spec.name) ?? null,
    })),
    load: opts['no-load'] ? null : { durationS: duration, connections, ...loadResult },
    viewer,
    purchase,
    moneyModel,
    capacity,
    alarms,
    hash,
    storm,
    notes,
    elapsedS: Math.round((Date.now() - started) / 1000),
  }
  mkdirSync(`${root}bench`, { recursive: true })
  writeFileSync(`${root}bench/results.json`, JSON.stringify(results, null, 2) + '\n')
  console.log(`\nWrote bench/results.json (${results.elapsedS} s)`)
} finally {
  await stopWorker()
}
