/**
 * Wait-until-free (WUF) rules without I/O (spec §4 "WUF ticket: used on an episode, unlocks it for 72 hours; a
 * new ticket arrives after a set number of hours", §9 "WUF unlock 72 hours"; docs/API.md `POST /purchase/freetime`).
 *
 * A reader holds at most one ticket per series. The first one is there from the start; after a use, the next
 * one arrives the series' `wuf_hours` later. Tickets are rows of `wuf_tickets`: each use writes one row whose
 * `available_at` is the slot it used (the epoch for the first ticket, else the previous use + `wuf_hours`), and
 * a unique index on (user, series, slot) lets only one of two concurrent uses of the same ticket commit.
 */
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { holdingState, type EpisodeHolding } from '../ownership/holding.ts'
import { mayOpen } from '../age/age.ts'
import { HOUR_MS, isoAfter } from '../../lib/time.ts'

/** Spec §4/§9: a ticket unlocks one episode for 72 hours. */
export const WUF_UNLOCK_HOURS = 72

/** The slot of a reader's first ticket of a series: available since always. */
const FIRST_TICKET_SLOT = '1970-01-01T00:00:00.000Z'

/** The reader's ticket of one series: the slot it occupies and whether it can be used at `now`. */
export type Ticket = {
  /** The `available_at` a use of this ticket writes (FIRST_TICKET_SLOT for the first one). */
  slot: string
  /** True when the ticket can be used now. */
  available: boolean
  /** When it can be used (null: now). */
  availableAt: string | null
}

/**
 * The reader's ticket of a series whose tickets come every `wufHours`, given the last use (`lastUsedAt`, null:
 * never used): the first ticket is available at once, later ones `wufHours` after the previous use.
 */
export function currentTicket(wufHours: number, lastUsedAt: string | null, now: Date): Ticket {
  if (lastUsedAt === null) return { slot: FIRST_TICKET_SLOT, available: true, availableAt: null }
  const at = isoAfter(lastUsedAt, wufHours * HOUR_MS)
  const available = Date.parse(at) <= now.getTime()
  return { slot: at, available, availableAt: available ? null : at }
}

/** When the ticket after one used at `now` arrives. */
export function nextTicketAt(wufHours: number, now: Date): string {
  return isoAfter(now, wufHours * HOUR_MS)
}

/** When an episode unlocked by a ticket at `now` closes again (spec §4: 72 hours). */
export function unlockEnd(now: Date): string {
  return isoAfter(now, WUF_UNLOCK_HOURS * HOUR_MS)
}

/** An episode as the WUF rule sees it. null: not a published episode. */
export type FreetimeEpisode = { id: number; seriesId: number; isFree: boolean; isAdult: boolean; wufHours: number | null } | null

/**
 * Whether the reader may use the series' ticket on this episode now, in this order:
 * NOT_FOUND_EPISODE; ADULT_ONLY_CONTENTS (spec §6); UN_MATCHED_RENT_SALE_TYPE when the series has no
 * wait-until-free or the episode is free (not offered that way); EXIST_LIBRARY when the reader keeps it
 * already; RENT_PURCHASE_IMPOSSIBLE while a rental or an unlock of it runs (spec §4); NOT_EVENT_REMAIN_TICKET
 * when the series' ticket has not arrived yet (the catalogue's "no ticket left" code; details carry when).
 */
export function checkFreetime(
  episode: FreetimeEpisode,
  reader: { isAdult: boolean },
  holdings: readonly EpisodeHolding[],
  ticket: Ticket | null,
  now: Date,
): { ok: true } | { ok: false; code: ErrorCode; availableAt?: string } {
  if (!episode) return { ok: false, code: 'NOT_FOUND_EPISODE' }
  if (!mayOpen(episode.isAdult, reader.isAdult)) return { ok: false, code: 'ADULT_ONLY_CONTENTS' }
  if (episode.wufHours === null || episode.isFree || !ticket) return { ok: false, code: 'UN_MATCHED_RENT_SALE_TYPE' }
  const held = holdingState(holdings, episode.id, now)
  if (held?.state === 'forever') return { ok: false, code: 'EXIST_LIBRARY' }
  if (held?.state === 'running') return { ok: false, code: 'RENT_PURCHASE_IMPOSSIBLE' }
  if (!ticket.available) return { ok: false, code: 'NOT_EVENT_REMAIN_TICKET', availableAt: ticket.availableAt! }
  return { ok: true }
}
