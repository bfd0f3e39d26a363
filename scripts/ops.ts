/**
 * `npm run ops -- <command>`: operator commands on one edition's local D1/R2 (docs/API.md "Operator API": the same
 * actions as `POST /api/ops/coins`), reached through wrangler's getPlatformProxy like the seed; `alarm send` and
 * `episode publish` call the operator API of a running edition instead (OPS_URL, OPS_TOKEN), through `opsApi`.
 * `npm run ops -- --help` lists the commands; `npm run ops -- help <command>` explains one.
 */
import { resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { loadEdition } from '../src/lib/edition/load.ts'
import { AppError } from '../src/lib/errors/catalogue.ts'
import { createDb } from '../src/lib/server/db.ts'
import { AlarmBroadcastRequest } from '../src/features/alarm/alarm.ts'
import { COIN_TYPES, MAX_ADMIN_ADJUST, type Balances, type CoinType } from '../src/features/wallet/wallet.ts'
import { adminAdjust, userBalances, userLedger, userLots, walletTotals, type LedgerEntry } from '../src/features/wallet/wallet.server.ts'
import { LOCAL_OPS_TOKEN, editionId, quietEnv, run } from './lib.ts'
// wrangler and sharp take a second to load: imported by the commands on the local D1/R2 only (withDb, import)
import type { openLocal } from './seed/proxy.ts'

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | undefined>
type Command = {
  usage: string
  summary: string
  details: string
  options: Options
  run: (v: Values) => Promise<void>
  /** Calls the operator API of a running edition (OPS_URL) rather than the local D1/R2. */
  remote?: true
}

const GLOBAL: Options = {
  'persist-to': { type: 'string', default: '.wrangler/state' },
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
}
const GLOBAL_HELP = `Global options:
  --persist-to DIR   local state directory (default .wrangler/state), as for wrangler dev / d1 migrations
  -c, --config FILE  wrangler config (default: the built worker's, else wrangler.jsonc)
  EDITION=<id>       environment variable choosing the edition (default fr)`
const REMOTE_HELP = `Environment (alarm send, episode publish):
  OPS_URL     the running edition's address (default http://localhost:$PORT, PORT default 8787: \`npm start\`)
  OPS_TOKEN   its operator token (Authorization: Bearer); default the local run's token, for a local OPS_URL only
  Against a URL that is not local (localhost, 127.x, ::1) nothing is sent without --yes: the plan is printed.`

const ADJUST_OPTIONS: Options = {
  email: { type: 'string' },
  type: { type: 'string' },
  amount: { type: 'string' },
  reason: { type: 'string' },
}

/** Thrown for a bad command line: printed with the command's usage, exit code 2. */
class UsageError extends Error {}

/** A refusal of the operator API (`{result: "ERROR", code, message}`) or an answer that is not the API's: exit code 1. */
class ApiError extends Error {}

const SEND_OPTIONS: Options = {
  text: { type: 'string' },
  reason: { type: 'string' },
  series: { type: 'string' },
  link: { type: 'string' },
  yes: { type: 'boolean' },
}

const COMMANDS: Record<string, Command> = {
  'coins grant': {
    usage: 'coins grant --email E --type COIN|FREE_COIN|BONUS|MILEAGE --amount N --reason TEXT [--expires 2027-01-31]',
    summary: 'give coins to an account (a new lot, ledger CHARGE with source ADMIN)',
    details: `  --expires DATE  the lot expires at the end of that day (UTC), or at an ISO instant; default never.
  Prints the ledger entry and the new balances.`,
    options: { ...ADJUST_OPTIONS, expires: { type: 'string' } },
    run: (v) => adjust(v, +1),
  },
  'coins deduct': {
    usage: 'coins deduct --email E --type COIN|FREE_COIN|BONUS|MILEAGE --amount N --reason TEXT',
    summary: 'take coins back (ledger CANCEL with source ADMIN)',
    details: `  Draws only lots of --type, earliest expiry first, in one transaction; refuses when the balance of that
  type is short (nothing changes). Prints the ledger entries and the new balances.`,
    options: ADJUST_OPTIONS,
    run: (v) => adjust(v, -1),
  },
  'coins show': {
    usage: 'coins show --email E',
    summary: "an account's balances, lots and last 20 ledger rows",
    details: `  Also checks the wallet invariant: Σ lots' remaining = Σ ledger amounts.`,
    options: { email: { type: 'string' }, limit: { type: 'string', default: '20' } },
    run: show,
  },
  reseed: {
    usage: 'reseed [--no-images]',
    summary: 'wipe and re-seed the demo data (scripts/seed.ts --force)',
    details: `  Empties every seeded table (accounts made by hand too) and seeds the demo again.`,
    options: { 'no-images': { type: 'boolean' } },
    run: reseed,
  },
  import: {
    usage: 'import --dir <folder>',
    summary: 'import a series from a folder of images + series.json; prints the new series id',
    details: `  series.json: title, description, genre, status, type (IMAGE|TEXT), isAdult, isBl, readingDirection,
  creators [{name, role}], tags [], schedule [weekdays or TEN], cover (file), episodes [{no, title, free,
  priceRent, priceBuy, images [files, top to bottom], alt? [one text per image], transcript? [per image, its
  lines in reading order: [{kind: speech|caption|sfx, speaker?, text}], [] for none], publishedAt?}].
  Example: scripts/ops/sample-series.
  Images become WebP at 640/828/1080 px (cover 256/384/640/1200) in R2 MEDIA under covers/<id>/ and
  series/<id>/ep/<no>/<n>/, like the seed's.`,
    options: { dir: { type: 'string' } },
    run: importCommand,
  },
  'alarm send': {
    usage: 'alarm send --text TEXT --reason TEXT [--series N] [--link /path] [--yes]',
    summary: 'send a notice alarm to every reader, or to the readers of one series (POST /api/ops/alarms)',
    details: `  --text TEXT    the alarm's text, shown as written (1 to 200 characters)
  --reason TEXT  why it is sent, stored with the broadcast (1 to 200 characters)
  --series N     only the readers of series N (a favourite or a reading in progress); default every reader
  --link PATH    the page it opens, a path of the same site (e.g. /notice/3)
  --yes          send to an OPS_URL that is not local (without it, only the plan is printed)
  The queue consumer writes the alarms in batches; prints the broadcast id.`,
    options: SEND_OPTIONS,
    run: alarmSend,
    remote: true,
  },
  'episode publish': {
    usage: 'episode publish --id N --reason TEXT [--yes]',
    summary: "publish an episode now and queue its alarms to its series' favouriting readers (POST /api/ops/episodes/{id}/publish)",
    details: `  --id N         the episode's id (not its number in the series)
  --reason TEXT  why (1 to 200 characters); the API has no field for it yet: it is only printed in this output
  --yes          publish on an OPS_URL that is not local (without it, only the plan is printed)
  An episode scheduled later is published now; an earlier one keeps its date. Its alarms are queued once: publishing
  an episode already announced (by the cron or a previous publish) changes nothing and says so.`,
    options: { id: { type: 'string' }, reason: { type: 'string' }, yes: { type: 'boolean' } },
    run: episodePublish,
    remote: true,
  },
}

// ───────────────────────────── commands ─────────────────────────────

async function withDb<T>(v: Values, fn: (env: Awaited<ReturnType<typeof openLocal>>['env']) => Promise<T>): Promise<T> {
  const edition = editionId()
  loadEdition(edition) // an unknown EDITION stops here with the list of editions
  const { openLocal } = await import('./seed/proxy.ts')
  const local = await openLocal({ edition, persistTo: String(v['persist-to']), config: v.config as string | undefined })
  try {
    return await fn(local.env)
  } finally {
    await local.dispose()
  }
}

function need(v: Values, name: string): string {
  const value = v[name]
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`)
  return value
}

function coinType(v: Values): CoinType {
  const type = need(v, 'type').toUpperCase()
  if (!(COIN_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${COIN_TYPES.join(', ')}`)
  return type as CoinType
}

async function adjust(v: Values, sign: 1 | -1): Promise<void> {
  const email = need(v, 'email')
  const type = coinType(v)
  const text = need(v, 'amount')
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_ADMIN_ADJUST) {
    throw new UsageError(`--amount must be a whole number from 1 to ${MAX_ADMIN_ADJUST.toLocaleString('en')}`)
  }
  const reason = need(v, 'reason')
  const expires = v.expires as string | undefined
  await withDb(v, async (env) => {
    const db = createDb(env.DB)
    const before =
      sign < 0
        ? await userLots(db, email)
            .then((u) => userBalances(db, u.userId))
            .catch(() => null)
        : null
    try {
      const res = await adminAdjust(db, { email, type, amount: sign * Number(text), reason, ...(expires ? { expiresAt: expires } : {}) })
      console.log(`${sign > 0 ? 'granted' : 'deducted'} ${text} ${type} ${sign > 0 ? 'to' : 'from'} ${email}`)
      printEntries(res.entries)
      printBalances(res.balances)
    } catch (e) {
      if (e instanceof AppError && (e.code === 'COIN_INSUFFICIENT' || e.code === 'MILEAGE_INSUFFICIENT') && before) {
        throw new Error(`${e.code}: ${email} has ${before[type]} ${type} that can be deducted, less than ${text}; nothing changed`, {
          cause: e,
        })
      }
      throw e
    }
  })
}

async function show(v: Values): Promise<void> {
  const email = need(v, 'email')
  const limit = Number(v.limit)
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive whole number')
  await withDb(v, async (env) => {
    const db = createDb(env.DB)
    const { userId, lots } = await userLots(db, email)
    const { entries } = await userLedger(db, email, limit)
    const totals = await walletTotals(db, userId)
    console.log(`${email} (user ${userId})`)
    printBalances(await userBalances(db, userId))
    console.log(`\nlots (${lots.length}), in spend order:`)
    const now = Date.now()
    printTable(
      lots.map((l) => ({
        id: l.id,
        type: l.type,
        amount: l.amount,
        remaining: l.remaining,
        expires: l.expiresAt ? `${date(l.expiresAt)}${Date.parse(l.expiresAt) <= now ? ' (expired)' : ''}` : 'never',
        source: l.source,
        ref: l.ref ?? '',
        created: date(l.createdAt),
      })),
    )
    console.log(`\nlast ${entries.length} ledger rows, newest first:`)
    printEntries(entries)
    const okay = totals.lots === totals.ledger && (totals.minRemaining ?? 0) >= 0
    console.log(
      `\ninvariant: Σ lots remaining ${totals.lots} ${okay ? '=' : '≠'} Σ ledger ${totals.ledger}${okay ? ' ✓' : '  ✗ INCONSISTENT'}`,
    )
    if (!okay) process.exitCode = 1
  })
}

async function reseed(v: Values): Promise<void> {
  // seed.ts runs from the project root: hand it an absolute state directory
  const args = ['scripts/seed.ts', '--force', '--persist-to', resolve(String(v['persist-to']))]
  if (v['no-images']) args.push('--no-images')
  if (v.config) args.push('--config', resolve(String(v.config)))
  await run(process.execPath, args)
}

async function importCommand(v: Values): Promise<void> {
  const dir = need(v, 'dir')
  const { importSeries } = await import('./ops/import.ts')
  await withDb(v, async (env) => {
    const started = performance.now()
    const res = await importSeries(env, dir, { log: (line) => console.error(line) })
    console.error(
      `import: done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${res.episodes} episodes, ${res.slices} slices, ` +
        `${res.objects} R2 objects (${(res.bytes / 1024).toFixed(0)} KiB)`,
    )
    console.log(`series id ${res.seriesId}`)
  })
}

// ───────────────────────────── operator API (remote commands) ─────────────────────────────

type Target = { url: string; token: string; local: boolean }

/** The running edition the remote commands call: OPS_URL (default the local run's port) and its token. */
function target(): Target {
  const given = process.env.OPS_URL || `http://localhost:${process.env.PORT || 8787}`
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new UsageError(`OPS_URL "${given}" is not a URL (e.g. http://localhost:8787)`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`OPS_URL "${given}" must be an http(s) address`)
  const host = url.hostname
  const local = host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]'
  const token = process.env.OPS_TOKEN || (local ? LOCAL_OPS_TOKEN : '')
  if (!token) throw new UsageError(`OPS_TOKEN is required for ${url.origin} (the local default token is only used on a local OPS_URL)`)
  return { url: given.replace(/\/+$/, ''), token, local }
}

/** Prints the plan; refuses (exit 2, nothing sent) on a URL that is not local without --yes. */
function confirm(v: Values, to: Target, plan: string[]): void {
  console.log([`plan (${to.url}${to.local ? ', a local run' : ''}):`, ...plan.map((line) => `  ${line}`)].join('\n'))
  if (!to.local && !v.yes) throw new UsageError(`${to.url} is not a local run: nothing sent; add --yes to do it`)
}

/**
 * One POST to the operator API; answers the envelope's `data` or throws ApiError with the API's code and message
 * (`notFound` says what a 404 NOT_EXIST means for this call).
 */
async function opsApi<T>(to: Target, path: string, body: unknown, notFound: string): Promise<T> {
  let res: Response
  try {
    res = await fetch(`${to.url}/api/ops${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${to.token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message
    throw new ApiError(`cannot reach ${to.url} (${cause}); is the edition running (npm start) and OPS_URL right?`, { cause: e })
  }
  const answer = (await res.json().catch(() => null)) as { result?: string; data?: T; code?: string; message?: string } | null
  if (res.ok && answer?.result === 'SUCCESS') return answer.data as T
  if (answer?.result === 'ERROR' && answer.code) {
    const hint =
      res.status === 401
        ? ' (check OPS_TOKEN)'
        : answer.code === 'NOT_EXIST'
          ? ` (${notFound}, or the operator API is off: no OPS_TOKEN on the server)`
          : ''
    throw new ApiError(`${answer.code} (HTTP ${res.status}) from POST /api/ops${path}: ${answer.message ?? ''}${hint}`)
  }
  throw new ApiError(`HTTP ${res.status} from POST ${to.url}/api/ops${path} is not an operator API answer`)
}

/** A positive row id given as `--name` (digits only). */
function rowId(v: Values, name: string): number {
  const text = need(v, name)
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(`--${name} must be a positive whole number (an id), not "${text}"`)
  return Number(text)
}

function reasonOf(v: Values): string {
  const reason = need(v, 'reason').trim()
  if (reason.length > 200) throw new UsageError(`--reason must be 1 to 200 characters (it has ${reason.length})`)
  return reason
}

async function alarmSend(v: Values): Promise<void> {
  const text = need(v, 'text')
  const request = {
    text,
    reason: reasonOf(v),
    ...(v.link !== undefined ? { link: String(v.link) } : {}),
    ...(v.series !== undefined ? { seriesId: rowId(v, 'series') } : {}),
  }
  const parsed = AlarmBroadcastRequest.safeParse(request) // the API's own rules, checked before anything is sent
  if (!parsed.success) {
    const hints: Record<string, string> = {
      text: `--text must be 1 to 200 characters (it has ${text.trim().length})`,
      link: '--link must be a path of this site, e.g. /notice/3 (no scheme, no host, no spaces, at most 300 characters)',
      seriesId: '--series must be a positive whole number',
      reason: '--reason must be 1 to 200 characters',
    }
    const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))]
    throw new UsageError(fields.map((f) => hints[f] ?? f).join('; '))
  }
  const to = target()
  const body = parsed.data
  confirm(v, to, [
    `send a notice alarm to ${body.seriesId ? `the readers of series ${body.seriesId} (a favourite or a reading in progress)` : 'every reader'}`,
    `text:   ${JSON.stringify(body.text)}`,
    `link:   ${body.link ?? '(none)'}`,
    `reason: ${body.reason}`,
  ])
  const res = await opsApi<{ broadcastId: number }>(to, '/alarms', body, body.seriesId ? `no series ${body.seriesId}` : 'no such route')
  console.log(`sent: broadcast ${res.broadcastId} queued; the queue consumer writes its alarms`)
}

async function episodePublish(v: Values): Promise<void> {
  const id = rowId(v, 'id')
  const reason = reasonOf(v)
  const to = target()
  confirm(v, to, [
    `publish episode ${id} now (an earlier publication date is kept) and queue its alarms to the readers who favourited its series, once`,
    `reason: ${reason} (printed here only: the API records no reason for a publish)`,
  ])
  const res = await opsApi<{ episodeId: number; publishedAt: string; announced: boolean }>(
    to,
    `/episodes/${id}/publish`,
    {},
    `no episode ${id}`,
  )
  console.log(
    res.announced
      ? `published: episode ${res.episodeId}, published at ${res.publishedAt}; its alarms are queued`
      : `unchanged: episode ${res.episodeId} (published at ${res.publishedAt}) was already announced; no alarm queued`,
  )
}

// ───────────────────────────── output ─────────────────────────────

function date(iso: string): string {
  return iso.replace('T', ' ').slice(0, 16)
}

function printTable(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) {
    console.log('  (none)')
    return
  }
  const columns = Object.keys(rows[0]!)
  const width = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)))
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((cell, i) => (typeof rows[0]![columns[i]!] === 'number' ? cell.padStart(width[i]!) : cell.padEnd(width[i]!)))
      .join('  ')
      .trimEnd()
  console.log(line(columns))
  console.log(line(width.map((w) => '─'.repeat(w))))
  for (const r of rows) console.log(line(columns.map((c) => String(r[c]))))
}

function printEntries(entries: LedgerEntry[]): void {
  printTable(
    entries.map((e) => ({
      id: e.id,
      date: date(e.createdAt),
      kind: e.kind,
      type: e.type,
      source: e.source,
      amount: e.amount,
      lot: e.lotId ?? '',
      ref: e.ref ?? '',
      description: e.description ?? '',
    })),
  )
}

function printBalances(b: Balances): void {
  console.log(`balances: BONUS ${b.BONUS}, FREE_COIN ${b.FREE_COIN}, COIN ${b.COIN} (spendable ${b.total}); MILEAGE ${b.MILEAGE}`)
  for (const e of b.nextExpiries.slice(0, 5)) console.log(`  expires ${date(e.expiresAt)}: ${e.amount} ${e.type}`)
}

// ───────────────────────────── command line ─────────────────────────────

function helpText(): string {
  const width = Math.max('help <command>'.length, ...Object.keys(COMMANDS).map((n) => n.length))
  return [
    'usage: npm run ops -- <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    `  ${'help <command>'.padEnd(width)}  details of one command`,
    '',
    GLOBAL_HELP,
    '',
    REMOTE_HELP,
    '',
    'Examples:',
    '  npm run ops -- coins grant --email reader@example.com --type BONUS --amount 50 --reason "support #123" --expires 2027-01-31',
    '  npm run ops -- alarm send --series 1 --text "Chapter 12 is delayed a week" --reason "author sick" --link /notice/3',
  ].join('\n')
}

function commandHelp(name: string): string {
  const c = COMMANDS[name]!
  return `usage: npm run ops -- ${c.usage}\n\n${c.summary}\n${c.details}\n\n${c.remote ? REMOTE_HELP : GLOBAL_HELP}`
}

/** The command named by the leading words of argv (`coins grant`, `import`, …). */
function commandOf(positionals: string[]): string | undefined {
  const two = positionals.slice(0, 2).join(' ')
  if (COMMANDS[two]) return two
  if (positionals[0] && COMMANDS[positionals[0]]) return positionals[0]
  return undefined
}

async function main(argv: string[]): Promise<number> {
  for (const [k, value] of Object.entries(quietEnv)) process.env[k] ??= value
  const loose = parseArgs({ args: argv, options: GLOBAL, allowPositionals: true, strict: false })
  const words = loose.positionals
  if (words.length === 0) {
    console.log(helpText())
    return loose.values.help ? 0 : 2
  }
  if (words[0] === 'help') {
    const name = commandOf(words.slice(1))
    if (words.length > 1 && !name) {
      console.error(`ops: unknown command "${words.slice(1).join(' ')}"\n\n${helpText()}`)
      return 2
    }
    console.log(name ? commandHelp(name) : helpText())
    return 0
  }
  const name = commandOf(words)
  if (!name) {
    console.error(`ops: unknown command "${words.join(' ')}"\n\n${helpText()}`)
    return 2
  }
  const command = COMMANDS[name]!
  let values: Values
  try {
    const parsed = parseArgs({ args: argv, options: { ...GLOBAL, ...command.options }, allowPositionals: true, strict: true })
    const extra = parsed.positionals.slice(name.split(' ').length)
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`)
    values = parsed.values as Values // no option is declared `multiple`
  } catch (e) {
    console.error(`ops: ${(e as Error).message}\n\n${commandHelp(name)}`)
    return 2
  }
  if (values.help) {
    console.log(commandHelp(name))
    return 0
  }
  try {
    await command.run(values)
    return typeof process.exitCode === 'number' ? process.exitCode : 0
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`ops: ${e.message}\n\nusage: npm run ops -- ${command.usage}`)
      return 2
    }
    if (e instanceof AppError) console.error(`ops: ${describeAppError(e, values)}`)
    else console.error(`ops: ${(e as Error).message ?? e}`) // ApiError, ImportError: their message is the report
    return 1
  }
}

function describeAppError(e: AppError, v: Values): string {
  switch (e.code) {
    case 'NOT_FOUND_USER':
      return `NOT_FOUND_USER: no live account with e-mail ${v.email}`
    case 'INVALID_PARAMETER': {
      const hints: Record<string, string> = {
        email: '--email must be an e-mail address',
        amount: `--amount must be a whole number from 1 to ${MAX_ADMIN_ADJUST.toLocaleString('en')}`,
        reason: '--reason must be 1 to 200 characters',
        expiresAt: '--expires must be a future date (YYYY-MM-DD, end of that day UTC) or an ISO instant',
      }
      const fields = String(e.details?.fields ?? '')
        .split(', ')
        .filter(Boolean)
      return `INVALID_PARAMETER: ${fields.map((f) => hints[f] ?? f).join('; ') || 'bad input'}`
    }
    default:
      return e.code
  }
}

process.exitCode = await main(process.argv.slice(2))
