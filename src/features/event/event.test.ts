import { describe, expect, it } from 'vitest'
import { EventCreateRequest, eventAccess, eventHref } from './event.ts'

const now = new Date('2026-11-22T12:00:00Z')
const on = { startsAt: '2026-11-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' }

describe('event period', () => {
  it('is on from its start (inclusive) to its end (exclusive)', () => {
    const event = (period: { startsAt: string; endsAt: string }) => ({ restriction: null, isActive: true, ...period })
    const anyone = { signedIn: false, adult: false }
    expect(eventAccess(event(on), anyone, now)).toBe('ok')
    expect(eventAccess(event({ startsAt: now.toISOString(), endsAt: on.endsAt }), anyone, now)).toBe('ok')
    expect(eventAccess(event({ startsAt: on.startsAt, endsAt: now.toISOString() }), anyone, now)).toBe('NOT_EVENT_PERIOD')
  })
})

describe('who may take part (spec §6/§8)', () => {
  const open = { restriction: null, startsAt: '2026-11-01T00:00:00Z', endsAt: '2026-12-01T00:00:00Z', isActive: true } as const
  const member = (a: boolean) => ({ signedIn: true, adult: a })
  it('checks existence, period, then the restriction', () => {
    expect(eventAccess(null, member(true), now)).toBe('NOT_FOUND_EVENT')
    expect(eventAccess({ ...open, isActive: false }, member(true), now)).toBe('NOT_FOUND_EVENT')
    expect(eventAccess({ ...open, endsAt: '2026-11-10T00:00:00Z' }, member(true), now)).toBe('NOT_EVENT_PERIOD')
    expect(eventAccess({ ...open, endsAt: '2026-11-10T00:00:00Z' }, { signedIn: false, adult: false }, now)).toBe('NOT_EVENT_PERIOD')
    expect(eventAccess(open, { signedIn: false, adult: false }, now)).toBe('ok')
    expect(eventAccess({ ...open, restriction: 'ADULT' }, { signedIn: false, adult: true }, now)).toBe('UNAUTHORIZED_USER')
    expect(eventAccess({ ...open, restriction: 'ADULT' }, member(false), now)).toBe('UNAUTHORIZED_NON_ADULT')
    expect(eventAccess({ ...open, restriction: 'ADULT' }, member(true), now)).toBe('ok')
    expect(eventAccess({ ...open, restriction: 'NON_ADULT' }, member(true), now)).toBe('UNAUTHORIZED_ADULT')
    expect(eventAccess({ ...open, restriction: 'NON_ADULT' }, member(false), now)).toBe('ok')
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
