/**
 * Issue 35 point 3: one next-update day. The end of a series' latest episode (`GET /api/v1/viewer/{id}`'s
 * `nextUpdateDay`) says the day its series page says (`scheduleSummary` over the weekdays, the last episode out and the
 * planned date), not the series' planned date on its own.
 */
import { describe, expect, it } from 'vitest'
import { db, get, newSeries, read } from './purchase.helpers.ts'
import { scheduleSummary, type ScheduleDay } from '../../src/features/catalogue/catalogue.ts'

/** The next update day a series page shows from the weekdays alone (no planned date). */
const nextScheduledDay = (days: ScheduleDay[], timeZone: string, now: Date, lastPublishedAt: string | null = null) =>
  scheduleSummary({ status: 'SCHEDULED', schedule: days, nextUpdateAt: null, lastPublishedAt }, timeZone, now)?.next ?? null

describe('the next update at the end of the latest episode', () => {
  it('is the series page’s day: its weekday, even when the planned date says otherwise', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const planned = new Date(Date.now() + 3 * 86_400_000).toISOString() // any day ahead, not necessarily a Friday
    await db.run(`UPDATE series SET status = 'SCHEDULED', next_update_at = ? WHERE id = ?`, planned, s.seriesId)
    await db.run(`INSERT INTO schedules (series_id, weekday) VALUES (?, 'FRIDAY')`, s.seriesId)
    const last = (await read(await get(null, `/api/v1/viewer/${s.episodeIds[1]}`))).data
    expect(last.next).toBeNull()
    expect(last.nextUpdateDay).toBe(nextScheduledDay(['FRIDAY'], 'Europe/Paris', new Date(), '2026-01-01T00:00:00.000Z'))
    expect(new Date(`${last.nextUpdateDay}T12:00:00Z`).getUTCDay()).toBe(5)

    // a completed series announces nothing
    await db.run(`UPDATE series SET status = 'COMPLETED' WHERE id = ?`, s.seriesId)
    expect((await read(await get(null, `/api/v1/viewer/${s.episodeIds[1]}`))).data.nextUpdateDay).toBeNull()
  })
})
