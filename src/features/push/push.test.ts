import { describe, expect, it } from 'vitest'
import { pushDecision } from './push.ts'

const all = { isAgreePush: true, isAgreePushNight: false, isAgreePushContents: true, isAgreePushFreetime: true }

describe('pushDecision (spec §3 consents, §9 night 22:00–08:00)', () => {
  const noonParis = new Date('2026-11-27T11:00:00Z') // 12:00 in Paris
  it('sends by day when every consent is on', () => {
    expect(pushDecision(all, 'contents', noonParis, 'Europe/Paris')).toEqual({ send: true })
  })
  it('sends nothing with push off, whatever the rest', () => {
    expect(pushDecision({ ...all, isAgreePush: false, isAgreePushNight: true }, 'notice', noonParis, 'Europe/Paris')).toEqual({
      send: false,
      reason: 'off',
    })
  })
  it('honours the contents consent for new episodes only', () => {
    const s = { ...all, isAgreePushContents: false }
    expect(pushDecision(s, 'contents', noonParis, 'Europe/Paris')).toEqual({ send: false, reason: 'kind-off' })
    expect(pushDecision(s, 'freetime', noonParis, 'Europe/Paris')).toEqual({ send: true })
  })
  it('honours the FreeTime consent for tickets only', () => {
    const s = { ...all, isAgreePushFreetime: false }
    expect(pushDecision(s, 'freetime', noonParis, 'Europe/Paris')).toEqual({ send: false, reason: 'kind-off' })
    expect(pushDecision(s, 'contents', noonParis, 'Europe/Paris')).toEqual({ send: true })
    expect(pushDecision(s, 'notice', noonParis, 'Europe/Paris')).toEqual({ send: true })
  })
  it.each([
    // [zone, instant (UTC), hold until (UTC)]
    ['Europe/Paris', '2026-11-27T21:30:00Z', '2026-11-28T07:00:00Z'], // 22:30 → 08:00 next day (UTC+1)
    ['Europe/Paris', '2026-11-28T06:59:59Z', '2026-11-28T07:00:00Z'], // 07:59:59 → 08:00 the same day
    ['Asia/Seoul', '2026-11-27T13:00:00Z', '2026-11-27T23:00:00Z'], // 22:00 → 08:00 (UTC+9)
    ['Asia/Bangkok', '2026-11-27T18:00:00Z', '2026-11-28T01:00:00Z'], // 01:00 → 08:00 (UTC+7)
    ['Europe/Paris', '2026-03-29T00:30:00Z', '2026-03-29T06:00:00Z'], // the night the clock moves to UTC+2
  ])('holds a push at night in %s (%s) until 08:00 local (%s)', (zone, at, until) => {
    expect(pushDecision(all, 'contents', new Date(at), zone)).toEqual({ send: false, reason: 'night', holdUntil: new Date(until) })
    expect(pushDecision({ ...all, isAgreePushNight: true }, 'contents', new Date(at), zone)).toEqual({ send: true })
  })
  /** Whether a push to a reader who wants every push except at night is held at `now`. */
  const isNight = (now: Date, zone: string) => !pushDecision(all, 'contents', now, zone).send
  /** Until when such a push is held. */
  const nightEnd = (now: Date, zone: string) => {
    const d = pushDecision(all, 'contents', now, zone)
    if (d.send || d.reason !== 'night') throw new Error(`not held for the night at ${now.toISOString()}`)
    return d.holdUntil
  }
  it('is day from 08:00 to 21:59:59 local', () => {
    expect(isNight(new Date('2026-11-27T07:00:00Z'), 'Europe/Paris')).toBe(false) // 08:00
    expect(isNight(new Date('2026-11-27T20:59:59Z'), 'Europe/Paris')).toBe(false) // 21:59:59
    expect(isNight(new Date('2026-11-27T21:00:00Z'), 'Europe/Paris')).toBe(true) // 22:00
    expect(isNight(new Date('2026-11-27T12:59:59Z'), 'Asia/Seoul')).toBe(false) // 21:59:59
  })
  it('ends the night at 08:00 local', () => {
    expect(nightEnd(new Date('2026-11-27T15:00:00Z'), 'Asia/Taipei').toISOString()).toBe('2026-11-28T00:00:00.000Z') // 23:00 → 08:00
  })
})
