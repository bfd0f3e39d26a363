/**
 * What a series' tally counts (issue 38, counting outside D1; docs/ARCHITECTURE.md "Counting"): readers' events about
 * the series, each turned into the counts it adds. Views are summed by episode (docs/API.md "View counts"); the
 * ranking's readers and purchases by UTC day (migrations/0015_series_daily.sql).
 */
import type { ReaderEvent } from '../reader/events.ts'

/** The events a tally counts (the others go to D1 as they are: src/objects/reader/events.server.ts). */
export type TallyEvent = Extract<ReaderEvent, { kind: 'view' | 'read' | 'purchase' | 'like' }>

/** One reader's event, with its number in the reader's outbox (a tally counts each reader's events in that order, once). */
export type TallyItem = { readerId: number; seq: number; event: TallyEvent }

/** Counts added to one key: an episode's views and likes (`day` empty), or a day's readers and purchases (`episodeId` 0). */
export type TallyCount = { day: string; episodeId: number; views: number; readers: number; purchases: number; likes: number }

/**
 * How long a tally gathers counts before it adds them to D1 in one batch: at most one batch per series in that time,
 * whatever the number of readers (docs/SCALE.md "Counting outside D1"). View counts and the ranking's counters lag by
 * as much; the ranking is recounted every 10 minutes anyway.
 */
export const TALLY_FLUSH_MS = 5 * 60_000

/** An operator's notice to a series' readers reaches those who read it in the last SERIES_READERS_DAYS UTC days (and its favourites). */
export const SERIES_READERS_DAYS = 30

export const isTallied = (event: ReaderEvent): event is TallyEvent =>
  event.kind === 'view' || event.kind === 'read' || event.kind === 'purchase' || event.kind === 'like'

/**
 * What one event adds: a view 1 to its episode; a read moves the reader from one day's readers to another's; a purchase
 * 1; a like or its withdrawal 1 or -1 to its episode.
 */
export function countsOf(event: TallyEvent): TallyCount[] {
  const zero = { day: '', episodeId: 0, views: 0, readers: 0, purchases: 0, likes: 0 }
  switch (event.kind) {
    case 'view':
      return [{ ...zero, episodeId: event.episodeId, views: 1 }]
    case 'read':
      return [...(event.from === null ? [] : [{ ...zero, day: event.from, readers: -1 }]), { ...zero, day: event.to, readers: 1 }]
    case 'purchase':
      return [{ ...zero, day: event.day, purchases: 1 }]
    case 'like':
      return [{ ...zero, episodeId: event.episodeId, likes: event.delta }]
  }
}
