/**
 * Seeds the demo catalogue and accounts into a D1 binding, for worker tests under real workerd
 * (the same rows as `npm run seed`, without images). Idempotent within one database.
 *
 *   import { env } from 'cloudflare:workers'
 *   const demo = await seedDemo(env.DB)            // reader@example.com / Reader-2026!, minor@example.com / Minor-2026!
 */
import { buildDemo, DEMO_ACCOUNTS, type DemoCatalogue } from '../../scripts/seed/data.ts'

/** 'Reader-2026!' under the worker tests' PASSWORD_PEPPER `test-pepper`, in the older PBKDF2 scheme (still accepted; a sign-in upgrades it to argon2id). */
export const READER_PASSWORD_HASH = 'pbkdf2-sha256$100000$zyJl1QaK9s5Rnj0cbc0ilw$wQuMomeiNbuTTD9_q-tIXIxzltRSZJyMrVU2yMpPEaE'
/** 'Minor-2026!', older PBKDF2 scheme as above. */
const MINOR_PASSWORD_HASH = 'pbkdf2-sha256$100000$Zbsl2XeV6OMwtKKRQWHwTQ$IjCTS2XhhmX5_x_ODMyV_zFyPJBZdjEfOIXBU96E5JY'

export { DEMO_ACCOUNTS }

export type SeedDemoOptions = {
  /** Reference time of every demo date (default: now). */
  now?: Date
  /** Coin shop currency (default EUR, the fr edition's). */
  currency?: string
  /** Edition locale of titles and texts (default fr-FR). */
  locale?: string
  /** Edition time zone of the episodes' weekdays (default Europe/Paris, the fr edition's). */
  timeZone?: string
}

/** Writes the demo rows (skips when the database already carries the seed marker); returns the catalogue. */
export async function seedDemo(db: D1Database, opts: SeedDemoOptions = {}): Promise<DemoCatalogue> {
  const demo = buildDemo({
    currency: opts.currency ?? 'EUR',
    locale: opts.locale ?? 'fr-FR',
    timeZone: opts.timeZone ?? 'Europe/Paris',
    now: opts.now ?? new Date(),
    passwordHash: READER_PASSWORD_HASH,
    minorPasswordHash: MINOR_PASSWORD_HASH,
  })
  const marker = await db.prepare(`SELECT value FROM meta WHERE key = 'seed_version'`).first<{ value: string }>()
  if (marker) return demo
  for (let i = 0; i < demo.statements.length; i += 12) {
    await db.batch(demo.statements.slice(i, i + 12).map((sql) => db.prepare(sql)))
  }
  return demo
}
