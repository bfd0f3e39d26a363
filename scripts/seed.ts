/**
 * `npx node scripts/seed.ts [--persist-to .wrangler/state] [--force] [--no-images] [--config <wrangler config>] [--verbose]`
 *
 * Seeds the demo catalogue and accounts (docs/API.md "Demo data") into the local D1 and R2 of one edition
 * (`EDITION`, default fr), through wrangler's `getPlatformProxy`, so the data lands exactly where
 * `wrangler dev --persist-to <dir>` and `wrangler d1 migrations apply DB --local --persist-to <dir>` read it.
 *
 * Idempotent: a finished seed writes `meta.seed_version`; later runs do nothing. `--force` empties the
 * seeded tables (catalogue, shop and every account: a dev reset) and the readers' objects, and seeds again (a local
 * server still running keeps the objects it has open: restart it). A run that stopped half-way
 * (no marker) is wiped and redone. Migrations must have been applied first.
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { getPlatformProxy } from 'wrangler'
import { loadEdition } from '../src/lib/edition/load.ts'
import { hashPassword } from '../src/lib/server/password.ts'
import type { MetaRow } from '../src/lib/server/db-types.ts'
import { buildDemo, wipeStatements, DEMO_ACCOUNTS, SEED_VERSION, type DemoImage } from './seed/data.ts'
import { emptyReaderObjects, migrateHint, resolveConfig } from './seed/proxy.ts'
import { generateImages, type Rendition } from './seed/images.ts'
import { communityStatements } from './seed/community.ts'

const t0 = performance.now()
const verbose = process.argv.includes('--verbose')
/** Phase timings with `--verbose`. */
function trace(what: string): void {
  if (verbose) console.error(`seed: ${((performance.now() - t0) / 1000).toFixed(2)} s ${what}`)
}
const DEV_PEPPER = 'dev-pepper-change-me'
const STATEMENTS_PER_BATCH = 12
const UPLOAD_CONCURRENCY = Number(process.env.SEED_UPLOAD_CONCURRENCY ?? 16)

type Env = { DB: D1Database; MEDIA: R2Bucket; PASSWORD_PEPPER?: string }

function parseArgs(argv: string[]): { persistTo: string; force: boolean; images: boolean; config?: string } {
  const out = { persistTo: '.wrangler/state', force: false, images: true, config: undefined as string | undefined }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--force') out.force = true
    else if (a === '--no-images') out.images = false
    else if (a === '--verbose') continue
    else if (a === '--persist-to') out.persistTo = argv[++i] ?? usage(`${a} needs a directory`)
    else if (a.startsWith('--persist-to=')) out.persistTo = a.slice('--persist-to='.length)
    else if (a === '--config' || a === '-c') out.config = argv[++i] ?? usage(`${a} needs a path`)
    else usage(`unknown argument ${a}`)
  }
  return out
}

function usage(message: string): never {
  console.error(
    `seed: ${message}\nusage: npx node scripts/seed.ts [--persist-to <dir>] [--force] [--no-images] [--config <wrangler config>] [--verbose]`,
  )
  process.exit(2)
}

async function runStatements(db: D1Database, statements: string[]): Promise<void> {
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) {
    await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH).map((sql) => db.prepare(sql)))
  }
}

/** R2 object listing what the seed uploaded: key → content hash. */
const MANIFEST_KEY = '_seed/manifest.json'

/**
 * Renders (or reuses) the images and uploads them to R2 while rendering goes on. A manifest object in the
 * bucket remembers the content of every key uploaded, so a `--force` re-seed uploads only what changed.
 * (Reading each listed object's ETag through the platform proxy costs a round trip per property.)
 */
async function seedImages(media: R2Bucket, images: DemoImage[]): Promise<string> {
  trace('reading the R2 manifest')
  let manifest: Record<string, string> = {}
  try {
    manifest = ((await (await media.get(MANIFEST_KEY))?.json()) as Record<string, string> | undefined) ?? {}
  } catch {
    manifest = {}
  }
  trace(`${Object.keys(manifest).length} objects in the manifest; rendering and uploading`)
  const uploadedNow: Record<string, string> = {}
  const queue: Rendition[] = []
  const waiters: (() => void)[] = []
  const wakeAll = () => {
    for (const w of waiters.splice(0)) w()
  }
  let rendering = true
  let uploaded = 0
  let unchanged = 0
  const started = performance.now()
  const uploader = async () => {
    for (;;) {
      const r = queue.shift()
      if (!r) {
        if (!rendering) return
        await new Promise<void>((resolve) => waiters.push(resolve))
        continue
      }
      if (manifest[r.key] === r.hash) {
        unchanged++
        continue
      }
      await media.put(r.key, await readFile(r.path), {
        httpMetadata: { contentType: 'image/webp', cacheControl: 'public, max-age=31536000, immutable' },
      })
      uploadedNow[r.key] = r.hash
      uploaded++
    }
  }
  const uploaders = Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, uploader))
  uploaders.catch(() => {}) // awaited below; this only keeps an early failure from being reported as unhandled
  try {
    const generated = await generateImages(images, {
      onReady: (rs) => {
        queue.push(...rs)
        wakeAll()
      },
    })
    rendering = false
    trace('rendering done')
    wakeAll()
    await uploaders
    trace('uploads done')
    if (uploaded > 0) {
      await media.put(MANIFEST_KEY, JSON.stringify({ ...manifest, ...uploadedNow }), { httpMetadata: { contentType: 'application/json' } })
    }
    return (
      `${generated.renditions.length} R2 renditions of ${generated.unique} distinct images ` +
      `(${generated.rendered} rendered, ${generated.cached} from cache, render ${(generated.ms / 1000).toFixed(1)} s; ` +
      `${uploaded} uploaded, ${unchanged} unchanged; images done in ${((performance.now() - started) / 1000).toFixed(1)} s)`
    )
  } finally {
    rendering = false
    wakeAll()
  }
}

async function meta(db: D1Database, key: string): Promise<string | null> {
  const row = await db.prepare('SELECT value FROM meta WHERE key = ?').bind(key).first<Pick<MetaRow, 'value'>>()
  return row?.value ?? null
}

async function main(): Promise<void> {
  const started = performance.now()
  const args = parseArgs(process.argv.slice(2))
  const editionId = process.env.EDITION ?? 'fr'
  const { edition } = loadEdition(editionId)
  const { configPath, environment } = resolveConfig(editionId, args.config)
  const persistPath = resolve(process.cwd(), args.persistTo, 'v3')

  trace(`platform proxy: ${configPath}${environment ? ` env ${environment}` : ''}, persist ${persistPath}`)
  const proxy = await getPlatformProxy<Env>({ configPath, environment, persist: { path: persistPath }, remoteBindings: false })
  try {
    const { DB: db, MEDIA: media } = proxy.env
    let seeded: string | null
    try {
      seeded = await meta(db, 'seed_version')
    } catch (e) {
      throw new Error(
        `cannot read the meta table (${(e as Error).message}). Apply the migrations first:\n  ${migrateHint(args.persistTo, configPath, environment)}`,
        { cause: e },
      )
    }
    const imagesDone = (await meta(db, 'seed_images')) !== null

    if (seeded !== null && !args.force) {
      if (!args.images || imagesDone) {
        const note = seeded === SEED_VERSION ? '' : ` (the code now has version ${SEED_VERSION}: run with --force to re-seed)`
        console.log(`seed: edition ${editionId} already seeded (version ${seeded})${note}; nothing to do. --force re-seeds.`)
        return
      }
    }

    trace('hashing passwords, building rows')
    const pepper = process.env.PASSWORD_PEPPER ?? proxy.env.PASSWORD_PEPPER ?? DEV_PEPPER
    const [passwordHash, minorPasswordHash] = await Promise.all([
      hashPassword(DEMO_ACCOUNTS.reader.password, pepper),
      hashPassword(DEMO_ACCOUNTS.minor.password, pepper),
    ])
    const demo = buildDemo({
      currency: edition.currency,
      locale: edition.locale,
      timeZone: edition.timeZone,
      now: new Date(),
      passwordHash,
      minorPasswordHash,
    })

    // Images first, so the marker is written only once everything is in place.
    let imageSummary = 'images skipped'
    if (args.images) imageSummary = await seedImages(media, demo.images)

    if (seeded !== null && !args.force) {
      // Rows are there from an earlier --no-images run; only the images were missing.
      await db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('seed_images', '1')`).run()
      console.log(
        `seed: edition ${editionId}: ${imageSummary}; rows already seeded. ${((performance.now() - started) / 1000).toFixed(1)} s`,
      )
      return
    }

    trace('writing D1')
    const dbStarted = performance.now()
    const leftovers = await db.prepare('SELECT (SELECT count(*) FROM series) + (SELECT count(*) FROM users) AS n').first<{ n: number }>()
    const wiped = args.force || (leftovers?.n ?? 0) > 0
    // the readers' own data lives in their objects: a wipe empties them too, so the seeded rows move in afresh
    const objects = wiped ? emptyReaderObjects(persistPath) : 0
    if (wiped) await db.batch(wipeStatements().map((sql) => db.prepare(sql)))
    await runStatements(db, demo.statements)
    await runStatements(db, communityStatements(edition.locale))
    if (args.images) await db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('seed_images', '1')`).run()
    const dbMs = performance.now() - dbStarted

    const c = demo.counts
    console.log(
      `seed: edition ${editionId} (${edition.locale}, ${edition.currency})${wiped ? ` wiped (${objects} readers' objects emptied) and` : ''} seeded v${SEED_VERSION}: ` +
        `${c.series} series, ${c.episodes} episodes, ${c.slices} slices, ${c.notices} notices, ${c.faqs} FAQ, ${c.coupons} coupons, ` +
        `${c.coin_products} coin products, ${c.events} events, ${c.users} accounts; D1 ${demo.statements.length} statements in ${(dbMs / 1000).toFixed(1)} s; ` +
        `${imageSummary}; total ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
  } finally {
    await proxy.dispose()
  }
}

main().catch((e: unknown) => {
  console.error(`seed: ${(e as Error).stack ?? e}`)
  process.exit(1)
})
