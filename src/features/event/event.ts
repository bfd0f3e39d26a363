/**
 * Event rules without I/O (spec §2 /event, §8 event errors): which events are on, and who may take part
 * in an event restricted to adults or to minors. The reader's age comes from the age feature
 * (src/features/age); this only applies the restriction to it.
 */

export type EventKind = 'ROULETTE' | 'ATTENDANCE' | 'SIGNUP' | 'PROMOTION'
/** events.adult_restriction: ADULT = adults only, NON_ADULT = minors only, null = everyone. */
export type AdultRestriction = 'ADULT' | 'NON_ADULT' | null

export type EventSummary = {
  id: number
  kind: EventKind
  title: string
  description: string
  startsAt: string
  endsAt: string
  restriction: AdultRestriction
}

/** Events listed on /event at most (docs/QUALITY.md: every list bounded). */
export const EVENT_LIST_SIZE = 30

/** Running now: started, not ended (ISO 8601 UTC strings compare as text). */
export function isEventOn(e: { startsAt: string; endsAt: string }, now: Date): boolean {
  const iso = now.toISOString()
  return e.startsAt <= iso && iso < e.endsAt
}

export type EventAccess =
  { ok: true } | { ok: false; code: 'NOT_LOGIN_USER' | 'NOT_EVENT_PERIOD' | 'UNAUTHORIZED_ADULT' | 'UNAUTHORIZED_NON_ADULT' }

/**
 * Spec §8: may this reader take part? A guest must sign in first (age unknown); outside the period
 * NOT_EVENT_PERIOD; an adult in a minors-only event UNAUTHORIZED_ADULT ("reserved for minors"); a minor
 * (or a reader whose age is unverified) in an adults-only event UNAUTHORIZED_NON_ADULT ("reserved for adults").
 */
export function eventAccess(
  e: { startsAt: string; endsAt: string; restriction: AdultRestriction },
  reader: { isAdult: boolean } | null,
  now: Date,
): EventAccess {
  if (!isEventOn(e, now)) return { ok: false, code: 'NOT_EVENT_PERIOD' }
  if (reader === null) return { ok: false, code: 'NOT_LOGIN_USER' }
  if (e.restriction === 'NON_ADULT' && reader.isAdult) return { ok: false, code: 'UNAUTHORIZED_ADULT' }
  if (e.restriction === 'ADULT' && !reader.isAdult) return { ok: false, code: 'UNAUTHORIZED_NON_ADULT' }
  return { ok: true }
}

/** Where an event is played (the roulette has its own page); null: the landing text is the whole event. */
export function eventHref(kind: EventKind): string | null {
  return kind === 'ROULETTE' ? '/roulette' : null
}
