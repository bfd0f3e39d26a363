/**
 * `npm run deploy -- <edition> [--dry-run] [--no-build] [--yes] [--allow-local-switches]` (README "Deploy"): builds the
 * edition, checks its bundle against the project's budget (scripts/deploy/plan.ts `BUNDLE_BUDGET`), and, unless
 * --dry-run, creates what the edition lacks on the Cloudflare account (D1, R2, KV, queues), writes the real D1 and KV
 * ids into the built `dist/<id>/server/wrangler.json` (wrangler.jsonc keeps its placeholders), applies migrations/
 * to the remote database, deploys the worker with its cron and names the secrets still unset (never their values).
 * Without --yes a real deploy prints its plan and changes nothing. Every wrangler call goes through `wrangler()`.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadEdition } from '../src/lib/edition/load.ts'
import { localSwitches } from '../src/lib/edition/local-switches.ts'
import type { Edition } from '../src/lib/edition/schema.ts'
import { quietEnv, root, run, wranglerConfig } from './lib.ts'
import {
  createCommand,
  missingResources,
  parseTotalUpload,
  resourcesOf,
  secretNames,
  sizeCheck,
  unsetSecrets,
  withRealIds,
  wranglerFailure,
  type BuiltConfig,
  type Listings,
} from './deploy/plan.ts'

const USAGE = `Usage: npm run deploy -- <edition> [--dry-run] [--no-build] [--yes] [--allow-local-switches] [-c FILE]
  <edition>               fr, de, th, tw, jp, kr or ar (its wrangler environment: env.<id> of wrangler.jsonc, fr the top level)
  --dry-run               build and check the bundle's size against the budget; nothing is sent to Cloudflare
  --no-build              use the existing dist/<id> (npm test builds the seven editions just before); without it
                          the edition is built into dist/deploy/<id>, leaving a running npm start's files alone
  --yes                   do it: without it a deploy lists the account's resources, prints its plan and changes nothing
  --allow-local-switches  deploy even though the edition turns on what belongs to local runs (e.g. payment "sandbox")
  -c, --config FILE       the built wrangler.json to deploy (default dist/<id>/server/wrangler.json; no build)
Needs wrangler logged in (npx wrangler login, or CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID) for a deploy.`

class UsageError extends Error {}

/**
 * Every wrangler call of the deploy: the first `wrangler` on PATH (`npm run` puts node_modules/.bin first; the unit
 * test puts a stand-in before it; node_modules/.bin is appended as a fallback), stdin closed so wrangler never waits
 * for an answer (the confirmation is --yes), its log level at `log` (the sizes and listings are printed there), output
 * captured and returned; `show` also prints it.
 */
function wrangler(args: string[], show = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const PATH = [process.env.PATH, join(root, 'node_modules', '.bin')].filter(Boolean).join(delimiter)
    const child = spawn('wrangler', args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...quietEnv, WRANGLER_LOG: 'log', PATH },
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString('utf8')
      if (show) process.stdout.write(b)
    })
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')))
    child.on('error', (e) => reject(new Error(`wrangler ${args.join(' ')}: ${e.message}`)))
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve(out)
      reject(new Error(`wrangler ${args.join(' ')} failed (${code ?? signal}): ${wranglerFailure(err || out)}`))
    })
  })
}

function parse(argv: string[]) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        'dry-run': { type: 'boolean' },
        'no-build': { type: 'boolean' },
        yes: { type: 'boolean' },
        'allow-local-switches': { type: 'boolean' },
        config: { type: 'string', short: 'c' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) return null
  if (positionals.length === 0) throw new UsageError('which edition? e.g. npm run deploy -- fr --dry-run')
  if (positionals.length > 1) throw new UsageError(`one edition at a time (got ${positionals.join(', ')})`)
  let edition: Edition
  try {
    edition = loadEdition(positionals[0]!).edition
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const config = values.config
  return {
    edition,
    config,
    dryRun: !!values['dry-run'],
    build: !values['no-build'] && config === undefined,
    yes: !!values.yes,
    allowLocal: !!values['allow-local-switches'],
  }
}

/** A path as the operator knows it: relative to the repository when inside it. */
const shown = (path: string) => (path.startsWith(root) ? path.slice(root.length) : path)

function readBuilt(id: string, given: string | undefined): { path: string; config: BuiltConfig } {
  const path = given === undefined ? wranglerConfig(id) : resolve(given)
  if (!existsSync(path)) throw new Error(`no build of ${id} (${shown(path)}): run EDITION=${id} npm run build, or drop --no-build`)
  const config = JSON.parse(readFileSync(path, 'utf8')) as BuiltConfig
  if (config.vars?.EDITION !== id) throw new Error(`${shown(path)} is a build of ${config.vars?.EDITION ?? '?'}, not ${id}: rebuild it`)
  return { path, config }
}

/** `wrangler deploy --dry-run` into a temporary directory; its "Total Upload" line against the budget. */
async function checkSize(id: string, configPath: string): Promise<boolean> {
  const out = mkdtempSync(join(tmpdir(), `deploy-${id}-`))
  try {
    const size = parseTotalUpload(await wrangler(['deploy', '--dry-run', '--outdir', out, '-c', configPath]))
    if (!size) throw new Error(`wrangler deploy --dry-run of ${id} printed no "Total Upload" line`)
    const check = sizeCheck(id, size)
    ;(check.ok ? console.log : console.error)(check.line)
    return check.ok
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** The data rows of a table wrangler drew (`│ … │` lines after the header). */
const tableRows = (text: string) => Math.max(0, text.split('\n').filter((l) => l.startsWith('│')).length - 1)

async function list(): Promise<Listings> {
  // one at a time: each starts a wrangler process on a shared machine
  const d1 = await wrangler(['d1', 'list', '--json'])
  const kv = await wrangler(['kv', 'namespace', 'list'])
  const r2 = await wrangler(['r2', 'bucket', 'list'])
  // `queues list` prints one page at a time (the others list everything): read pages until one lists no queue
  let queues = ''
  for (let page = 1, last = ''; page <= 100; page++) {
    const text = await wrangler(['queues', 'list', '--page', String(page)])
    if (tableRows(text) === 0 || text === last) break
    queues += text + '\n'
    last = text
  }
  return { d1, kv, r2, queues }
}

async function main(argv: string[]): Promise<number> {
  let opts
  try {
    opts = parse(argv)
  } catch (e) {
    console.error(`deploy: ${(e as Error).message}\n\n${USAGE}`)
    return 2
  }
  if (!opts) {
    console.log(USAGE)
    return 0
  }
  const { edition } = opts
  const id = edition.id
  // its own build folder: a running `npm start` keeps serving dist/<id> (issue 40 point 5)
  if (opts.build) {
    process.env.BUILD_DIR = 'dist/deploy'
    await run(process.execPath, ['scripts/build.ts'], { env: { EDITION: id } })
  }
  const { path, config } = readBuilt(id, opts.config)
  const rel = shown(path)
  if (!(await checkSize(id, path))) return 1

  const switches = localSwitches(edition, { ...config.vars })
  if (opts.dryRun) {
    for (const s of switches) console.log(`  note: ${s.setting} turns on ${s.turnsOn} (a deploy needs --allow-local-switches)`)
    return 0
  }
  if (switches.length > 0 && !opts.allowLocal) {
    console.error(`deploy: ${id} turns on what belongs to local runs; nothing changed:`)
    for (const s of switches) console.error(`  ${s.setting}: ${s.turnsOn}`)
    console.error('Fix the edition, or deploy it as it is with --allow-local-switches.')
    return 1
  }

  const resources = resourcesOf(config)
  const missing = missingResources(resources, await list())
  const crons = config.triggers?.crons ?? []
  console.log(`deploy ${id}: worker ${config.name} (wrangler environment ${id === 'fr' ? 'top level' : `env.${id}`})`)
  for (const r of resources)
    console.log(`  ${r.kind} ${r.name}${r.binding ? ` (${r.binding})` : ''}: ${missing.includes(r) ? 'create' : 'exists'}`)
  console.log(`  then: write the D1 and KV ids into ${rel} (wrangler.jsonc keeps its placeholders),`)
  console.log(`        apply migrations/ to ${config.d1_databases?.[0]?.database_name ?? 'DB'} (remote),`)
  console.log(`        deploy ${config.name}${crons.length ? ` with cron ${crons.join(', ')}` : ''}, and name the secrets still unset`)
  for (const s of switches) console.log(`  with ${s.setting}: ${s.turnsOn}`)
  if (!opts.yes) {
    console.log('Nothing changed: run again with --yes to do it.')
    return 0
  }

  for (const r of missing) {
    await wrangler(createCommand(r))
    console.log(`created ${r.kind} ${r.name}`)
  }
  const ids = { d1: await wrangler(['d1', 'list', '--json']), kv: await wrangler(['kv', 'namespace', 'list']) }
  writeFileSync(path, JSON.stringify(withRealIds(config, ids)))
  console.log(`wrote the D1 and KV ids into ${rel} (wrangler.jsonc unchanged)`)
  await wrangler(['d1', 'migrations', 'apply', 'DB', '--remote', '-c', path], true)
  await wrangler(['deploy', '-c', path], true)

  const report = unsetSecrets(edition, config, secretNames(await wrangler(['secret', 'list', '-c', path])))
  const put = `npx wrangler secret put NAME -c ${rel}`
  if (report.required.length) console.log(`✗ required secrets unset (${put}): ${report.required.join(', ')}`)
  if (report.optional.length) console.log(`  optional secrets unset: ${report.optional.join(', ')}`)
  for (const gap of report.delivery) console.log(`  mail/SMS lacks: ${gap}`)
  if (!report.required.length) console.log('✓ every required secret is set')
  console.log(`deployed ${id}`)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(`deploy: ${e.message}`)
    process.exit(1)
  },
)
