import { describe, expect, it } from 'vitest'
import { EDITION_IDS } from '../../lib/edition/schema.ts'
import { loadEdition } from '../../lib/edition/load.ts'
import { scheduleSummary, type ScheduleDay } from './catalogue.ts'

/** The next update day a series page shows from the weekdays alone (no planned date). */
const nextScheduledDay = (days: ScheduleDay[], timeZone: string, now: Date, lastPublishedAt: string | null = null) =>
  scheduleSummary({ status: 'SCHEDULED', schedule: days, nextUpdateAt: null, lastPublishedAt }, timeZone, now)?.next ?? null

/** UTC instant of a local wall-clock time in a time zone (whole-hour offsets of the editions, no DST in late November). */
function at(localIso: string, timeZone: string): Date {
  const guess = new Date(`${localIso}Z`)
  const shown = new Date(guess.toLocaleString('en-US', { timeZone }) + ' UTC')
  return new Date(guess.getTime() - (shown.getTime() - guess.getTime()))
}

// Series 1 updates on Sunday and Wednesday, series 6 on Tuesday (the demo schedule). 2026-11-24 is a Tuesday.
describe.each(EDITION_IDS.map((id) => [id, loadEdition(id).edition.timeZone] as const))('next update in the %s edition (%s)', (_id, tz) => {
  it("is a day of the schedule, counted from the edition's midnight", () => {
    // Tuesday 23:59 local: series 6's day is today; one minute later (Wednesday 00:00) it is next Tuesday.
    expect(nextScheduledDay(['TUESDAY'], tz, at('2026-11-24T23:59', tz))).toBe('2026-11-24')
    expect(nextScheduledDay(['TUESDAY'], tz, at('2026-11-25T00:00', tz))).toBe('2026-12-01')
    // Series 1 (Sun, Wed): Tuesday 23:59 → Wednesday; Wednesday 00:00 → today; Thursday 00:00 → Sunday.
    expect(nextScheduledDay(['SUNDAY', 'WEDNESDAY'], tz, at('2026-11-24T23:59', tz))).toBe('2026-11-25')
    expect(nextScheduledDay(['SUNDAY', 'WEDNESDAY'], tz, at('2026-11-25T00:00', tz))).toBe('2026-11-25')
    expect(nextScheduledDay(['SUNDAY', 'WEDNESDAY'], tz, at('2026-11-26T00:00', tz))).toBe('2026-11-29')
  })

  it('rolls over the week and skips a day whose episode is already out', () => {
    // Saturday 23:30 → Sunday (the week's first day), across the month end for series 6.
    expect(nextScheduledDay(['SUNDAY', 'WEDNESDAY'], tz, at('2026-11-28T23:30', tz))).toBe('2026-11-29')
    expect(nextScheduledDay(['TUESDAY'], tz, at('2026-11-29T00:00', tz))).toBe('2026-12-01')
    // Sunday's episode came out at 00:10 local: the next one is Wednesday, not today.
    expect(nextScheduledDay(['SUNDAY', 'WEDNESDAY'], tz, at('2026-11-29T09:00', tz), at('2026-11-29T00:10', tz).toISOString())).toBe(
      '2026-12-02',
    )
    // Published on Saturday late evening local (already Sunday in UTC for western zones, or not): Sunday still counts.
    expect(nextScheduledDay(['SUNDAY'], tz, at('2026-11-29T09:00', tz), at('2026-11-28T23:50', tz).toISOString())).toBe('2026-11-29')
    // Tuesday's episode out: a Tuesday-only series waits a full week, to the next year.
    expect(nextScheduledDay(['TUESDAY'], tz, at('2026-12-29T12:00', tz), at('2026-12-29T10:00', tz).toISOString())).toBe('2027-01-05')
  })
})

describe('schedule summary of a detail page', () => {
  const now = new Date('2026-11-22T12:00:00Z') // Sunday
  it('takes the next day from the weekdays, not from a stored date that contradicts them', () => {
    expect(
      scheduleSummary({ status: 'SCHEDULED', schedule: ['TUESDAY'], nextUpdateAt: '2026-11-26T10:00:00Z' }, 'Europe/Paris', now),
    ).toEqual({ days: ['TUESDAY'], next: '2026-11-24' })
  })
  it('keeps a planned future date for a series updated every ten days, nothing for a finished one', () => {
    expect(scheduleSummary({ status: 'SCHEDULED', schedule: ['TEN'], nextUpdateAt: '2026-11-28T23:30:00Z' }, 'Asia/Tokyo', now)).toEqual({
      days: ['TEN'],
      next: '2026-11-29',
    })
    expect(scheduleSummary({ status: 'SCHEDULED', schedule: ['TEN'], nextUpdateAt: '2026-11-20T10:00:00Z' }, 'Asia/Tokyo', now)).toEqual({
      days: ['TEN'],
      next: null,
    })
    expect(
      scheduleSummary({ status: 'COMPLETED', schedule: ['MONDAY'], nextUpdateAt: '2026-11-23T10:00:00Z' }, 'Europe/Paris', now),
    ).toBeNull()
    expect(scheduleSummary({ status: 'SCHEDULED', schedule: [], nextUpdateAt: null }, 'Europe/Paris', now)).toBeNull()
  })
})
