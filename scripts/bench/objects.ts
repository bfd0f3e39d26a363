/**
 * The readers' objects as a bench reads them (issue 38: each reader's data lives in their Durable Object): rows of one
 * statement over every object's SQLite file under `persist` (wrangler's `--persist-to`), changed since `since`
 * (epoch ms), read-only. An object being written, or without the table yet, is skipped (read again on the next poll).
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'

export function objectRows<T>(persist: string, sql: string, params: (string | number)[] = [], since = 0): T[] {
  const rows: T[] = []
  const root = join(persist, 'v3', 'do')
  for (const dir of readdirSync(root).filter((d) => d.endsWith('-Reader'))) {
    for (const file of readdirSync(join(root, dir)).filter((f) => /^[0-9a-f]{64}\.sqlite$/.test(f))) {
      const path = join(root, dir, file)
      if (statSync(path).mtimeMs < since) continue
      const db = new DatabaseSync(path, { readOnly: true })
      try {
        rows.push(...(db.prepare(sql).all(...params) as T[]))
      } catch {
        // being written or not migrated yet
      } finally {
        db.close()
      }
    }
  }
  return rows
}

/** Gives `amount` coins to the account `email` through the operator API of the local run at `base`. */
export async function grantCoins(base: string, token: string, email: string, amount: number, reason: string): Promise<void> {
  const res = await fetch(`${base}/api/ops/coins`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ email, type: 'COIN', amount, reason }),
  })
  if (!res.ok) throw new Error(`granting coins to ${email}: HTTP ${res.status} ${await res.text()}`)
}
