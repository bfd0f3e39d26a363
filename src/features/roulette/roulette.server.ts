/**
 * Roulette (spec §2 /roulette, §6 events for adults or minors only, §8 event codes). The event and its wheel are
 * shared (D1); the reader's tickets, entries, lots and ledger are their money rows (`moneyDb`, issue 38). A spin is
 * one money batch: the ticket used (or a daily free slot taken), the entry with the prize the server drew, the prize
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
import { IdempotencyKeyTaken, isKeyTaken, storedData, storeResponseStatement } from '../wallet/idempotency.server.ts'
import { COIN_SUMMARY_SQL, coinSummaryParams } from '../wallet/wallet.server.ts'
import type { CoinSummary } from '../wallet/wallet.ts'
import { drawPrize, freeSlots, parseRouletteConfig, prizeGrant, randomUnit, type PrizeType, type RouletteConfig } from './roulette.ts'
import { DAY_MS, isoAfter, localDay } from '../../lib/time.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { moneyDb } from '../reader/money-db.server.ts'

/** Re-reads after a concurrent spin took the same ticket or slot (each refusal is another spin's commit). */
const SPIN_ATTEMPTS = 8

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

/**
 * Spins roulette `eventId` once for the reader. Access first (`assertEventAccess`: NOT_FOUND_EVENT,
 * NOT_EVENT_PERIOD, UNAUTHORIZED_USER, UNAUTHORIZED_ADULT, UNAUTHORIZED_NON_ADULT); then a free slot of
 * today if one is left, else the ticket expiring soonest; none → NOT_EVENT_REMAIN_TICKET. The prize is drawn
 * here (`drawPrize` with the event's weights, `random` in [0, 1)). Two spins racing for the same ticket or
 * slot: the unique ticket_id / free slot lets one commit; the other re-reads and takes the next one. The event
 * (shared) is read once beside the access check; each attempt reads the reader's key, ticket and slots in one money
 * batch and writes one money batch (the event id is a value in the entry, not a join).
 */
export async function spinRoulette(
  db: Db,
  input: { userId: number; eventId: number; claim: IdempotencyClaim; edition: AgeEdition & { timeZone: string }; random?: () => number },
  now = new Date(),
): Promise<SpinResult> {
  const { userId, eventId, claim, edition } = input
  const random = input.random ?? randomUnit
  const nowIso = now.toISOString()
  const day = localDay(now, edition.timeZone)
  const money = moneyDb(db, userId)
  // the event is shared and does not change with the reader's rows: read once, beside the access check
  const [, eventRow] = await Promise.all([
    assertEventAccess(db, eventId, userId, edition, now),
    db.first<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ? AND kind = 'ROULETTE'`, eventId),
  ])
  for (let attempt = 1; ; attempt++) {
    const [keyRes, ticketRes, slotRes] = await money.batch([
      { sql: `SELECT 1 AS taken FROM idempotency_keys WHERE user_id = ? AND key = ?`, params: [userId, claim.key] },
      {
        sql: `SELECT id FROM event_tickets WHERE ${TICKETS_WHERE} ORDER BY expires_at IS NULL, expires_at, id LIMIT 1`,
        params: [userId, eventId, nowIso],
      },
      {
        sql: `SELECT free_slot AS slot FROM event_entries WHERE event_id = ? AND user_id = ? AND free_slot LIKE ?`,
        params: [eventId, userId, `${day}#%`],
      },
    ])
    if (keyRes!.results.length > 0) throw new IdempotencyKeyTaken()
    const wheel = wheelOf(eventRow ?? undefined)
    if (!wheel) throw new AppError('NOT_FOUND_EVENT')
    // free_slot is not null: the query asks free_slot LIKE ?
    const taken = new Set(rows<{ slot: NonNullable<EventEntriesRow['free_slot']> }>(slotRes).map((r) => r.slot))
    const freeSlot = freeSlots(day, wheel.config.dailyFreeTickets).find((s) => !taken.has(s)) ?? null
    const ticketId = freeSlot === null ? (firstRow<Pick<EventTicketsRow, 'id'>>(ticketRes)?.id ?? null) : null
    if (freeSlot === null && ticketId === null) throw new AppError('NOT_EVENT_REMAIN_TICKET')

    const prizeIndex = drawPrize(wheel.config.prizes, random())
    const prize = wheel.config.prizes[prizeIndex]!
    const grant = prizeGrant(prize)
    const expiresAt = grant && wheel.config.prizeExpiresDays ? isoAfter(now, wheel.config.prizeExpiresDays * DAY_MS) : null
    const statements: { sql: string; params: unknown[] }[] = []
    if (ticketId !== null)
      statements.push({ sql: `UPDATE event_tickets SET used_at = ? WHERE id = ? AND used_at IS NULL`, params: [nowIso, ticketId] })
    statements.push({
      // A ticket used meanwhile already has its entry: UNIQUE (ticket_id) fails this batch as a whole.
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
        wheel.config.dailyFreeTickets,
        eventId,
        userId,
        `${day}#%`,
        ...coinSummaryParams(userId, nowIso),
      ]),
    )
    try {
      const results = await money.batch(statements)
      return storedData<SpinResult>(results)
    } catch (err) {
      if (isKeyTaken(err)) throw new IdempotencyKeyTaken()
      // The ticket or the free slot went to a concurrent spin: nothing was written; read and pick again.
      if (!isConstraint(err)) throw err
      if (attempt >= SPIN_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
  }
}
