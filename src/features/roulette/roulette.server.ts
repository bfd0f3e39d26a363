/**
 * Roulette (spec §2 /roulette, §6 events for adults or minors only, §8 event codes). The event and its wheel are
 * shared (D1); the reader's tickets, entries, lots and ledger are their money rows (`moneyDb`, issue 38). A spin is
 * decided in the reader's object (`spin`) and written in one money batch: the ticket used (or a daily free slot taken), the entry with the prize the server drew, the prize
 * as a lot + CHARGE ledger row with source EVENT (docs/ARCHITECTURE.md "Money") and the idempotency row holding the
 * answer. If any statement fails, nothing happened.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { EventEntriesRow, EventsRow, EventTicketsRow } from '../../lib/server/db-types.ts'
import { firstRow, rows, type Cols } from '../../lib/server/rows.ts'
import { assertEventAccess } from '../age/age.server.ts'
import type { AgeEdition } from '../age/age.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { keyTaken, settled, storedData, storeResponseStatement, type Decision } from '../wallet/idempotency.server.ts'
import { COIN_SUMMARY_SQL, coinSummaryParams } from '../wallet/wallet.server.ts'
import type { CoinSummary } from '../wallet/wallet.ts'
import { drawPrize, freeSlots, parseRouletteConfig, prizeGrant, randomUnit, type PrizeType, type RouletteConfig } from './roulette.ts'
import { DAY_MS, isoAfter, localDay } from '../../lib/time.ts'
import { decide, moneyDb } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'

type RouletteEvent = {
  id: number
  title: string
  description: string
  startsAt: string
  endsAt: string
  restriction: 'ADULT' | 'NON_ADULT' | null
}
type WheelPrize = { type: PrizeType; amount: number }
export type RouletteState = { event: RouletteEvent; prizes: WheelPrize[]; tickets: number; freeSpins: number; coin: CoinSummary | null }
export type SpinResult = {
  eventId: number
  entryId: number
  prizeIndex: number
  prize: WheelPrize
  tickets: number
  freeSpins: number
  coin: CoinSummary
}

type EventRow = Cols<'events', 'id' | 'title' | 'description' | 'starts_at' | 'ends_at' | 'config'> & {
  restriction: EventsRow['adult_restriction']
}
const EVENT_COLUMNS = `id, title, description, starts_at AS startsAt, ends_at AS endsAt, adult_restriction AS restriction, config`
/** Unused, unexpired roulette tickets of user ? valid for event ? at instant ?. */
const TICKETS_WHERE = `user_id = ? AND kind = 'ROULETTE' AND used_at IS NULL AND (event_id IS NULL OR event_id = ?) AND (expires_at IS NULL OR expires_at > ?)`

/** The running roulette (active, in period, ending soonest), or null when none runs. */
export async function currentRouletteId(db: Db, now = new Date()): Promise<number | null> {
  const iso = now.toISOString()
  const row = await db.first<Pick<EventsRow, 'id'>>(
    `SELECT id FROM events WHERE kind = 'ROULETTE' AND is_active = 1 AND starts_at <= ? AND ends_at > ? ORDER BY ends_at, id LIMIT 1`,
    iso,
    iso,
  )
  return row?.id ?? null
}

function wheelOf(row: EventRow | undefined): { event: RouletteEvent; config: RouletteConfig } | null {
  const config = row ? parseRouletteConfig(row.config) : null
  if (!row || !config) return null
  const { config: _, ...event } = row
  return { event, config }
}

/**
 * What /roulette shows: the event, its wheel (types and amounts; weights stay on the server), the reader's
 * tickets and free spins left today, and the balance. NOT_FOUND_EVENT for a missing or non-roulette event. The event
 * (shared) and the reader's tickets, entries and balance (one batch over their money rows; none for a guest) are
 * read side by side.
 */
export async function rouletteState(
  db: Db,
  input: { userId: number | null; eventId: number; timeZone: string },
  now = new Date(),
): Promise<RouletteState> {
  const { userId, eventId } = input
  const nowIso = now.toISOString()
  const [eventRow, mine] = await Promise.all([
    db.first<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ? AND kind = 'ROULETTE' AND is_active = 1`, eventId),
    userId === null
      ? null
      : moneyDb(db, userId).batch([
          { sql: `SELECT count(*) AS n FROM event_tickets WHERE ${TICKETS_WHERE}`, params: [userId, eventId, nowIso] },
          {
            sql: `SELECT count(*) AS n FROM event_entries WHERE event_id = ? AND user_id = ? AND free_slot LIKE ?`,
            params: [eventId, userId, `${localDay(now, input.timeZone)}#%`],
          },
          { sql: `SELECT ${COIN_SUMMARY_SQL} AS coin`, params: coinSummaryParams(userId, nowIso) },
        ]),
  ])
  const wheel = wheelOf(eventRow ?? undefined)
  if (!wheel) throw new AppError('NOT_FOUND_EVENT')
  const [ticketRes, freeRes, coinRes] = mine ?? []
  return {
    event: wheel.event,
    prizes: wheel.config.prizes.map((p) => ({ type: p.type, amount: p.amount })),
    tickets: mine ? firstRow<{ n: number }>(ticketRes)!.n : 0,
    freeSpins: mine ? Math.max(0, wheel.config.dailyFreeTickets - firstRow<{ n: number }>(freeRes)!.n) : 0,
    coin: mine ? (JSON.parse(firstRow<{ coin: string }>(coinRes)!.coin) as CoinSummary) : null,
  }
}

/** What the shared side tells the reader's object for a spin: the event's wheel, the reader's local day, the draw. */
export type SpinOrder = {
  userId: number
  eventId: number
  claim: IdempotencyClaim
  config: RouletteConfig
  /** The reader's local day (the edition's time zone): the day of the daily free slots. */
  day: string
  /** A number in [0, 1): the prize drawn with it (`drawPrize`). */
  draw: number
  now: string
}

/**
 * Spins roulette `eventId` once for the reader. Access first (`assertEventAccess`: NOT_FOUND_EVENT,
 * NOT_EVENT_PERIOD, UNAUTHORIZED_USER, UNAUTHORIZED_ADULT, UNAUTHORIZED_NON_ADULT), beside the event's wheel (shared);
 * then one call to the reader's object spins (`spin`). The draw (`random`, in [0, 1)) is made here and passed in.
 */
export async function spinRoulette(
  db: Db,
  input: { userId: number; eventId: number; claim: IdempotencyClaim; edition: AgeEdition & { timeZone: string }; random?: () => number },
  now = new Date(),
): Promise<SpinResult> {
  const { userId, eventId, claim, edition } = input
  const [, eventRow] = await Promise.all([
    assertEventAccess(db, eventId, userId, edition, now),
    db.first<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ? AND kind = 'ROULETTE'`, eventId),
  ])
  const wheel = wheelOf(eventRow ?? undefined)
  if (!wheel) throw new AppError('NOT_FOUND_EVENT')
  const draw = (input.random ?? randomUnit)()
  const order: SpinOrder = {
    userId,
    eventId,
    claim,
    config: wheel.config,
    day: localDay(now, edition.timeZone),
    draw,
    now: now.toISOString(),
  }
  return settled(await decide(userId, 'spin', order))
}

/**
 * A spin inside the reader's object (procedures.server.ts): a free slot of the day if one is left, else the ticket
 * expiring soonest; none → NOT_EVENT_REMAIN_TICKET. One batch then writes, with nothing in between: the ticket used,
 * the entry with the prize (the unique ticket_id / free slot hold the rule in the write), the prize as a lot + CHARGE
 * ledger row with source EVENT, and the idempotency row holding the answer.
 */
export function spin(run: MoneyRun, order: SpinOrder): Decision<SpinResult> {
  const { userId, eventId, claim, config, day, now: nowIso } = order
  const read = run([
    keyTaken(claim),
    {
      sql: `SELECT id FROM event_tickets WHERE ${TICKETS_WHERE} ORDER BY expires_at IS NULL, expires_at, id LIMIT 1`,
      params: [userId, eventId, nowIso],
    },
    {
      sql: `SELECT free_slot AS slot FROM event_entries WHERE event_id = ? AND user_id = ? AND free_slot LIKE ?`,
      params: [eventId, userId, `${day}#%`],
    },
  ])
  if (!read.ok) return read
  const [keyRes, ticketRes, slotRes] = read.results
  if (keyRes!.results.length > 0) return { taken: true }
  // free_slot is not null: the query asks free_slot LIKE ?
  const taken = new Set(rows<{ slot: NonNullable<EventEntriesRow['free_slot']> }>(slotRes).map((r) => r.slot))
  const freeSlot = freeSlots(day, config.dailyFreeTickets).find((s) => !taken.has(s)) ?? null
  const ticketId = freeSlot === null ? (firstRow<Pick<EventTicketsRow, 'id'>>(ticketRes)?.id ?? null) : null
  if (freeSlot === null && ticketId === null) return { refused: 'NOT_EVENT_REMAIN_TICKET' }

  const prizeIndex = drawPrize(config.prizes, order.draw)
  const prize = config.prizes[prizeIndex]!
  const grant = prizeGrant(prize)
  const expiresAt = grant && config.prizeExpiresDays ? isoAfter(new Date(nowIso), config.prizeExpiresDays * DAY_MS) : null
  const statements: { sql: string; params: unknown[] }[] = []
  if (ticketId !== null)
    statements.push({ sql: `UPDATE event_tickets SET used_at = ? WHERE id = ? AND used_at IS NULL`, params: [nowIso, ticketId] })
  statements.push({
    sql: `INSERT INTO event_entries (event_id, user_id, ticket_id, free_slot, prize_type, prize_amount, result, created_at) VALUES (?, ?, ?, ?, ?, ?, json(?), ?)`,
    params: [eventId, userId, ticketId, freeSlot, prize.type, prize.amount, JSON.stringify({ prizeIndex }), nowIso],
  })
  if (grant) {
    statements.push(
      {
        sql: `INSERT INTO coin_lots (user_id, type, amount, remaining, expires_at, source, ref, created_at) VALUES (?, ?, ?, ?, ?, 'EVENT', 'event_entry:' || last_insert_rowid(), ?)`,
        params: [userId, grant.type, grant.amount, grant.amount, expiresAt, nowIso],
      },
      {
        sql: `INSERT INTO coin_ledger (user_id, kind, lot_id, type, source, amount, ref, description, idempotency_key, created_at)
              VALUES (?, 'CHARGE', last_insert_rowid(), ?, 'EVENT', ?, (SELECT ref FROM coin_lots WHERE id = last_insert_rowid()), 'roulette', ?, ?)`,
        params: [userId, grant.type, grant.amount, claim.key, nowIso],
      },
    )
  }
  const body = `json_object('result', 'SUCCESS', 'data', json_object(
      'eventId', ?, 'entryId', (SELECT max(id) FROM event_entries WHERE event_id = ? AND user_id = ?), 'prizeIndex', ?,
      'prize', json_object('type', ?, 'amount', ?),
      'tickets', (SELECT count(*) FROM event_tickets WHERE ${TICKETS_WHERE}),
      'freeSpins', max(0, ? - (SELECT count(*) FROM event_entries WHERE event_id = ? AND user_id = ? AND free_slot LIKE ?)),
      'coin', json(${COIN_SUMMARY_SQL})))`
  statements.push(
    storeResponseStatement(claim, 200, body, [
      eventId,
      eventId,
      userId,
      prizeIndex,
      prize.type,
      prize.amount,
      userId,
      eventId,
      nowIso,
      config.dailyFreeTickets,
      eventId,
      userId,
      `${day}#%`,
      ...coinSummaryParams(userId, nowIso),
    ]),
  )
  const written = run(statements)
  return written.ok ? { result: storedData<SpinResult>(written.results) } : written
}
