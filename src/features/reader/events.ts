/**
 * What a reader's object tells the shared side (issue 38 point 3; docs/ARCHITECTURE.md "Reader objects"): events
 * written into the object's outbox in the transaction that makes them, numbered in the order they were made, delivered
 * through the queue `READER_EVENTS` and applied to D1 in that order, each once whatever the number of deliveries
 * (events.server.ts).
 */
import { z } from 'zod'

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/)

export const ReaderEvent = z.discriminatedUnion('kind', [
  /**
   * The reader's last read of a series moved to another UTC day (`from` null: their first read of it). The ranking
   * counts a reader once, on the day of their latest read (migrations/0015_series_daily.sql).
   */
  z.object({ kind: z.literal('read'), seriesId: z.number().int().positive(), from: day.nullable(), to: day }),
  /**
   * The reader's marks on a series changed: its whole state, with the object's counter of mark changes, so the shared
   * copy keeps the newest whatever the order of deliveries (migrations/0028_library_marks.sql).
   */
  z.object({
    kind: z.literal('marks'),
    seriesId: z.number().int().positive(),
    favorite: z.boolean(),
    hidden: z.boolean(),
    version: z.number().int().positive(),
  }),
  /**
   * The reader's first open on a UTC day of an episode they may read (`Reader.opening`; docs/API.md "View counts").
   * `seriesId` is missing from events written before views were counted by series (migrations/0043_series_tally.sql).
   */
  z.object({ kind: z.literal('view'), seriesId: z.number().int().positive().optional(), episodeId: z.number().int().positive(), day }),
  /** The reader liked (1) or stopped liking (-1) an episode (issue 37 point 3): the series' tally adds it to the episode's count. */
  z.object({
    kind: z.literal('like'),
    seriesId: z.number().int().positive(),
    episodeId: z.number().int().positive(),
    delta: z.union([z.literal(1), z.literal(-1)]),
  }),
  /**
   * The reader followed a creator or stopped (issue 37 point 2; `at`: when): the whole state, so the shared copy
   * (migrations/0049_creator_followers.sql) is right whatever event of the reader was applied last.
   */
  z.object({ kind: z.literal('follow'), creatorId: z.number().int().positive(), following: z.boolean(), at: z.string().max(40) }),
  /** The reader bought or rented an episode of a series on a UTC day (one event per purchase row; reader migration 6). */
  z.object({ kind: z.literal('purchase'), seriesId: z.number().int().positive(), day }),
  /** The reader took a coupon (`received` 1) and/or its reward was given (`redeemed` 1; reader migration 6). */
  z.object({
    kind: z.literal('coupon'),
    couponId: z.number().int().positive(),
    received: z.union([z.literal(0), z.literal(1)]),
    redeemed: z.union([z.literal(0), z.literal(1)]),
  }),
])
export type ReaderEvent = z.infer<typeof ReaderEvent>

/** Events a queue message carries at most (the object's outbox sends its oldest ones first). */
export const EVENTS_PER_MESSAGE = 100

/**
 * The queue message: the events of one reader's object that the shared side has not acknowledged yet, oldest first,
 * each with its number in the object's outbox (`seq`: increasing, never reused, without gaps between two messages).
 */
export const ReaderEventsJob = z.object({
  readerId: z.number().int().positive(),
  events: z
    .array(z.object({ seq: z.number().int().positive(), event: ReaderEvent }))
    .min(1)
    .max(EVENTS_PER_MESSAGE),
})
export type ReaderEventsJob = z.infer<typeof ReaderEventsJob>

/** The UTC day of an ISO 8601 instant. */
export const dayOf = (iso: string) => iso.slice(0, 10)
