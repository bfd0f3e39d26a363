/**
 * `npm start`: builds the edition (EDITION, default fr), applies the local D1 migrations, seeds the
 * demo data once, and serves the worker in workerd through wrangler on http://localhost:8787 (PORT).
 * It also stands in for the cron (every 10 minutes, see localCron). Options: --port N, --persist-to DIR (default .wrangler/state), --no-build, --no-images, --shared-address (every
 * client is one address, as in the browser suite: only the per-edition sign-in and sending limits count),
 * --var NAME:VALUE (repeatable: one more var for the worker, e.g. the bench's PUSH_SERVICE_BASE), --log-level L (wrangler's:
 * warn by default; `log` shows the worker's console.log lines too, which the capacity bench reads).
 */
import { LOCAL_OPS_TOKEN, args, editionId, run, wranglerConfig } from './lib.ts'
import { existsSync } from 'node:fs'

const opts = args()
const id = editionId()
const port = String(opts.port ?? process.env.PORT ?? '8787')
const persist = String(opts['persist-to'] ?? '.wrangler/state')
const config = wranglerConfig(id)
/** `--var NAME:VALUE`, repeatable (args() keeps one value per name): added to devVars below. */
const extraVars = process.argv.slice(2).flatMap((a, i, all) => (a === '--var' && all[i + 1] ? [all[i + 1]!] : []))
/** Local development secrets; a deployment sets its own with `wrangler secret put`. */
const devVars = [
  'PASSWORD_PEPPER:dev-pepper-change-me',
  'SESSION_SECRET:dev-session-secret-change-me-0123456789',
  'DEV_OUTBOX:1',
  'PAYMENT_WEBHOOK_SECRET:dev-webhook-secret-change-me',
  `OPS_TOKEN:${LOCAL_OPS_TOKEN}`,
  // Web Push: a local key pair only (a deployment makes its own: README "Secrets")
  'VAPID_PUBLIC_KEY:BEFIJZYVll1B8pGoPGWDrWvi5XI1E9t7giIYgvoeMatmDwf2WyGlLeD16biaLhx52V6nGG2FLDT0f8nNKYk5dn0',
  'VAPID_PRIVATE_KEY:Xj3dhHd5bs2get6OC13HpNwVXIUs3LGuAJqDfal-N3k',
  'VAPID_SUBJECT:mailto:push@localhost.example',
]

if (!opts['no-build'] || !existsSync(config)) await run(process.execPath, ['scripts/build.ts'], { env: { EDITION: id } })
await run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist, '-c', config])
await run(process.execPath, ['scripts/seed.ts', '--persist-to', persist, ...(opts['no-images'] ? ['--no-images'] : [])], {
  env: { EDITION: id },
})
console.log(`\nServing edition ${id} on http://localhost:${port}\n`)
const devArgs = [
  'dev',
  '-c',
  config,
  '--port',
  port,
  '--ip',
  '127.0.0.1',
  '--persist-to',
  persist,
  '--show-interactive-dev-session=false',
  '--live-reload=false',
  '--log-level',
  String(opts['log-level'] ?? 'warn'),
  ...[...devVars, ...(opts['shared-address'] ? ['LOCAL_SHARED_ADDRESS:1'] : []), ...extraVars].flatMap((v) => ['--var', v]),
]
/**
 * wrangler dev runs no cron by itself (it says so at start): the local run triggers the worker's `scheduled` handler
 * through wrangler's local endpoint once the server answers and every 10 minutes after, as a deployed edition's cron
 * does (so the seed's new episode is announced; issue 13).
 */
const CRON_EVERY_MS = 10 * 60_000
async function localCron(): Promise<void> {
  const origin = `http://127.0.0.1:${port}`
  for (;;) {
    const healthy = await fetch(`${origin}/_/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (healthy) {
      await fetch(`${origin}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/10 * * * *')}`).catch(() => undefined)
      await new Promise((r) => setTimeout(r, CRON_EVERY_MS).unref())
    } else await new Promise((r) => setTimeout(r, 1000).unref())
  }
}
void localCron()

// Two wrangler dev processes starting in the same instant can race for an internal port; a start that
// fails within seconds is retried (twice at most). A server that ran and then stopped is not restarted.
for (let attempt = 1; ; attempt++) {
  const startedAt = Date.now()
  try {
    await run('wrangler', devArgs)
    break
  } catch (e) {
    if (attempt >= 3 || Date.now() - startedAt > 30_000) throw e
    console.warn(`wrangler dev stopped at start (${(e as Error).message}); retrying`)
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000))
  }
}
