/**
 * Password hash cost for `npm run bench` (issue 26 point 8), reported, never asserted: CPU ms of one argon2id hash
 * at today's parameters (src/lib/server/password.ts, the same pure-JS code workerd runs) and of one check of an
 * older PBKDF2 hash, median of N in this Node process. A Worker bills CPU time: a sign-in costs about one of each.
 */
import { checkPassword, hashPassword } from '../../src/lib/server/password.ts'

export type HashBench = { runs: number; argon2idMs: number; checkMs: number }

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function cpuMs(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start)
  return (u.user + u.system) / 1000
}

export async function benchHash(runs = 7): Promise<HashBench> {
  const hashes: number[] = []
  const checks: number[] = []
  for (let i = 0; i < runs; i++) {
    let start = process.cpuUsage()
    const stored = await hashPassword(`Bench-2026!${i}`, 'bench-pepper')
    hashes.push(cpuMs(start))
    start = process.cpuUsage()
    await checkPassword(`Bench-2026!${i}`, stored, 'bench-pepper')
    checks.push(cpuMs(start))
  }
  const result = { runs, argon2idMs: Math.round(median(hashes)), checkMs: Math.round(median(checks)) }
  console.log(`Password hash: argon2id ${result.argon2idMs} ms CPU per hash, a sign-in check ${result.checkMs} ms (median of ${runs})`)
  return result
}

export type StormBench = { idle: { p50: number; p99: number }; storm: { p50: number; p99: number }; signIns: number; stormMs: number }

const percentile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!

/** Latencies (ms) of `GET /` on `base`, `concurrency` at a time, until `until()` says stop (at least `min` requests). */
async function pageLatencies(base: string, until: () => boolean, min: number, concurrency = 4): Promise<number[]> {
  const seen: number[] = []
  const loop = async () => {
    while (seen.length < min || !until()) {
      const t = performance.now()
      const res = await fetch(`${base}/`)
      await res.arrayBuffer()
      seen.push(performance.now() - t)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop))
  return seen
}

/**
 * Issue 34 point 5, reported: `GET /` (a cached page) p50/p99 idle, then while 200 sign-ins to unknown accounts from
 * 200 addresses (20 at a time: each hashes, as a real one does) run on the same worker.
 */
export async function benchSignInStorm(base: string, signIns = 200, atOnce = 20): Promise<StormBench> {
  await pageLatencies(base, () => true, 20) // warm the edge cache
  const idle = await pageLatencies(base, () => true, 1_000) // a p99 of 200 samples is their second-slowest
  let finished = false
  const started = performance.now()
  const storm = async () => {
    for (let i = 0; i < signIns; i += atOnce)
      await Promise.all(
        Array.from({ length: Math.min(atOnce, signIns - i) }, async (_, j) => {
          const n = i + j
          const res = await fetch(`${base}/api/v1/auth/sign-in`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.18.${n >> 8}.${(n & 255) + 1}` },
            body: JSON.stringify({ email: `storm-${Date.now()}-${n}@example.com`, password: 'Storm-2026!' }),
          })
          await res.arrayBuffer()
        }),
      )
    finished = true
  }
  const [during] = await Promise.all([pageLatencies(base, () => finished, 20), storm()])
  const result: StormBench = {
    idle: { p50: Math.round(percentile(idle, 0.5)), p99: Math.round(percentile(idle, 0.99)) },
    storm: { p50: Math.round(percentile(during, 0.5)), p99: Math.round(percentile(during, 0.99)) },
    signIns,
    stormMs: Math.round(performance.now() - started),
  }
  console.log(`Sign-in storm: ${stormLine(result)}`)
  return result
}

export function stormLine(r: StormBench): string {
  return `GET / p50 ${r.storm.p50} ms, p99 ${r.storm.p99} ms during ${r.signIns} sign-ins (${(r.stormMs / 1000).toFixed(1)} s); idle p50 ${r.idle.p50} ms, p99 ${r.idle.p99} ms (target: p99 within 2× idle)`
}
