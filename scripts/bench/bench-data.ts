/**
 * What the benches put into a running local worker's state before they measure: SQL on its local D1 (`d1`), a
 * published bench series (`benchSeries`), and readers signed in with coins in their objects (`benchReaders`).
 */
import { execFileSync } from 'node:child_process'
import { LOCAL_OPS_TOKEN, quietEnv, root, wranglerConfig } from '../lib.ts'
import { grantCoins } from './objects.ts'

/** Where a bench writes: the worker at `base`, serving the state under `persist`, of edition `edition`. */
export type BenchTarget = { base: string; persist: string; edition: string }

/** Runs one SQL text on the local D1 of `persist` and returns the rows of its last statement. */
export function d1(sql: string, persist: string, edition: string): Record<string, unknown>[] {
  const out = execFileSync(
    `${root}node_modules/.bin/wrangler`,
    ['d1', 'execute', 'DB', '--local', '--persist-to', persist, '-c', wranglerConfig(edition), '--json', '--command', sql],
    {
      cwd: root,
      env: { ...process.env, ...quietEnv, WRANGLER_LOG: 'log' }, // 'warn' would silence the JSON it prints
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    },
  ).toString()
  const results = JSON.parse(out) as { results: Record<string, unknown>[] }[]
  return results[results.length - 1]?.results ?? []
}

/**
 * A published series titled `title` of `episodes` paid episodes (rent 1 coin, buy `priceBuy`), published in the past:
 * the id of its first episode (the others follow it).
 */
export function benchSeries(at: BenchTarget, title: string, episodes: number, priceBuy = 1): number {
  const [row] = d1(
    `INSERT INTO series (title, status, genre, is_published) VALUES ('${title}', 'COMPLETED', 'DRAMA', 0);
     INSERT INTO episodes (series_id, no, title, is_free, price_rent, price_buy, published_at)
       WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${episodes})
       SELECT (SELECT id FROM series WHERE title = '${title}'), x, 'Bench ' || x, 0, 1, ${priceBuy}, '2026-01-01T00:00:00.000Z' FROM n;
     UPDATE series SET is_published = 1 WHERE title = '${title}';
     SELECT min(e.id) AS lo FROM episodes e JOIN series s ON s.id = e.series_id WHERE s.title = '${title}';`,
    at.persist,
    at.edition,
  )
  const lo = Number(row?.lo)
  if (!Number.isSafeInteger(lo)) throw new Error(`bench series ${title} not created`)
  return lo
}

/** The access token of `email` (the demo reader's password), signed in from `ip` so the sign-in limits tell readers apart. */
export async function signIn(base: string, email: string, ip?: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, ...(ip ? { 'cf-connecting-ip': ip } : {}) },
    body: JSON.stringify({ email, password: 'Reader-2026!' }),
  })
  const token = ((await res.json()) as { data?: { accessToken?: { value?: string } } }).data?.accessToken?.value
  if (!token) throw new Error(`sign-in of ${email} failed (${res.status})`)
  return token
}

/**
 * `count` new readers (`<tag>-<n>@bench.invalid`, the demo reader's password), each given `grants` operator grants of
 * `coins` coins and signed in from an address of its own (`198.19.<subnet>.<n>`): their ids, e-mails and tokens.
 */
export async function benchReaders(
  at: BenchTarget,
  tag: string,
  count: number,
  opts: { coins: number; grants?: number; subnet: number },
): Promise<{ id: number; email: string; token: string }[]> {
  const emails = Array.from({ length: count }, (_, i) => `${tag}-${i + 1}@bench.invalid`)
  const ids = d1(
    `INSERT INTO users (email, password_hash, email_verified_at)
       SELECT value, (SELECT password_hash FROM users WHERE email = 'reader@example.com'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         FROM json_each('${JSON.stringify(emails)}');
     SELECT id, email FROM users WHERE email IN (SELECT value FROM json_each('${JSON.stringify(emails)}'));`,
    at.persist,
    at.edition,
  )
  const idOf = new Map(ids.map((r) => [String(r.email), Number(r.id)]))
  const readers = []
  for (const [i, email] of emails.entries()) {
    for (let g = 0; g < (opts.grants ?? 1); g++) await grantCoins(at.base, LOCAL_OPS_TOKEN, email, opts.coins, `${tag}-${i}-${g}`)
    readers.push({ id: idOf.get(email)!, email, token: await signIn(at.base, email, `198.19.${opts.subnet}.${i + 1}`) })
  }
  return readers
}
