/** Event reads from D1 for the /event landing; the operator's event create and end (docs/API.md `/api/ops/events`). */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import type { EventsRow } from '../../lib/server/db-types.ts'
import type { OpsListQuery, OpsPage } from '../../lib/ops.ts'
import { newestFirst } from '../../lib/server/ops-list.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import { EVENT_LIST_SIZE, type EventCreateRequest, type EventSummary } from './event.ts'

/** Active events running at `now`, ending soonest first (1 query, bounded). */
export async function currentEvents(db: Db, now: Date, limit = EVENT_LIST_SIZE): Promise<EventSummary[]> {
  const iso = now.toISOString()
  return db.all<
    Cols<'events', 'id' | 'kind' | 'title' | 'description' | 'starts_at' | 'ends_at'> & { restriction: EventsRow['adult_restriction'] }
  >(
    `SELECT id, kind, title, description, starts_at AS startsAt, ends_at AS endsAt, adult_restriction AS restriction
     FROM events WHERE is_active = 1 AND starts_at <= ? AND ends_at > ? ORDER BY ends_at, id LIMIT ?`,
    iso,
    iso,
    limit,
  )
}

/** An event as the operator sees it: its summary, and whether /event shows it at `now`. */
export type OpsEvent = EventSummary & { state: 'RUNNING' | 'NOT_STARTED' | 'ENDED' }

const OPS_COLUMNS = `id, kind, title, description, starts_at AS startsAt, ends_at AS endsAt, adult_restriction AS restriction, is_active AS isActive`
type OpsRow = EventSummary & { isActive: Flag }

function toOps({ isActive, ...e }: OpsRow, now: Date): OpsEvent {
  const iso = now.toISOString()
  return { ...e, state: !flag(isActive) || e.endsAt <= iso ? 'ENDED' : e.startsAt > iso ? 'NOT_STARTED' : 'RUNNING' }
}

async function opsEvent(db: Db, id: number, now: Date): Promise<OpsEvent | null> {
  const e = await db.first<OpsRow>(`SELECT ${OPS_COLUMNS} FROM events WHERE id = ?`, id)
  return e && toOps(e, now)
}

/** One page of every event (the roulette too), whatever its state, newest first (docs/API.md `GET /api/ops/events`). */
export async function listOpsEvents(db: Db, query: OpsListQuery, now: Date): Promise<OpsPage<OpsEvent>> {
  return newestFirst(db, 'events', OPS_COLUMNS, query, (row: OpsRow) => toOps(row, now))
}

/** Creates an event (rules: `EventCreateRequest`); INVALID_PARAMETER `endsAt` for an end that is not after `now`. */
export async function createEvent(db: Db, input: EventCreateRequest, now: Date): Promise<OpsEvent> {
  const nowIso = now.toISOString()
  if (input.endsAt <= nowIso) throw new AppError('INVALID_PARAMETER', { fields: 'endsAt' })
  const row = await db.first<{ id: number }>(
    `INSERT INTO events (kind, title, description, starts_at, ends_at, adult_restriction, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    input.kind,
    input.title,
    input.description,
    input.startsAt ?? nowIso,
    input.endsAt,
    input.restriction ?? null,
    nowIso,
  )
  return (await opsEvent(db, row!.id, now))!
}

/**
 * Ends an event now: its end becomes `now` (one not started yet also starts then, the table wants the end after the
 * start), so /event and its page stop offering it. NOT_EXIST for an unknown id, NOT_EVENT_PERIOD for one already
 * ended (nothing changes).
 */
export async function endEvent(db: Db, id: number, now: Date): Promise<OpsEvent> {
  const nowIso = now.toISOString()
  const ended = await db.first<{ id: number }>(
    `UPDATE events SET ends_at = ?2, starts_at = min(starts_at, ?3) WHERE id = ?1 AND is_active = 1 AND ends_at > ?2 RETURNING id`,
    id,
    nowIso,
    new Date(now.getTime() - 1).toISOString(),
  )
  if (!ended) throw new AppError((await opsEvent(db, id, now)) ? 'NOT_EVENT_PERIOD' : 'NOT_EXIST')
  return (await opsEvent(db, id, now))!
}
