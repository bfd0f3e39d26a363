/**
 * How the scripts (seed, ops) reach one edition's local D1 and R2: wrangler's `getPlatformProxy` on the
 * same config and persist directory that `wrangler dev --persist-to <dir>` and
 * `wrangler d1 migrations apply DB --local --persist-to <dir>` use, so every tool sees the same data.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getPlatformProxy } from 'wrangler'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The bindings the scripts use. */
export type LocalEnv = { DB: D1Database; MEDIA: R2Bucket; PASSWORD_PEPPER?: string }

/**
 * The wrangler config whose D1/R2 bindings are the edition's: the built worker's config when it was built
 * for this edition (`dist/<id>/server/wrangler.json`, then `dist/server/wrangler.json`), else the source
 * `wrangler.jsonc` with the edition's environment. Both name the same database id, hence the same local file.
 */
export function resolveConfig(edition: string, explicit?: string): { configPath: string; environment?: string } {
  if (explicit)
    return { configPath: resolve(explicit), environment: explicit.endsWith('wrangler.jsonc') && edition !== 'fr' ? edition : undefined }
  for (const candidate of [`dist/${edition}/server/wrangler.json`, 'dist/server/wrangler.json']) {
    const path = resolve(root, candidate)
    if (!existsSync(path)) continue
    try {
      const config = JSON.parse(readFileSync(path, 'utf8')) as { vars?: { EDITION?: string } }
      if ((config.vars?.EDITION ?? 'fr') === edition) return { configPath: path }
    } catch {
      // unreadable build output: fall through to the source config
    }
  }
  return { configPath: resolve(root, 'wrangler.jsonc'), environment: edition === 'fr' ? undefined : edition }
}

/** The command that applies the migrations to the same local database (for error messages). */
export function migrateHint(persistTo: string, configPath: string, environment?: string): string {
  return `npx wrangler d1 migrations apply DB --local --persist-to ${persistTo} -c ${configPath}${environment ? ` --env ${environment}` : ''}`
}

/** Opens the edition's local bindings; call `dispose()` when done. */
export async function openLocal(opts: { edition: string; persistTo: string; config?: string }) {
  const { configPath, environment } = resolveConfig(opts.edition, opts.config)
  const persistPath = resolve(process.cwd(), opts.persistTo, 'v3')
  const proxy = await getPlatformProxy<LocalEnv>({ configPath, environment, persist: { path: persistPath }, remoteBindings: false })
  return { env: proxy.env, dispose: () => proxy.dispose(), configPath, environment, persistPath }
}

/**
 * Empties every reader's object of the local state (`<persist>/v3`'s `do/<worker>-Reader` folders): what a forced
 * re-seed must do with the readers' data that lives there (progress, marks, sessions, alarms, money; docs/ARCHITECTURE.md
 * "Reader objects"), else the demo reader's object, already moved, would keep an earlier run's wallet and never take
 * the seeded rows. Answers how many objects were emptied. A local server still running keeps the objects it has open
 * until it stops.
 */
export function emptyReaderObjects(persistPath: string): number {
  const objects = join(persistPath, 'do')
  if (!existsSync(objects)) return 0
  let emptied = 0
  for (const folder of readdirSync(objects).filter((f) => f.endsWith('-Reader'))) {
    emptied += readdirSync(join(objects, folder)).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite').length
    rmSync(join(objects, folder), { recursive: true, force: true })
  }
  return emptied
}
