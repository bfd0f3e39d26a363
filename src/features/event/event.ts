/**
 * Event rules without I/O (spec §2 /event, §8 event errors): which events are on, and who may take part
 * in an event restricted to adults or to minors. The reader's age comes from the age feature
 * (src/features/age); this only applies the restriction to it. Also the operator's requests (docs/API.md
 * `/api/ops/events`, `npm run ops -- event create|end`).
 */
import { z } from 'zod'
import { OpsDate, OpsReason, OpsStart } from '../../lib/ops.ts'
import { expiryInstant } from '../wallet/wallet.ts'
import { cleanText } from '../../lib/text/clean.ts'

/** The kinds an operator creates: a roulette needs its prize table (events.config), which only the seed writes. */
export const OPS_EVENT_KINDS = ['PROMOTION', 'ATTENDANCE', 'SIGNUP'] as const
export type EventKind = 'ROULETTE' | (typeof OPS_EVENT_KINDS)[number]
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

/** Running now: started, not ended. */
function isEventOn(e: { startsAt: string; endsAt: string }, now: Date): boolean {
  const t = now.getTime()
  return Date.parse(e.startsAt) <= t && t < Date.parse(e.endsAt)
}

/**
 * Spec §6/§8 events restricted to adults or minors: an unknown or switched-off event is NOT_FOUND_EVENT; outside its
 * period NOT_EVENT_PERIOD; a guest cannot join a restricted event (UNAUTHORIZED_USER); an adult-only event refuses
 * a non-adult (UNAUTHORIZED_NON_ADULT, which opens the age popup); a minors-only event refuses an adult
 * (UNAUTHORIZED_ADULT). The routes that spend a ticket need a member besides (`assertEventAccess`).
 */
export function eventAccess(
  event: { restriction: AdultRestriction; startsAt: string; endsAt: string; isActive: boolean } | null,
  reader: { signedIn: boolean; adult: boolean },
  now: Date = new Date(),
): 'ok' | 'NOT_FOUND_EVENT' | 'NOT_EVENT_PERIOD' | 'UNAUTHORIZED_USER' | 'UNAUTHORIZED_ADULT' | 'UNAUTHORIZED_NON_ADULT' {
  if (!event || !event.isActive) return 'NOT_FOUND_EVENT'
  if (!isEventOn(event, now)) return 'NOT_EVENT_PERIOD'
  if (event.restriction === null) return 'ok'
  if (!reader.signedIn) return 'UNAUTHORIZED_USER'
  if (event.restriction === 'ADULT' && !reader.adult) return 'UNAUTHORIZED_NON_ADULT'
  if (event.restriction === 'NON_ADULT' && reader.adult) return 'UNAUTHORIZED_ADULT'
  return 'ok'
}

/** Where an event is played (the roulette has its own page); null: the landing text is the whole event. */
export function eventHref(kind: EventKind): string | null {
  return kind === 'ROULETTE' ? '/roulette' : null
}

/** Longest event title and description an operator writes (the /event card shows both). */
export const MAX_EVENT_TITLE = 100
export const MAX_EVENT_DESCRIPTION = 2000

/** Cleaned like a support question (`cleanText`), `min` to `max` characters. */
const text = (min: number, max: number) =>
  z
    .string()
    .max(max * 2)
    .transform(cleanText)
    .pipe(z.string().min(min).max(max))

/**
 * A new event on /event (docs/API.md `POST /api/ops/events`): `startsAt` a date is that day's start (UTC), absent now;
 * `endsAt` a date is through that day's end (`expiryInstant`), after the start (and after now: `createEvent`);
 * `restriction` ADULT (adults only) or NON_ADULT (minors only), absent everyone.
 */
export const EventCreateRequest = z
  .object({
    kind: z.enum(OPS_EVENT_KINDS).default('PROMOTION'),
    title: text(1, MAX_EVENT_TITLE),
    description: text(0, MAX_EVENT_DESCRIPTION).default(''),
    startsAt: OpsStart.optional(),
    endsAt: OpsDate.transform((d) => expiryInstant(d)!),
    restriction: z.enum(['ADULT', 'NON_ADULT']).optional(),
    reason: OpsReason,
  })
  .refine((r) => r.startsAt === undefined || r.endsAt > r.startsAt, { path: ['endsAt'], message: 'after the start' })
export type EventCreateRequest = z.infer<typeof EventCreateRequest>
