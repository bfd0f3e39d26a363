/** Fixtures of the roulette worker tests: events with their wheel, tickets, and the spin request. */
import { request } from './app.ts'
import { app, db, type Reader } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'

const DAY = 86_400_000
export type Wheel = { dailyFreeTickets?: number; prizes: { type: string; amount: number; weight: number }[]; prizeExpiresDays?: number }
export const FIVE_BONUS: Wheel = {
  dailyFreeTickets: 0,
  prizes: [
    { type: 'BONUS', amount: 5, weight: 1 },
    { type: 'BONUS', amount: 5, weight: 1 },
  ],
  prizeExpiresDays: 30,
}

/** A ROULETTE event (running unless told) with `wheel` as its config; returns its id. */
export async function newRoulette(
  wheel: Wheel = FIVE_BONUS,
  opts: { fromDays?: number; toDays?: number; restriction?: 'ADULT' | 'NON_ADULT' | null; kind?: string } = {},
) {
  const row = await db.first<{ id: number }>(
    `INSERT INTO events (kind, title, starts_at, ends_at, adult_restriction, config) VALUES (?, 'Roulette test', ?, ?, ?, ?) RETURNING id`,
    opts.kind ?? 'ROULETTE',
    new Date(Date.now() + (opts.fromDays ?? -1) * DAY).toISOString(),
    new Date(Date.now() + (opts.toDays ?? 10) * DAY).toISOString(),
    opts.restriction ?? null,
    JSON.stringify(wheel),
  )
  return row!.id
}

/** `n` roulette tickets for the reader (valid for `eventId`, or any roulette when null). */
export async function giveTickets(userId: number, n: number, eventId: number | null, expiresInDays: number | null = 30) {
  const expiresAt = expiresInDays === null ? null : new Date(Date.now() + expiresInDays * DAY).toISOString()
  for (let i = 0; i < n; i++) {
    await readerRows.run(
      userId,
      `INSERT INTO event_tickets (event_id, user_id, kind, source, expires_at) VALUES (?, ?, 'ROULETTE', 'COUPON', ?)`,
      eventId,
      userId,
      expiresAt,
    )
  }
}

/** POST /api/v1/roulette/spin as `reader` (no Idempotency-Key header when `key` is null). */
export function spin(reader: Pick<Reader, 'headers'>, body: unknown, key: string | null = crypto.randomUUID()) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...reader.headers }
  if (key !== null) headers['idempotency-key'] = key
  return request(app, '/api/v1/roulette/spin', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
}

/** Everything a spin could move for one reader: the wallet snapshot plus tickets used and entries. */
export async function rouletteSnapshot(userId: number) {
  const [tickets, entries] = await Promise.all([
    readerRows.first(userId, `SELECT count(*) AS n FROM event_tickets WHERE user_id = ? AND used_at IS NOT NULL`, userId),
    readerRows.first(userId, `SELECT count(*) AS n FROM event_entries WHERE user_id = ?`, userId),
  ])
  return { tickets, entries }
}
