import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { homePage, homeSections, seriesDetail } from '../../src/features/catalogue/catalogue.server.ts'
import { WEEKDAYS } from '../../src/features/catalogue/catalogue.ts'

import { audienceSees } from '../../src/features/age/age.ts'

/** A guest's view (never an adult or BL series). */
const GUEST = audienceSees('guest')

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('demo catalogue through the D1 helper', () => {
  it('fills every weekday of the home with series a guest may see, in one query', async () => {
    for (const day of WEEKDAYS) {
      const db = createDb(env.DB)
      const home = await homeSections(db, GUEST, day)
      expect(home.weekly.length, day).toBeGreaterThan(0)
      expect(home.popular.length).toBeGreaterThanOrEqual(6)
      expect(home.free.length).toBeGreaterThan(0)
      expect(db.queryCount).toBe(1)
      const all = [...home.weekly, ...home.popular, ...home.free, ...home.latest]
      expect(all.filter((s) => s.isAdult)).toEqual([]) // guests never get adult covers
    }
  })

  it('reads the home banners in the same query, per audience (which ones: contents.banners.test.ts)', async () => {
    const now = new Date()
    for (const a of [GUEST, { showAdult: true, showBl: true }]) {
      const db = createDb(env.DB)
      const home = await homePage(db, a, 'MONDAY', now)
      expect(db.queryCount).toBe(1)
      expect(home.banners.length).toBeGreaterThan(0)
    }
  })

  it('shows adult series to an audience that may see them', async () => {
    const db = createDb(env.DB)
    const home = await homeSections(db, { showAdult: true, showBl: true }, 'MONDAY', 50)
    expect(home.popular.some((s) => s.isAdult)).toBe(true)
  })

  it('hides BL series where the BL toggle is off', async () => {
    const withBl = await homeSections(createDb(env.DB), { showAdult: false, showBl: true }, 'MONDAY', 50)
    const withoutBl = await homeSections(createDb(env.DB), { showAdult: false, showBl: false }, 'MONDAY', 50)
    expect(withBl.popular.some((s) => s.genre === 'BL')).toBe(true)
    expect(withoutBl.popular.some((s) => s.genre === 'BL')).toBe(false)
  })

  it('reads a series detail with creators, tags and ≥ 10 episodes in 1 query', async () => {
    const db = createDb(env.DB)
    const detail = await seriesDetail(db, 1, GUEST)
    expect(detail).not.toBeNull()
    expect(detail!.creators.length).toBeGreaterThan(0)
    expect(detail!.episodes.length).toBeGreaterThanOrEqual(10)
    expect(detail!.episodes.some((e) => e.free)).toBe(true)
    expect(db.queryCount).toBe(1)
    expect(await seriesDetail(createDb(env.DB), 999_999, GUEST)).toBeNull()
  })
})
