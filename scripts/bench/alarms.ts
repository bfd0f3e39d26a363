/**
 * Alarm fan-out (issue 13 "Notifications": publishing an episode to 10,000 subscribed readers enqueues in one request
 * under 1 s of worker time and is delivered by the consumer). Against the running local worker (its queue consumer
 * runs in the same workerd), in the worker's local D1 (scripts/seed/proxy.ts `openLocal`, the bench's own state):
 *   - a bench series with one episode dated far ahead (the cron does not announce it) and `readers` new accounts
 *     favouriting it, written in a few INSERT … SELECT statements (recursive CTE, one JSON parameter);
 *   - every (readers / pushes)-th of them with push on (contents and night too, so the bench's clock does not matter)
 *     and one browser subscription of the local push service (scripts/push-service.ts: real P-256 keys, endpoint
 *     `https://fcm.googleapis.com/bench/<n>`): the subscribed readers are spread
 *     over every 500-reader batch of the fan-out, as they would be;
 *   - the worker was started with PUSH_SERVICE_BASE pointing at that service (scripts/bench.ts), which answers 201 and
 *     decrypts every request with the subscription's keys, so a counted push is a real encrypted Web Push request.
 * Then `POST /api/ops/episodes/{id}/publish` once: its wall time (an upper bound of the worker's time), and, on Linux,
 * the CPU the worker's workerd used meanwhile (every thread, local D1 included); then, polling the readers' objects
 * (their SQLite files under the state) and the sink, the time until all alarms exist, until every push reached the
 * sink, and until every alarm's pushed_at is set.
 * Reported, never asserted. The bench's rows are deleted before (leftovers of an interrupted run) and after.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { objectRows } from './objects.ts'
import { LOCAL_OPS_TOKEN } from '../lib.ts'
import type { PushService } from '../push-service.ts'
import { openLocal } from '../seed/proxy.ts'

export type AlarmsBench = {
  readers: number
  pushes: number
  episodeId?: number
  /** The publish request: wall time, HTTP status, D1 round trips (X-D1-Queries). */
  publish?: { wallMs: number; status: number; d1Queries: number | null; workerCpuMs: number | null }
  /** From the publish request's start. */
  alarmsMs: number | null
  alarms: number
  /** When the polling (every 200 ms) first saw every push at the push service. */
  sinkMs: number | null
  sinkReceived: number
  /** Requests the push service decrypted with the subscription's keys, VAPID-signed, whose payload is the new episode's push. */
  sinkDecrypted: number
  pushedMs: number | null
  pushed: number
  /** workerd CPU from the publish to the end (fan-out and pushes, local D1 included); null off Linux. */
  consumerCpuMs: number | null
  setupMs: number
  /** Every change seen while polling: [ms since the publish, alarms, pushed_at set, pushes at the sink]. */
  timeline: [number, number, number, number][]
  target: { publishMs: number }
  error?: string
}

const TAG = 'alarms-bench'
const EMAILS = `${TAG}-%@bench.invalid`

// ---------------------------------------------------------------------------------------------------
// workerd CPU (Linux: /proc, every thread of the worker's workerd processes)
// ---------------------------------------------------------------------------------------------------
/** CPU ns used so far by the workerd processes of process group `pgid` (the worker's), or null when unreadable. */
function workerdCpuNs(pgid: number | undefined): number | null {
  if (!pgid || process.platform !== 'linux') return null
  try {
    let total = 0
    let found = false
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let stat: string
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      } catch {
        continue
      }
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // fields[2] is the process group
      if (comm !== 'workerd' || Number(fields[2]) !== pgid) continue
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        try {
          total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
          found = true
        } catch {
          /* thread gone */
        }
      }
    }
    return found ? total : null
  } catch {
    return null
  }
}

/**
 * The alarms with dedup key `key` in the readers' objects (issue 38: each reader's alarms live in their Durable Object),
 * read from the objects' SQLite files under `persist` changed since `since` (epoch ms), and how many have pushed_at.
 */
function objectAlarms(persist: string, key: string, since: number): { alarms: number; pushed: number } {
  const rows = objectRows<{ alarms: number; pushed: number }>(
    persist,
    `SELECT count(*) AS alarms, count(pushed_at) AS pushed FROM alarms WHERE dedup_key = ?`,
    [key],
    since,
  )
  return { alarms: rows.reduce((n, r) => n + r.alarms, 0), pushed: rows.reduce((n, r) => n + r.pushed, 0) }
}

// ---------------------------------------------------------------------------------------------------
// The bench
// ---------------------------------------------------------------------------------------------------
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Deletes the bench's readers (their favourites, settings, subscriptions and alarms go with them) and series. */
async function cleanup(db: D1Database) {
  await db.batch([
    db.prepare(`DELETE FROM users WHERE email LIKE ?`).bind(EMAILS),
    db.prepare(`DELETE FROM series WHERE title LIKE ?`).bind(`${TAG}-%`),
  ])
}

/**
 * The alarm bench against `base` (a worker serving `persist`, started with PUSH_SERVICE_BASE = `sink.base`):
 * `readers` accounts favouriting one series, `pushes` of them subscribed. `workerPid`: the worker's process group.
 */
export async function benchAlarms(opts: {
  base: string
  persist: string
  edition: string
  sink: PushService
  workerPid?: number
  readers?: number
  pushes?: number
  timeoutS?: number
}): Promise<AlarmsBench> {
  const readers = opts.readers ?? 10_000
  const pushes = Math.min(readers, opts.pushes ?? readers)
  const every = pushes > 0 ? Math.floor(readers / pushes) : 0
  const target = { publishMs: 1000 }
  const out: AlarmsBench = {
    readers,
    pushes,
    alarmsMs: null,
    alarms: 0,
    sinkMs: null,
    sinkReceived: 0,
    sinkDecrypted: 0,
    pushedMs: null,
    pushed: 0,
    consumerCpuMs: null,
    setupMs: 0,
    timeline: [],
    target,
  }
  const local = await openLocal({ edition: opts.edition, persistTo: opts.persist })
  const db = local.env.DB
  const { sink } = opts
  try {
    const setupStart = performance.now()
    await cleanup(db)
    const title = `${TAG}-${Date.now()}`
    const series = await db
      .prepare(`INSERT INTO series (title, status, genre, is_published) VALUES (?, 'SCHEDULED', 'DRAMA', 1) RETURNING id`)
      .bind(title)
      .first<{ id: number }>()
    // dated ahead: the cron's sweep does not claim it; the publish makes it now
    const episode = await db
      .prepare(
        `INSERT INTO episodes (series_id, no, title, is_free, published_at) VALUES (?, 1, 'Bench', 1, '2099-01-01T00:00:00.000Z') RETURNING id`,
      )
      .bind(series!.id)
      .first<{ id: number }>()
    const episodeId = episode!.id
    out.episodeId = episodeId
    // the readers, with the subscribed ones' keys (n: the reader's rank, 1..readers)
    const subs = Array.from({ length: pushes }, (_, i) => {
      const { endpoint, keys } = sink.subscribe('bench')
      return { email: `${TAG}-${(i + 1) * every}@bench.invalid`, endpoint, ...keys }
    })
    // CROSS JOIN: the JSON rows outside, each reader found by the e-mail index
    const subscribed = `FROM json_each(?1) j CROSS JOIN users u ON u.email = json_extract(j.value, '$.email')`
    await db.batch([
      db
        .prepare(
          `INSERT INTO users (email, created_at, updated_at)
           WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < ?1)
           SELECT '${TAG}-' || n || '@bench.invalid', ?2, ?2 FROM r`,
        )
        .bind(readers, new Date().toISOString()),
      db.prepare(`INSERT INTO favorites (user_id, series_id) SELECT id, ?2 FROM users WHERE email LIKE ?1`).bind(EMAILS, series!.id),
      db
        .prepare(
          `INSERT INTO push_settings (user_id, is_agree_push, is_agree_push_contents, is_agree_push_night)
           SELECT u.id, 1, 1, 1 ${subscribed}`,
        )
        .bind(JSON.stringify(subs)),
      db
        .prepare(
          `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at, updated_at)
           SELECT u.id, json_extract(j.value, '$.endpoint'), json_extract(j.value, '$.p256dh'), json_extract(j.value, '$.auth'), ?2, ?2
             ${subscribed}`,
        )
        .bind(JSON.stringify(subs), new Date().toISOString()),
    ])
    const made = await db
      .prepare(
        `SELECT (SELECT count(*) FROM favorites WHERE series_id = ?1) AS favs,
                (SELECT count(*) FROM push_subscriptions WHERE endpoint LIKE 'https://fcm.googleapis.com/bench/%') AS subs`,
      )
      .bind(series!.id)
      .first<{ favs: number; subs: number }>()
    if (made?.favs !== readers || made.subs !== pushes) throw new Error(`setup wrote ${made?.favs} favourites, ${made?.subs} subscriptions`)
    out.setupMs = Math.round(performance.now() - setupStart)
    const received0 = sink.received.length

    // the publish: one request
    const cpu0 = workerdCpuNs(opts.workerPid)
    const t0 = performance.now()
    const wall0 = Date.now()
    const res = await fetch(`${opts.base}/api/ops/episodes/${episodeId}/publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${LOCAL_OPS_TOKEN}` },
    })
    const answer = (await res.json()) as { data?: { announced?: boolean } }
    const wallMs = performance.now() - t0
    const cpu1 = workerdCpuNs(opts.workerPid)
    out.publish = {
      wallMs: Math.round(wallMs * 10) / 10,
      status: res.status,
      d1Queries: res.headers.has('x-d1-queries') ? Number(res.headers.get('x-d1-queries')) : null,
      workerCpuMs: cpu0 !== null && cpu1 !== null ? Math.round((cpu1 - cpu0) / 1e5) / 10 : null,
    }
    if (!res.ok || answer.data?.announced !== true) throw new Error(`publish answered ${res.status} ${JSON.stringify(answer)}`)

    // the consumer: poll until everything arrived, or nothing moved for 60 s, or the timeout
    const deadline = t0 + (opts.timeoutS ?? 600) * 1000
    const dedup = `EPISODE:${episodeId}`
    let moved = performance.now()
    let last = ''
    for (;;) {
      await sleep(1000) // each poll opens every reader's object changed since the publish
      const now = performance.now()
      const row = objectAlarms(opts.persist, dedup, wall0)
      out.alarms = row.alarms
      out.pushed = row.pushed
      const got = sink.received.slice(received0)
      out.sinkReceived = got.length
      out.sinkDecrypted = got.filter((r) => r.vapid?.signatureValid && (r.payload as { kind?: string } | null)?.kind === 'contents').length
      if (out.alarmsMs === null && out.alarms >= readers) out.alarmsMs = Math.round(now - t0)
      if (out.pushedMs === null && out.pushed >= pushes) out.pushedMs = Math.round(now - t0)
      if (out.sinkMs === null && out.sinkReceived >= pushes) out.sinkMs = Math.round(now - t0)
      const state = `${out.alarms}/${out.pushed}/${out.sinkReceived}`
      if (state !== last) {
        last = state
        moved = now
        out.timeline.push([Math.round(now - t0), out.alarms, out.pushed, out.sinkReceived])
      }
      if (out.alarmsMs !== null && out.pushedMs !== null && out.sinkMs !== null) break
      if (now - moved > 60_000)
        throw new Error(`nothing moved for 60 s (alarms ${out.alarms}, pushed_at ${out.pushed}, sink ${out.sinkReceived})`)
      if (now > deadline) throw new Error(`not done after ${opts.timeoutS ?? 600} s`)
    }
    const cpu2 = workerdCpuNs(opts.workerPid)
    if (cpu1 !== null && cpu2 !== null) out.consumerCpuMs = Math.round((cpu2 - cpu1) / 1e6)
    const paths = sink.received.slice(received0).map((r) => r.path)
    const duplicates = paths.length - new Set(paths).size
    if (duplicates > 0) throw new Error(`the sink received ${duplicates} pushes twice`)
    return out
  } catch (e) {
    return { ...out, error: (e as Error).message }
  } finally {
    await cleanup(db).catch(() => undefined)
    await local.dispose()
  }
}

/** The bench's lines. */
export function alarmsLines(b: AlarmsBench): string[] {
  const s = (ms: number | null) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`)
  const mark = (ok: boolean) => (ok ? '✓' : '✗')
  const lines: string[] = []
  if (b.publish) {
    const cpu =
      b.publish.workerCpuMs === null
        ? 'worker CPU not measured (wall time is its upper bound)'
        : `workerd CPU meanwhile ${b.publish.workerCpuMs} ms`
    lines.push(
      `alarms: publish to ${b.readers.toLocaleString('en')} readers, one request: ${b.publish.wallMs} ms wall ${mark(b.publish.wallMs < b.target.publishMs)} (target < ${b.target.publishMs} ms of worker time), ${cpu}, D1 ${b.publish.d1Queries ?? '—'}, HTTP ${b.publish.status}`,
    )
    lines.push(
      `alarms: all ${b.readers.toLocaleString('en')} alarms written after ${s(b.alarmsMs)} ${mark(b.alarms === b.readers)} (${b.alarms.toLocaleString('en')} written)`,
    )
    lines.push(
      `alarms: ${b.pushes.toLocaleString('en')} pushes (${b.pushes === b.readers ? 'every reader' : `1 reader in ${b.pushes ? Math.floor(b.readers / b.pushes) : '—'}`} subscribed) at the push service after ${s(b.sinkMs)} ${mark(b.sinkReceived === b.pushes && b.sinkDecrypted === b.pushes)} (${b.sinkReceived} received, ${b.sinkDecrypted} decrypted), pushed_at set on ${b.pushed} after ${s(b.pushedMs)}; workerd CPU for the consumer ${b.consumerCpuMs === null ? '—' : `${(b.consumerCpuMs / 1000).toFixed(1)} s`}`,
    )
  }
  if (b.error) lines.push(`alarms: ${b.publish ? 'incomplete' : 'not measured'} (${b.error})`)
  return lines
}
