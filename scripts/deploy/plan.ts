/**
 * The rules of `npm run deploy -- <edition>` (scripts/deploy.ts), pure: what an edition's built worker needs on
 * Cloudflare (D1, R2, KV, queues, from `dist/<id>/server/wrangler.json`), which of those wrangler's listings lack,
 * the real ids written into that built config, the bundle's size against the project's budget, and which secrets
 * are still unset (names only). README "Deploy" describes the command.
 */
import { deliveryGaps } from '../../src/lib/messaging/messaging.ts'
import type { Edition } from '../../src/lib/edition/schema.ts'

/**
 * The project's bundle budget, checked by every dry run (so by `npm test` for the seven editions). Cloudflare's
 * own limit is on the compressed size: 3 MiB on the free plan, 10 MiB on the paid plan (64 MiB before
 * compression). The budget sits about a fifth above the biggest edition measured on 2026-11-27 (5,174 KiB, gzip
 * 984 KiB), so growth is noticed long before the free plan's 3 MiB is reached. On 2026-12-05 the editions had grown to
 * 6,087–6,140 KiB; what a page's island imports only in the browser rode in the worker (the viewer's late site script:
 * the age popup's React DOM client, 485 KB), and once left out they were 5,558–5,611 KiB, gzip 1,130–1,134.
 */
const BUNDLE_BUDGET = { kib: 6144, gzipKib: 1280 }

/** The part of a built worker's wrangler.json the deploy reads and fills in. */
export type BuiltConfig = {
  name: string
  vars?: Record<string, string>
  triggers?: { crons?: string[] }
  d1_databases?: { binding: string; database_name: string; database_id: string }[]
  r2_buckets?: { binding: string; bucket_name: string }[]
  kv_namespaces?: { binding: string; id: string }[]
  queues?: { producers?: { binding: string; queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] }
  send_email?: { name: string }[]
}

type ResourceKind = 'D1' | 'R2' | 'KV' | 'queue'
/** One thing the worker binds to, by the name it has on the account (a KV namespace's title). */
export type Resource = { kind: ResourceKind; name: string; binding?: string }

/** What wrangler's four listings printed: `d1 list --json`, `kv namespace list` (JSON), `r2 bucket list`, `queues list` (text). */
export type Listings = { d1: string; kv: string; r2: string; queues: string }

/** The KV namespace of a binding on the account: `webtoon-cache-fr` for CACHE of fr (wrangler.jsonc only holds a placeholder id). */
const kvTitle = (edition: string, binding: string) => `webtoon-${binding.toLowerCase()}-${edition}`

/** The built worker's edition (`vars.EDITION`). */
function configEdition(config: BuiltConfig): string {
  const id = config.vars?.EDITION
  if (!id) throw new Error(`${config.name}: the built wrangler.json has no vars.EDITION`)
  return id
}

/** Every resource the worker binds to, D1 first, each queue once. */
export function resourcesOf(config: BuiltConfig): Resource[] {
  const edition = configEdition(config)
  const out: Resource[] = []
  for (const d of config.d1_databases ?? []) out.push({ kind: 'D1', name: d.database_name, binding: d.binding })
  for (const b of config.r2_buckets ?? []) out.push({ kind: 'R2', name: b.bucket_name, binding: b.binding })
  for (const k of config.kv_namespaces ?? []) out.push({ kind: 'KV', name: kvTitle(edition, k.binding), binding: k.binding })
  const queues = new Set<string>()
  for (const p of config.queues?.producers ?? []) queues.add(p.queue)
  for (const c of config.queues?.consumers ?? []) {
    queues.add(c.queue)
    if (c.dead_letter_queue) queues.add(c.dead_letter_queue)
  }
  for (const q of queues) out.push({ kind: 'queue', name: q })
  return out
}

/** The JSON array in a wrangler listing (anything wrangler prints around it is skipped). */
function jsonList<T>(text: string, what: string): T[] {
  const start = text.indexOf('[')
  const end = text.lastIndexOf(']')
  try {
    if (start < 0 || end < start) throw new Error('no JSON array')
    const list = JSON.parse(text.slice(start, end + 1)) as unknown
    if (!Array.isArray(list)) throw new Error('not an array')
    return list as T[]
  } catch (e) {
    throw new Error(`cannot read the output of wrangler ${what}: ${(e as Error).message}`, { cause: e })
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** True when a text listing (a table or `name: …` lines) names `name` as a whole word. */
const namesIn = (text: string, name: string) => new RegExp(`(^|[\\s│|:])${escapeRegExp(name)}($|[\\s│|])`, 'm').test(text)

/** The id of each D1 database (by name) and KV namespace (by title) the listings show. */
function idsOf(listings: Pick<Listings, 'd1' | 'kv'>): { d1: Map<string, string>; kv: Map<string, string> } {
  const d1 = new Map(jsonList<{ uuid: string; name: string }>(listings.d1, 'd1 list --json').map((d) => [d.name, d.uuid]))
  const kv = new Map(jsonList<{ id: string; title: string }>(listings.kv, 'kv namespace list').map((k) => [k.title, k.id]))
  return { d1, kv }
}

/** The resources the account lacks, in the order of `resourcesOf`. */
export function missingResources(resources: Resource[], listings: Listings): Resource[] {
  const ids = idsOf(listings)
  return resources.filter((r) => {
    if (r.kind === 'D1') return !ids.d1.has(r.name)
    if (r.kind === 'KV') return !ids.kv.has(r.name)
    return !namesIn(r.kind === 'R2' ? listings.r2 : listings.queues, r.name)
  })
}

/** The wrangler command that creates a missing resource. */
export function createCommand(r: Resource): string[] {
  if (r.kind === 'D1') return ['d1', 'create', r.name]
  if (r.kind === 'R2') return ['r2', 'bucket', 'create', r.name]
  if (r.kind === 'KV') return ['kv', 'namespace', 'create', r.name]
  return ['queues', 'create', r.name]
}

/**
 * The built config with the account's real D1 and KV ids in place of wrangler.jsonc's placeholders
 * (`00000000-…`, `cache-fr`). Throws naming the first resource the listings do not show.
 */
export function withRealIds(config: BuiltConfig, listings: Pick<Listings, 'd1' | 'kv'>): BuiltConfig {
  const edition = configEdition(config)
  const ids = idsOf(listings)
  const need = (map: Map<string, string>, name: string, what: string) => {
    const id = map.get(name)
    if (!id) throw new Error(`${what} ${name} is not on the account after creating it: run the deploy again`)
    return id
  }
  return {
    ...config,
    d1_databases: (config.d1_databases ?? []).map((d) => ({ ...d, database_id: need(ids.d1, d.database_name, 'D1 database') })),
    kv_namespaces: (config.kv_namespaces ?? []).map((k) => ({ ...k, id: need(ids.kv, kvTitle(edition, k.binding), 'KV namespace') })),
  }
}

export type BundleSize = { kib: number; gzipKib: number }

/** wrangler's output without its colours. */
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '')

/** Why a wrangler call failed, in one line: its `[ERROR]` line, else its last lines (the log file's address left out). */
export function wranglerFailure(output: string): string {
  const lines = plain(output)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.includes('Logs were written'))
  const error = lines.find((l) => l.includes('[ERROR]'))
  return error ? error.replace(/^.*\[ERROR\]\s*/, '') : lines.slice(-3).join(' ')
}

/** wrangler's "Total Upload: 5173.85 KiB / gzip: 984.02 KiB" line (the sum of the uploaded modules), or null. */
export function parseTotalUpload(output: string): BundleSize | null {
  const m = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(plain(output))
  return m ? { kib: Number(m[1]), gzipKib: Number(m[2]) } : null
}

const kib = (n: number) => `${Math.round(n).toLocaleString('en-US')} KiB`

/** One line per edition: `deploy --dry-run fr: 5,174 KiB, gzip 984 KiB (limit 6,144 KiB, gzip 1,280 KiB) ✓`, ✗ and why when over. */
export function sizeCheck(edition: string, size: BundleSize, budget = BUNDLE_BUDGET): { ok: boolean; line: string } {
  const over: string[] = []
  if (size.kib > budget.kib) over.push(`${kib(size.kib)} > ${kib(budget.kib)}`)
  if (size.gzipKib > budget.gzipKib) over.push(`gzip ${kib(size.gzipKib)} > ${kib(budget.gzipKib)}`)
  const line = `deploy --dry-run ${edition}: ${kib(size.kib)}, gzip ${kib(size.gzipKib)} (limit ${kib(budget.kib)}, gzip ${kib(budget.gzipKib)})`
  return over.length === 0 ? { ok: true, line: `${line} ✓` } : { ok: false, line: `${line} ✗ over the budget: ${over.join(', ')}` }
}

/** The secret names `wrangler secret list` printed (JSON `[{name, type}]`; values are never part of it). */
export const secretNames = (output: string) => jsonList<{ name: string }>(output, 'secret list').map((s) => s.name)

export type SecretReport = { required: string[]; optional: string[]; delivery: string[] }

/**
 * What the deployed edition still lacks, by name (README "Secrets"): required secrets, optional ones (each turns a
 * feature on) and what mail and SMS lack (`deliveryGaps`). A name counts as set when it is a secret or a var.
 */
export function unsetSecrets(
  edition: Pick<Edition, 'payment' | 'mail' | 'sms' | 'loginProviders' | 'krAdultAuth'>,
  config: BuiltConfig,
  secrets: string[],
): SecretReport {
  const set = new Set([...secrets, ...Object.keys(config.vars ?? {})])
  const unset = (names: string[]) => names.filter((n) => !set.has(n))
  const required = ['PASSWORD_PEPPER', 'SESSION_SECRET']
  if (edition.payment.provider === 'stripe') required.push('STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET')
  const optional = ['OPS_TOKEN', 'VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY', 'VAPID_SUBJECT']
  for (const p of edition.loginProviders) optional.push(`OAUTH_${p.toUpperCase()}_CLIENT_ID`, `OAUTH_${p.toUpperCase()}_CLIENT_SECRET`)
  if (edition.krAdultAuth) optional.push('CARRIER_SECRET')
  const env = Object.fromEntries([...set].map((n) => [n, 'set']))
  if ((config.send_email ?? []).some((b) => b.name === 'EMAIL')) env.EMAIL = 'set'
  return { required: unset(required), optional: unset(optional), delivery: deliveryGaps(edition, env) }
}
