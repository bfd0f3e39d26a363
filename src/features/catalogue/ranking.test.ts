import { describe, expect, it } from 'vitest'
import { ACTIVITY_UNIT, RANKING_WEIGHTS, rankingFirstDay, VIEWS_CAP } from './ranking.ts'
import { homeToday } from './catalogue.ts'

/** The score refreshRanking writes (ranking.server.ts SQL) from a series' counters over the window. */
const rankingScore = (s: { readers: number; purchases: number; views: number }) =>
  (s.readers * RANKING_WEIGHTS.reader + s.purchases * RANKING_WEIGHTS.purchase) * ACTIVITY_UNIT + Math.min(Math.max(s.views, 0), VIEWS_CAP)

describe('ranking score', () => {
  it('puts any recent reader or purchase above views alone, a purchase above a read, views as tie-break', () => {
    const viewsOnly = rankingScore({ readers: 0, purchases: 0, views: 5_000_000 })
    const oneReader = rankingScore({ readers: 1, purchases: 0, views: 0 })
    const onePurchase = rankingScore({ readers: 0, purchases: 1, views: 0 })
    expect(oneReader).toBeGreaterThan(viewsOnly)
    expect(onePurchase).toBeGreaterThan(oneReader)
    expect(rankingScore({ readers: 3, purchases: 0, views: 20 })).toBeGreaterThan(rankingScore({ readers: 3, purchases: 0, views: 10 }))
    expect(viewsOnly).toBe(VIEWS_CAP)
    expect(Number.isSafeInteger(rankingScore({ readers: 1e6, purchases: 1e6, views: 1e9 }))).toBe(true)
  })

  it('counts the last 30 UTC days, today included', () => {
    expect(rankingFirstDay(new Date('2026-03-31T12:00:00Z'))).toBe('2026-03-02')
    expect(rankingFirstDay(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03-02')
    expect(rankingFirstDay(new Date('2026-04-01T00:00:00Z'))).toBe('2026-03-03')
  })
})

describe('weekly home "today" (spec §9 weekly-home extra time 2)', () => {
  it('stays on the previous day until 02:00 in the edition time zone', () => {
    // Tuesday 01:30 in Paris (CET, UTC+1) is still Monday's list; 02:30 is Tuesday's.
    expect(homeToday('Europe/Paris', new Date('2026-11-24T00:30:00Z'))).toBe('MONDAY')
    expect(homeToday('Europe/Paris', new Date('2026-11-24T01:30:00Z'))).toBe('TUESDAY')
    expect(homeToday('Asia/Tokyo', new Date('2026-11-23T16:30:00Z'))).toBe('MONDAY') // 01:30 Tuesday in Tokyo
  })
})
