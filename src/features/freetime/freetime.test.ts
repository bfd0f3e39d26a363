import { describe, expect, it } from 'vitest'
import { checkFreetime, currentTicket, nextTicketAt, unlockEnd } from './freetime.ts'

/** The slot the first use of a ticket writes: the epoch. */
const FIRST_TICKET_SLOT = '1970-01-01T00:00:00.000Z'

const now = new Date('2026-11-22T12:00:00.000Z')
const ep = { id: 7, seriesId: 1, isFree: false, isAdult: false, wufHours: 24 }

describe('wait-until-free', () => {
  it('the first ticket is there at once; the next one comes the series hours after a use', () => {
    expect(currentTicket(24, null, now)).toEqual({ slot: FIRST_TICKET_SLOT, available: true, availableAt: null })
    expect(currentTicket(24, '2026-11-22T00:00:00.000Z', now)).toEqual({
      slot: '2026-11-23T00:00:00.000Z',
      available: false,
      availableAt: '2026-11-23T00:00:00.000Z',
    })
    expect(currentTicket(12, '2026-11-22T00:00:00.000Z', now)).toEqual({
      slot: '2026-11-22T12:00:00.000Z',
      available: true,
      availableAt: null,
    })
    expect(unlockEnd(now)).toBe('2026-11-25T12:00:00.000Z') // spec §4: 72 hours
    expect(nextTicketAt(24, now)).toBe('2026-11-23T12:00:00.000Z')
  })

  it('refuses with the catalogue codes, in order', () => {
    const t = currentTicket(24, null, now)
    expect(checkFreetime(null, { isAdult: true }, [], t, now)).toEqual({ ok: false, code: 'NOT_FOUND_EPISODE' })
    expect(checkFreetime({ ...ep, isAdult: true }, { isAdult: false }, [], t, now)).toMatchObject({ code: 'ADULT_ONLY_CONTENTS' })
    expect(checkFreetime({ ...ep, wufHours: null }, { isAdult: false }, [], null, now)).toMatchObject({ code: 'UN_MATCHED_RENT_SALE_TYPE' })
    expect(checkFreetime({ ...ep, isFree: true }, { isAdult: false }, [], t, now)).toMatchObject({ code: 'UN_MATCHED_RENT_SALE_TYPE' })
    expect(checkFreetime(ep, { isAdult: false }, [{ episodeId: 7, kind: 'POSSESSION', expiresAt: null }], t, now)).toMatchObject({
      code: 'EXIST_LIBRARY',
    })
    expect(
      checkFreetime(ep, { isAdult: false }, [{ episodeId: 7, kind: 'FREETIME', expiresAt: '2026-11-23T00:00:00.000Z' }], t, now),
    ).toMatchObject({ code: 'RENT_PURCHASE_IMPOSSIBLE' })
    expect(
      checkFreetime(ep, { isAdult: false }, [{ episodeId: 7, kind: 'FREETIME', expiresAt: '2026-11-21T00:00:00.000Z' }], t, now),
    ).toEqual({ ok: true })
    expect(checkFreetime(ep, { isAdult: false }, [], currentTicket(24, '2026-11-22T06:00:00.000Z', now), now)).toEqual({
      ok: false,
      code: 'NOT_EVENT_REMAIN_TICKET',
      availableAt: '2026-11-23T06:00:00.000Z',
    })
  })
})
