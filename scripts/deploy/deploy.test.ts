/**
 * `npm run deploy` (scripts/deploy.ts, scripts/deploy/plan.ts). No network reaches Cloudflare here, so the real
 * deploy runs against a stand-in `wrangler` put first on PATH: a small script that records its arguments, keeps the
 * account's D1 databases, KV namespaces, R2 buckets, queues and secret names in a JSON file and prints what wrangler
 * prints (JSON listings, text tables, the "Total Upload" line). The real wrangler's dry run of the seven built
 * editions is the "deploy dry runs" step of `npm test` (scripts/test.ts).
 */
import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { quietEnv, root } from '../lib.ts'
import { missingResources, parseTotalUpload, resourcesOf, sizeCheck, unsetSecrets, withRealIds, type BuiltConfig } from './plan.ts'

/** The part of `dist/fr/server/wrangler.json` the deploy reads (as `EDITION=fr npm run build` writes it). */
const built: BuiltConfig = {
  name: 'webtoon-fr',
  vars: { EDITION: 'fr' },
  triggers: { crons: ['*/10 * * * *'] },
  d1_databases: [{ binding: 'DB', database_name: 'webtoon-fr', database_id: '00000000-0000-4000-8000-000000000000' }],
  r2_buckets: [{ binding: 'MEDIA', bucket_name: 'webtoon-media-fr' }],
  kv_namespaces: [
    { binding: 'CACHE', id: 'cache-fr' },
    { binding: 'SESSION', id: 'session-fr' },
  ],
  queues: {
    producers: [{ binding: 'ALARMS', queue: 'webtoon-alarms-fr' }],
    consumers: [{ queue: 'webtoon-alarms-fr', dead_letter_queue: 'webtoon-alarms-dlq-fr' }],
  },
  send_email: [{ name: 'EMAIL' }],
}
const D1_ID = '6f1c0a52-33d4-4c8e-9a51-0d2b7e9f4a10'
/** The listings every deploy reads first (the stand-in's queue listing has one page and an empty second). */
const LISTINGS = ['d1 list --json', 'kv namespace list', 'r2 bucket list', 'queues list --page 1', 'queues list --page 2']

describe('the deploy plan (pure)', () => {
  it('lists what the worker binds to, each queue once, KV by the title it has on the account', () => {
    expect(resourcesOf(built).map((r) => `${r.kind} ${r.name}`)).toEqual([
      'D1 webtoon-fr',
      'R2 webtoon-media-fr',
      'KV webtoon-cache-fr',
      'KV webtoon-session-fr',
      'queue webtoon-alarms-fr',
      'queue webtoon-alarms-dlq-fr',
    ])
  })

  it('finds what is missing from JSON listings and text tables, a name that only starts the same not counting', () => {
    const listings = {
      d1: JSON.stringify([{ uuid: D1_ID, name: 'webtoon-fr' }]),
      kv: JSON.stringify([{ id: 'k1', title: 'webtoon-cache-fr-old' }]),
      r2: 'Listing buckets...\nname:           webtoon-media-fr\ncreation_date:  2026-11-01T00:00:00.000Z\n',
      queues: '┌──┬──┐\n│ id │ name │\n├──┼──┤\n│ q1 │ webtoon-alarms-dlq-fr │\n└──┴──┘\n',
    }
    expect(missingResources(resourcesOf(built), listings).map((r) => r.name)).toEqual([
      'webtoon-cache-fr',
      'webtoon-session-fr',
      'webtoon-alarms-fr',
    ])
    expect(() => missingResources(resourcesOf(built), { ...listings, d1: 'Not logged in.' })).toThrow(
      /cannot read the output of wrangler d1 list --json/,
    )
  })

  it('puts the real ids in place of the placeholders, and refuses when one is still missing', () => {
    const ids = {
      d1: JSON.stringify([{ uuid: D1_ID, name: 'webtoon-fr' }]),
      kv: JSON.stringify([
        { id: 'c0ffee', title: 'webtoon-cache-fr' },
        { id: 'beef', title: 'webtoon-session-fr' },
      ]),
    }
    const real = withRealIds(built, ids)
    expect(real.d1_databases![0]!.database_id).toBe(D1_ID)
    expect(real.kv_namespaces!.map((k) => k.id)).toEqual(['c0ffee', 'beef'])
    expect(built.kv_namespaces![0]!.id).toBe('cache-fr') // the input is left alone
    expect(() => withRealIds(built, { ...ids, kv: '[]' })).toThrow('KV namespace webtoon-cache-fr is not on the account')
  })

  it("reads wrangler's Total Upload line (coloured or not) and checks it against the budget", () => {
    expect(parseTotalUpload('Total Upload: \u001b[1m2516.40 KiB\u001b[22m / gzip: 582.10 KiB\n')).toEqual({ kib: 2516.4, gzipKib: 582.1 })
    expect(parseTotalUpload('--dry-run: exiting now.')).toBeNull()
    expect(sizeCheck('fr', { kib: 2516.4, gzipKib: 582.1 }, { kib: 3072, gzipKib: 768 })).toEqual({
      ok: true,
      line: 'deploy --dry-run fr: 2,516 KiB, gzip 582 KiB (limit 3,072 KiB, gzip 768 KiB) ✓',
    })
    const over = sizeCheck('ar', { kib: 6145, gzipKib: 1290 }) // the project's budget (6,144 KiB, gzip 1,280 KiB), just over
    expect(over.ok).toBe(false)
    expect(over.line).toMatch(/✗ over the budget: 6,145 KiB > 6,144 KiB, gzip 1,290 KiB > 1,280 KiB$/)
  })

  it('names the secrets still unset: required, optional (per login provider), and what mail and SMS lack', () => {
    const fr = loadEdition('fr').edition
    const report = unsetSecrets(fr, built, ['PASSWORD_PEPPER', 'OPS_TOKEN', 'TWILIO_ACCOUNT_SID'])
    expect(report.required).toEqual(['SESSION_SECRET'])
    expect(report.optional).toContain('VAPID_PRIVATE_KEY')
    expect(report.optional).toContain('OAUTH_GOOGLE_CLIENT_ID')
    expect(report.optional).not.toContain('OPS_TOKEN')
    expect(report.delivery).toEqual(['secret TWILIO_AUTH_TOKEN', 'secret TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID'])
    const stripe = unsetSecrets({ ...fr, payment: { provider: 'stripe' } }, built, ['PASSWORD_PEPPER', 'SESSION_SECRET'])
    expect(stripe.required).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'])
  })
})

// ---- the command line, with a stand-in wrangler ----

const dir = mkdtempSync(join(tmpdir(), 'deploy-test-'))
const bin = join(dir, 'bin')
const statePath = join(dir, 'account.json')
const logPath = join(dir, 'calls.txt')
const configPath = join(dir, 'server', 'wrangler.json')
mkdirSync(bin)
mkdirSync(join(dir, 'server'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The stand-in: plain CommonJS for any node on PATH; prints like wrangler 4 and never anything secret. */
writeFileSync(
  join(bin, 'wrangler'),
  `#!/usr/bin/env node
const fs = require('node:fs')
const args = process.argv.slice(2)
const line = args.join(' ')
fs.appendFileSync(${JSON.stringify(logPath)}, line + '\\n')
const s = JSON.parse(fs.readFileSync(${JSON.stringify(statePath)}, 'utf8'))
const save = () => fs.writeFileSync(${JSON.stringify(statePath)}, JSON.stringify(s))
const table = (names) => '┌────┬──────┐\\n│ id │ name │\\n' + names.map((n, i) => '│ q' + i + ' │ ' + n + ' │\\n').join('') + '└────┴──────┘'
if (line.startsWith('deploy --dry-run')) console.log('Attaching additional modules:\\nTotal Upload: ' + s.size + '\\n--dry-run: exiting now.')
else if (line === 'd1 list --json') console.log(JSON.stringify(s.d1, null, 2))
else if (line === 'kv namespace list') console.log(JSON.stringify(s.kv, null, 2))
else if (line === 'r2 bucket list') console.log('Listing buckets...\\n' + s.r2.map((n) => 'name:           ' + n + '\\ncreation_date:  2026-11-01').join('\\n\\n'))
else if (args[0] === 'queues' && args[1] === 'list' && args[2] === '--page') { const size = s.pageSize ?? 100; console.log(table(s.queues.slice((args[3] - 1) * size, args[3] * size))) }
else if (args[0] === 'd1' && args[1] === 'create') { s.d1.push({ uuid: 'uuid-' + args[2], name: args[2] }); save(); console.log('✅ Created') }
else if (args[0] === 'kv' && args[1] === 'namespace' && args[2] === 'create') { s.kv.push({ id: 'id-' + args[3], title: args[3] }); save(); console.log('✨ Success!') }
else if (s.fail && line.startsWith(s.fail)) { console.error('\\u001b[31m✘ [ERROR]\\u001b[0m A request to the Cloudflare API failed. [code: 10006]\\n\\n🪵  Logs were written to "/x.log"'); process.exit(1) }
else if (args[0] === 'r2' && args[1] === 'bucket' && args[2] === 'create') { s.r2.push(args[3]); save(); console.log('Created bucket') }
else if (args[0] === 'queues' && args[1] === 'create') { s.queues.push(args[2]); save(); console.log('Created queue') }
else if (line.startsWith('d1 migrations apply DB --remote -c ')) console.log('Migrations applied')
else if (line.startsWith('deploy -c ')) console.log('Uploaded webtoon-fr\\nDeployed webtoon-fr triggers\\n  schedule: */10 * * * *')
else if (line.startsWith('secret list -c ')) console.log(JSON.stringify(s.secrets.map((name) => ({ name, type: 'secret_text' })), null, 2))
else { console.error('✘ [ERROR] stand-in wrangler: unexpected ' + line); process.exit(1) }
`,
)
chmodSync(join(bin, 'wrangler'), 0o755)

type Account = {
  size: string
  d1: { uuid: string; name: string }[]
  kv: { id: string; title: string }[]
  r2: string[]
  queues: string[]
  secrets: string[]
  /** queues per page of `queues list` (wrangler's own: one page per call) */
  pageSize: number
  /** a command line the stand-in fails, as wrangler does when the API refuses */
  fail: string
}
const account = (a: Partial<Account> = {}) =>
  writeFileSync(
    statePath,
    JSON.stringify({ size: '2516.40 KiB / gzip: 582.10 KiB', d1: [], kv: [], r2: [], queues: [], secrets: [], ...a }),
  )
const calls = () => readFileSync(logPath, 'utf8').trim().split('\n').filter(Boolean)

beforeEach(() => {
  writeFileSync(logPath, '')
  writeFileSync(configPath, JSON.stringify(built))
  account()
})

/** Secret values in the deploy's environment: they must never reach its output. */
const SECRET_VALUES = { PASSWORD_PEPPER: 'pepper-value-never-printed', SESSION_SECRET: 'session-value-never-printed-0123456789' }

function deploy(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ...quietEnv, ...SECRET_VALUES, PATH: [bin, process.env.PATH].join(delimiter) }
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/deploy.ts', ...args], { cwd: root, env }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('npm run deploy', () => {
  it('refuses a bad command line with one clear line and calls no wrangler', async () => {
    const cases: [string[], RegExp][] = [
      [[], /^deploy: which edition\? e\.g\. npm run deploy -- fr --dry-run$/m],
      [['xx', '--dry-run'], /^deploy: Unknown edition "xx": expected one of fr, de, th, tw, jp, kr, ar$/m],
      [['fr', 'de'], /^deploy: one edition at a time \(got fr, de\)$/m],
      [['fr', '--dryrun'], /^deploy: Unknown option '--dryrun'/m],
    ]
    for (const [args, message] of cases) {
      const r = await deploy(...args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).toContain('Usage: npm run deploy -- <edition>')
    }
    expect(calls()).toEqual([])
  })

  it('--dry-run prints the size line and touches nothing on the account; over the budget it fails', async () => {
    const ok = await deploy('fr', '--dry-run', '-c', configPath)
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toContain(`deploy --dry-run fr: 2,516 KiB, gzip 582 KiB (limit 6,144 KiB, gzip 1,280 KiB) ✓`)
    expect(calls()).toEqual([expect.stringMatching(/^deploy --dry-run --outdir \S+ -c \S+wrangler\.json$/)])

    account({ size: '6200.00 KiB / gzip: 990.00 KiB' })
    const over = await deploy('fr', '--dry-run', '-c', configPath)
    expect(over.code).toBe(1)
    expect(over.stderr).toContain(
      'deploy --dry-run fr: 6,200 KiB, gzip 990 KiB (limit 6,144 KiB, gzip 1,280 KiB) ✗ over the budget: 6,200 KiB > 6,144 KiB',
    )
  })

  it('refuses an edition that turns on what belongs to local runs, before listing anything', async () => {
    const r = await deploy('fr', '-c', configPath, '--yes')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('deploy: fr turns on what belongs to local runs; nothing changed:')
    expect(r.stderr).toContain('payment.provider "sandbox"')
    expect(calls().filter((c) => !c.startsWith('deploy --dry-run'))).toEqual([])
  })

  it('without --yes prints the plan from the listings and creates nothing', async () => {
    account({ d1: [{ uuid: D1_ID, name: 'webtoon-fr' }], queues: ['webtoon-alarms-fr'] })
    const r = await deploy('fr', '-c', configPath, '--allow-local-switches')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('deploy fr: worker webtoon-fr (wrangler environment top level)')
    expect(r.stdout).toContain('  D1 webtoon-fr (DB): exists')
    expect(r.stdout).toContain('  R2 webtoon-media-fr (MEDIA): create')
    expect(r.stdout).toContain('  KV webtoon-cache-fr (CACHE): create')
    expect(r.stdout).toContain('  queue webtoon-alarms-fr: exists')
    expect(r.stdout).toContain('  queue webtoon-alarms-dlq-fr: create')
    expect(r.stdout).toContain('deploy webtoon-fr with cron */10 * * * *')
    expect(r.stdout).toContain('Nothing changed: run again with --yes to do it.')
    expect(calls().slice(1)).toEqual(LISTINGS)
    expect(JSON.parse(readFileSync(configPath, 'utf8'))).toEqual(built)
  })

  it('reads every page of the queue listing: a queue on the third page exists, one on no page is created', async () => {
    const others = ['other-a', 'other-b', 'other-c', 'other-d']
    account({ d1: [{ uuid: D1_ID, name: 'webtoon-fr' }], queues: [...others, 'webtoon-alarms-fr'], pageSize: 2 })
    const r = await deploy('fr', '-c', configPath, '--allow-local-switches')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('  queue webtoon-alarms-fr: exists')
    expect(r.stdout).toContain('  queue webtoon-alarms-dlq-fr: create')
    expect(calls().filter((c) => c.startsWith('queues list'))).toEqual([1, 2, 3, 4].map((n) => `queues list --page ${n}`))
  })

  it('with --yes creates only what is missing, writes the real ids, migrates, deploys and names unset secrets only', async () => {
    account({ d1: [{ uuid: D1_ID, name: 'webtoon-fr' }], queues: ['webtoon-alarms-fr'], secrets: ['PASSWORD_PEPPER'] })
    const r = await deploy('fr', '-c', configPath, '--allow-local-switches', '--yes')
    expect(r.code, r.stderr).toBe(0)
    const path = configPath
    expect(calls().slice(1)).toEqual([
      ...LISTINGS,
      'r2 bucket create webtoon-media-fr',
      'kv namespace create webtoon-cache-fr',
      'kv namespace create webtoon-session-fr',
      'queues create webtoon-alarms-dlq-fr',
      'd1 list --json',
      'kv namespace list',
      `d1 migrations apply DB --remote -c ${path}`,
      `deploy -c ${path}`,
      `secret list -c ${path}`,
    ])
    const written = JSON.parse(readFileSync(configPath, 'utf8')) as BuiltConfig
    expect(written.d1_databases![0]!.database_id).toBe(D1_ID)
    expect(written.kv_namespaces!.map((k) => k.id)).toEqual(['id-webtoon-cache-fr', 'id-webtoon-session-fr'])
    expect(r.stdout).toContain('Migrations applied')
    expect(r.stdout).toContain('✗ required secrets unset')
    expect(r.stdout).toMatch(/required secrets unset \(.*\): SESSION_SECRET$/m)
    expect(r.stdout).toContain('optional secrets unset: OPS_TOKEN, VAPID_PRIVATE_KEY')
    expect(r.stdout).toContain('deployed fr')
    for (const value of Object.values(SECRET_VALUES)) expect(r.stdout + r.stderr).not.toContain(value)

    // a second run finds everything and creates nothing
    writeFileSync(logPath, '')
    const again = await deploy('fr', '-c', configPath, '--allow-local-switches', '--yes')
    expect(again.code, again.stderr).toBe(0)
    expect(calls().filter((c) => c.includes(' create '))).toEqual([])
  })

  it('stops at the first wrangler failure with its one-line reason, deploying nothing', async () => {
    account({ fail: 'r2 bucket create' })
    const failed = await deploy('fr', '-c', configPath, '--allow-local-switches', '--yes')
    expect(failed.code).toBe(1)
    expect(failed.stderr.trim()).toBe(
      'deploy: wrangler r2 bucket create webtoon-media-fr failed (1): A request to the Cloudflare API failed. [code: 10006]',
    )
    expect(calls().some((c) => c.startsWith('deploy -c') || c.startsWith('d1 migrations'))).toBe(false)
    expect(JSON.parse(readFileSync(configPath, 'utf8'))).toEqual(built)

    writeFileSync(logPath, '')
    account({ d1: 'Not logged in' as unknown as [] })
    const r = await deploy('fr', '-c', configPath, '--allow-local-switches', '--yes')
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^deploy: cannot read the output of wrangler d1 list --json/m)
    expect(calls().some((c) => c.startsWith('deploy -c'))).toBe(false)
  })
})
