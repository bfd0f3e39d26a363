/** Small helpers shared by the project's scripts (build, start, test, bench, ops). */
import { spawn, type SpawnOptions } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))

/** Offline-friendly environment for astro and wrangler on machines without network access (no telemetry, no cf lookups). */
export const quietEnv = {
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  ASTRO_TELEMETRY_DISABLED: '1',
  WRANGLER_LOG: process.env.WRANGLER_LOG ?? 'warn',
  /**
   * wrangler dev's local traces (a span per SQL statement, D1 query and object call, kept on disk under
   * `<persist>/v3/observability` with no limit): off unless asked for. Measured on the purchase bench, they took
   * about a quarter of the local server's CPU, and a bench state had grown 2.6 GB of them.
   */
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? 'false',
}

/** The operator API's token of a local run (`npm start` sets it; `npm run ops` uses it when OPS_TOKEN is unset). */
export const LOCAL_OPS_TOKEN = 'dev-ops-token-change-me'

export function editionId(): string {
  return process.env.EDITION ?? 'fr'
}

/**
 * Where `EDITION=<id> npm run build` writes its worker: `dist/<id>`, or under `BUILD_DIR` (the bench builds into
 * dist/bench, a deploy into dist/deploy, so neither replaces the files a running `npm start` serves: issue 40
 * point 5). astro.config.mjs reads the same variable.
 */
export function distDir(id = editionId()): string {
  return `${root}${process.env.BUILD_DIR ?? 'dist'}/${id}`
}

export function wranglerConfig(id = editionId()): string {
  return `${distDir(id)}/server/wrangler.json`
}

/** Runs a command from node_modules/.bin (or PATH), inheriting stdio; rejects on a non-zero exit. */
export function run(cmd: string, args: string[], opts: SpawnOptions = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, ...opts, env: { ...process.env, ...quietEnv, ...opts.env } })
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`)),
    )
  })
}

/** Parses `--name value` and `--flag` arguments. */
export function args(argv = process.argv.slice(2)): Record<string, string | true> {
  const out: Record<string, string | true> = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (!a.startsWith('--')) continue
    const next = argv[i + 1]
    if (next !== undefined && !next.startsWith('--')) {
      out[a.slice(2)] = next
      i++
    } else out[a.slice(2)] = true
  }
  return out
}
