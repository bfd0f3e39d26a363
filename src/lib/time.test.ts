import { describe, expect, it } from 'vitest'
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS, isoAfter } from './time.ts'

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
})
