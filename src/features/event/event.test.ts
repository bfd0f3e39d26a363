import { describe, expect, it } from 'vitest'
import { EventCreateRequest, eventAccess, eventHref, isEventOn } from './event.ts'

const now = new Date('2026-11-22T12:00:00Z')
const on = { startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' }
const adult = { isAdult: true }
const minor = { isAdult: false }

describe('event period', () => {
  it('is on from its start (inclusive) to its end (exclusive)', () => {
    expect(isEventOn(on, now)).toBe(true)
    expect(isEventOn({ startsAt: now.toISOString(), endsAt: on.endsAt }, now)).toBe(true)
    expect(isEventOn({ startsAt: on.startsAt, endsAt: now.toISOString() }, now)).toBe(false)
  })
})

describe('who may take part (spec §8 UNAUTHORIZED_ADULT / UNAUTHORIZED_NON_ADULT)', () => {
  it('lets everyone signed in into an open event, and asks a guest to sign in', () => {
    expect(eventAccess({ ...on, restriction: null }, adult, now)).toEqual({ ok: true })
    expect(eventAccess({ ...on, restriction: null }, minor, now)).toEqual({ ok: true })
    expect(eventAccess({ ...on, restriction: null }, null, now)).toEqual({ ok: false, code: 'NOT_LOGIN_USER' })
  })
  it('keeps minors out of adult events and adults out of minors-only events', () => {
    expect(eventAccess({ ...on, restriction: 'ADULT' }, adult, now)).toEqual({ ok: true })
    expect(eventAccess({ ...on, restriction: 'ADULT' }, minor, now)).toEqual({ ok: false, code: 'UNAUTHORIZED_NON_ADULT' })
    expect(eventAccess({ ...on, restriction: 'NON_ADULT' }, minor, now)).toEqual({ ok: true })
    expect(eventAccess({ ...on, restriction: 'NON_ADULT' }, adult, now)).toEqual({ ok: false, code: 'UNAUTHORIZED_ADULT' })
  })
  it('refuses everyone outside the period first', () => {
    const ended = { startsAt: '2026-01-01T00:00:00.000Z', endsAt: '2026-02-01T00:00:00.000Z', restriction: null }
    expect(eventAccess(ended, adult, now)).toEqual({ ok: false, code: 'NOT_EVENT_PERIOD' })
    expect(eventAccess(ended, null, now)).toEqual({ ok: false, code: 'NOT_EVENT_PERIOD' })
  })
  it('links the roulette to its page only', () => {
    expect(eventHref('ROULETTE')).toBe('/roulette')
    expect(eventHref('PROMOTION')).toBeNull()
  })
})

describe('EventCreateRequest (npm run ops -- event create)', () => {
  const ok = { title: ' Polar ', endsAt: '2026-12-07', reason: 'r' }
  it('defaults to a PROMOTION for everyone; a start date is its day start, an end date through its day end', () => {
    expect(EventCreateRequest.parse({ ...ok, startsAt: '2026-12-01' })).toEqual({
      kind: 'PROMOTION',
      title: 'Polar',
      description: '',
      startsAt: '2026-12-01T00:00:00.000Z',
      endsAt: '2026-12-07T23:59:59.999Z',
      reason: 'r',
    })
  })
  it('refuses a roulette, an end not after the start, an unknown restriction, an empty title or reason', () => {
    for (const bad of [
      { ...ok, kind: 'ROULETTE' },
      { ...ok, startsAt: '2026-12-08' },
      { ...ok, restriction: 'KIDS' },
      { ...ok, title: ' \u0000 ' },
      { ...ok, reason: ' ' },
      { ...ok, endsAt: '2026-02-30' },
    ]) {
      expect(EventCreateRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})
