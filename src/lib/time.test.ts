import { describe, expect, it } from 'vitest'
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, isoAfter, localMonth } from './time.ts'

describe('time arithmetic', () => {
  it('the units are the milliseconds of a second, a minute, an hour and a day', () => {
    expect(SECOND_MS).toBe(1000)
    expect(MINUTE_MS).toBe(60 * SECOND_MS)
    expect(HOUR_MS).toBe(60 * MINUTE_MS)
    expect(DAY_MS).toBe(24 * HOUR_MS)
  })

  it('shifts a Date or an ISO string forward and back, answering ISO 8601 in UTC', () => {
    const now = new Date('2026-03-28T23:30:00.000Z')
    expect(isoAfter(now, 600 * SECOND_MS)).toBe('2026-03-28T23:40:00.000Z')
    expect(isoAfter('2026-03-28T23:30:00+01:00', HOUR_MS)).toBe('2026-03-28T23:30:00.000Z')
    expect(isoAfter(now, 7 * DAY_MS)).toBe('2026-04-04T23:30:00.000Z')
    expect(isoAfter(now, -90 * DAY_MS)).toBe('2025-12-28T23:30:00.000Z')
    expect(isoAfter(now, 0)).toBe(now.toISOString())
  })

  it("a time zone's month starts at its own midnight of the 1st, across summer time and the year's end", () => {
    const month = (at: string, tz: string) => {
      const { start, next } = localMonth(new Date(at), tz)
      return [start.toISOString(), next.toISOString()]
    }
    // Paris: winter (UTC+1) in March's start, summer (UTC+2) at April's
    expect(month('2026-03-15T12:00:00Z', 'Europe/Paris')).toEqual(['2026-02-28T23:00:00.000Z', '2026-03-31T22:00:00.000Z'])
    // 23:30 UTC on 31 March is already 1 April in Paris
    expect(month('2026-03-31T23:30:00Z', 'Europe/Paris')).toEqual(['2026-03-31T22:00:00.000Z', '2026-04-30T22:00:00.000Z'])
    expect(month('2026-12-31T16:00:00Z', 'Asia/Tokyo')).toEqual(['2026-12-31T15:00:00.000Z', '2027-01-31T15:00:00.000Z'])
    expect(month('2026-12-31T14:59:59Z', 'Asia/Tokyo')).toEqual(['2026-11-30T15:00:00.000Z', '2026-12-31T15:00:00.000Z'])
    expect(month('2026-11-01T12:00:00Z', 'America/New_York')).toEqual(['2026-11-01T04:00:00.000Z', '2026-12-01T05:00:00.000Z'])
    expect(month('2026-02-10T00:00:00Z', 'UTC')).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'])
  })
})
