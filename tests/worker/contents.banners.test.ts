import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { homePage } from '../../src/features/catalogue/catalogue.server.ts'
import { BANNER_DISPLAYS, type Audience } from '../../src/features/catalogue/catalogue.ts'
import { audienceSees } from '../../src/features/age/age.ts'
import type { DemoCatalogue } from '../../scripts/seed/data.ts'

let demo: DemoCatalogue
const now = new Date()
const GUEST = audienceSees('guest')

/** The HOME banners the home page shows `audience` at `now` (read with the page, in its one query). */
const activeBanners = async (db: ReturnType<typeof createDb>, audience: Audience, at: Date) =>
  (await homePage(db, audience, 'MONDAY', at)).banners

/** Active period (spec §3): started (or no start) and not yet ended (or no end); ISO 8601 UTC strings compare as text. */
function isBannerActive(b: { startsAt: string | null; endsAt: string | null }, at: Date): boolean {
  const iso = at.toISOString()
  return (b.startsAt === null || b.startsAt <= iso) && (b.endsAt === null || b.endsAt > iso)
}

beforeAll(async () => {
  demo = await seedDemo(env.DB, { now })
})

describe('home banners', () => {
  it('the active period the banners are checked against: from its start (inclusive) to its end (exclusive); open ends never close', () => {
    const at = new Date('2026-11-22T12:00:00.000Z')
    expect(isBannerActive({ startsAt: null, endsAt: null }, at)).toBe(true)
    expect(isBannerActive({ startsAt: '2026-11-22T12:00:00.000Z', endsAt: null }, at)).toBe(true)
    expect(isBannerActive({ startsAt: '2026-11-22T12:00:00.001Z', endsAt: null }, at)).toBe(false)
    expect(isBannerActive({ startsAt: null, endsAt: '2026-11-22T12:00:00.000Z' }, at)).toBe(false)
    expect(isBannerActive({ startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' }, at)).toBe(true)
  })

  it('lists the HOME banners in their active period, in order, without adult ones for a guest (1 query)', async () => {
    const db = createDb(env.DB)
    const banners = await activeBanners(db, GUEST, now)
    expect(db.queryCount).toBe(1)
    const rows = demo.tables.banners!
    const expected = rows
      .filter(
        (b) =>
          b.placement === 'HOME' &&
          b.is_adult === 0 &&
          isBannerActive({ startsAt: b.starts_at as string, endsAt: b.ends_at as string }, now),
      )
      .map((b) => Number(b.id))
    expect(banners.map((b) => b.id)).toEqual(expected)
    expect(new Set(banners.map((b) => b.display))).toEqual(new Set(BANNER_DISPLAYS))
    // the expired and the adult banner are not there
    expect(rows.filter((b) => b.placement === 'HOME').length).toBeGreaterThan(banners.length + 1)
  })

  it('shows adult banners to an audience that may see adult series', async () => {
    const banners = await activeBanners(createDb(env.DB), { showAdult: true, showBl: true }, now)
    const adult = demo.tables.banners!.filter((b) => b.placement === 'HOME' && b.is_adult === 1).map((b) => Number(b.id))
    expect(adult.length).toBeGreaterThan(0)
    expect(banners.map((b) => b.id)).toEqual(expect.arrayContaining(adult))
  })

  it('ends a banner at its end time', async () => {
    const later = new Date(now.getTime() + 400 * 24 * 3600 * 1000)
    expect(await activeBanners(createDb(env.DB), GUEST, later)).toEqual([])
  })
})
