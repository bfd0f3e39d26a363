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
