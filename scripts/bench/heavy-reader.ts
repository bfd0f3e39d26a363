/**
 * A heavy reader's object after 3 years (issue 38: under 1 MB), measured on the running local worker (a section of
 * `npm run capacity`). A new reader gets a monthly top-up from an operator (36 coin lots) and buys `HEAVY.purchases`
 * episodes for good, one request each: 40 a month for 36 months, 4× the capacity profile's 10 rentals or purchases
 * (docs/SCALE.md). All of them for good is the worst case: an ended rental leaves the object with its retention rule,
 * as do alarms past 30 days and expired tokens, so 3 years leave the coin record, the purchases and rights for good,
 * and the places (one per series). Then the object's SQLite file is read: its size on disk and, per table, its bytes
 * (SQLite's `dbstat`: pages of the table and its indexes minus free space).
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { benchReaders, benchSeries, type BenchTarget } from './bench-data.ts'

const HEAVY = { months: 36, purchasesPerMonth: 40 }

export type HeavyReader = {
  purchases: number
  topUps: number
  /** The object's SQLite file (and its WAL) on disk. */
  fileBytes: number
  byTable: Record<string, { rows: number; bytes: number }>
  error?: string
}

export async function benchHeavyReader(opts: BenchTarget): Promise<HeavyReader> {
  const { base, persist } = opts
  const purchases = HEAVY.months * HEAVY.purchasesPerMonth
  const out: HeavyReader = { purchases, topUps: HEAVY.months, fileBytes: 0, byTable: {} }
  try {
    const tag = `heavy-${Date.now()}`
    const lo = benchSeries(opts, tag, purchases, 3)
    // a monthly top-up from an operator
    const [reader] = await benchReaders(opts, tag, 1, { coins: HEAVY.purchasesPerMonth * 3, grants: HEAVY.months, subnet: 1 })
    const { id: readerId, token } = reader!
    for (let i = 0; i < purchases; i++) {
      const res = await fetch(`${base}/api/v1/purchase`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': `${tag}-${i}` },
        body: JSON.stringify({ episodeIds: [lo + i], kind: 'POSSESSION' }),
      })
      if (!res.ok) throw new Error(`purchase ${i + 1}: HTTP ${res.status} ${await res.text()}`)
    }
    Object.assign(out, objectFile(persist, readerId))
  } catch (e) {
    out.error = (e as Error).message
  }
  return out
}

/** The size of reader `readerId`'s object file and its tables' bytes, read from a copy. */
function objectFile(persist: string, readerId: number): Pick<HeavyReader, 'fileBytes' | 'byTable'> {
  const root = join(persist, 'v3', 'do')
  for (const dir of readdirSync(root).filter((d) => d.endsWith('-Reader')))
    for (const file of readdirSync(join(root, dir)).filter((f) => /^[0-9a-f]{64}\.sqlite$/.test(f))) {
      const path = join(root, dir, file)
      const tmp = mkdtempSync(join(tmpdir(), 'heavy-'))
      try {
        let fileBytes = 0
        for (const suffix of ['', '-wal'])
          if (existsSync(path + suffix)) {
            fileBytes += statSync(path + suffix).size
            copyFileSync(path + suffix, join(tmp, 'db.sqlite' + suffix))
          }
        const db = new DatabaseSync(join(tmp, 'db.sqlite'))
        try {
          const owner = (db.prepare(`SELECT value FROM facts WHERE key = 'reader'`).get() as { value?: string } | undefined)?.value
          if (Number(owner) !== readerId) continue
          const tables = db
            .prepare(
              `SELECT s.tbl_name AS tbl, SUM(d.pgsize - d.unused) AS bytes FROM dbstat d JOIN sqlite_schema s ON s.name = d.name
                WHERE s.tbl_name NOT LIKE 'sqlite_%' AND s.tbl_name NOT LIKE '_cf_%' GROUP BY s.tbl_name`,
            )
            .all() as { tbl: string; bytes: number }[]
          const byTable: HeavyReader['byTable'] = {}
          for (const t of tables) {
            const rows = Number((db.prepare(`SELECT count(*) AS n FROM "${t.tbl}"`).get() as { n: number }).n)
            if (rows > 0) byTable[t.tbl] = { rows, bytes: t.bytes }
          }
          return { fileBytes, byTable }
        } catch {
          // not a migrated reader object yet
        } finally {
          db.close()
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true })
      }
    }
  throw new Error(`no object file for reader ${readerId}`)
}

/** Lines for the capacity report. */
export function heavyReaderLines(h: HeavyReader): string[] {
  if (h.error) return [`A heavy reader's object: not measured (${h.error})`]
  // the run makes every purchase within minutes: its idempotency keys (kept 24 h) are all still there
  const keys = h.byTable.idempotency_keys?.bytes ?? 0
  const tables = Object.values(h.byTable).reduce((a, t) => a + t.bytes, 0)
  return [
    `A heavy reader's object after ${HEAVY.months} months (${h.purchases} episodes bought for good, ${h.topUps} top-ups): ${((tables - keys) / 1024).toFixed(0)} KB of rows once the idempotency keys are past their 24 h (target < 1,024 KB); ${(h.fileBytes / 1024).toFixed(0)} KB on disk right after the run, ${(keys / 1024).toFixed(0)} KB of it keys`,
    ...Object.entries(h.byTable)
      .sort((a, b) => b[1].bytes - a[1].bytes)
      .map(([t, { rows, bytes }]) => `  ${t.padEnd(24)} ${String(rows).padStart(6)} rows ${(bytes / 1024).toFixed(1).padStart(8)} KB`),
  ]
}
