/**
 * Wait-until-free (docs/API.md `POST /api/v1/purchase/freetime`, spec §4): using the series' ticket on an episode is
 * one call to the reader's object (`useTicket`, run by `decide`: src/objects/reader/procedures.server.ts), which writes
 * one batch of the reader's money rows. If any statement fails, nothing happened.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import { ADULT_STATE_SQL, adultNow, type AdultRow } from '../age/age.server.ts'
import type { Db } from '../../lib/server/db.ts'
import type { WufTicketsRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, rows, type Cols } from '../../lib/server/rows.ts'
import type { AgeEdition } from '../age/age.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { keyTaken, settled, storedData, storeResponseStatement, type Decision } from '../wallet/idempotency.server.ts'
import { HELD_SQL, heldParams, holdingsOf, type HoldingRow } from '../ownership/holding.server.ts'
import { checkFreetime, currentTicket, nextTicketAt, unlockEnd, type FreetimeEpisode } from './freetime.ts'
import { decide } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'

export type FreetimeResult = { episodeId: number; expiresAt: string; nextTicketAt: string }

type EpisodeRow = Cols<'episodes', 'id' | 'series_id' | 'is_free'> & Cols<'series', 'is_adult' | 'wuf_hours'>

/** What the shared side tells the reader's object for a ticket use: the episode as the catalogue has it, the reader's age. */
export type TicketOrder = {
  userId: number
  episodeId: number
  claim: IdempotencyClaim
  episode: FreetimeEpisode
  adult: boolean
  now: string
}

/**
 * Uses the reader's ticket of the episode's series on `episodeId` (rules: `checkFreetime`): one D1 batch reads the
 * account and the episode with its series, then one call to the reader's object decides and writes (`useTicket`). A
 * stored key throws IdempotencyKeyTaken (the middleware answers with the stored first response).
 */
export async function useFreetime(
  db: Db,
  input: {
    userId: number
    episodeId: number
    claim: IdempotencyClaim
    ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>
  },
  now = new Date(),
): Promise<FreetimeResult> {
  const { userId, episodeId } = input
  const [userRes, episodeRes] = await db.batch([
    { sql: ADULT_STATE_SQL, params: [userId] },
    {
      sql: `SELECT e.id, e.series_id AS seriesId, e.is_free AS isFree, s.is_adult AS isAdult, s.wuf_hours AS wufHours
              FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.id = ? AND s.is_published = 1 AND e.published_at <= ?`,
      params: [episodeId, now.toISOString()],
    },
  ])
  const adult = adultNow(firstRow<AdultRow>(userRes), input.ageRules, now)
  if (adult === null) throw new AppError('NOT_LOGIN_USER')
  const row = firstRow<EpisodeRow>(episodeRes)
  const episode: FreetimeEpisode = row
    ? { id: row.id, seriesId: row.seriesId, isFree: flag(row.isFree), isAdult: flag(row.isAdult), wufHours: row.wufHours }
    : null
  return settled(await decide(userId, 'useTicket', { userId, episodeId, claim: input.claim, episode, adult, now: now.toISOString() }))
}

/**
 * A ticket use inside the reader's object (procedures.server.ts): reads the idempotency key, the reader's holdings of
 * the episode and the last use of the series' ticket, checks (`checkFreetime`), then writes one batch — the ticket row
 * (its slot unique per reader and series), a FREETIME purchase, the FREETIME ownership for 72 hours and the idempotency
 * row. Nothing runs in between, so a second use of the same ticket reads it used and answers NOT_EVENT_REMAIN_TICKET;
 * the unique slot and `HELD_SQL` in the purchase row still hold the rule in the write.
 */
export function useTicket(run: MoneyRun, order: TicketOrder): Decision<FreetimeResult> {
  const { userId, episodeId, claim, episode } = order
  const now = new Date(order.now)
  const nowIso = order.now
  const read = run([
    keyTaken(claim),
    holdingsOf(userId, episodeId),
    // the series of a published episode (none: no ticket is read)
    {
      sql: `SELECT max(used_at) AS lastUsedAt FROM wuf_tickets WHERE user_id = ? AND series_id = ?`,
      params: [userId, episode?.seriesId ?? null],
    },
  ])
  if (!read.ok) return read
  const [keyRes, holdingRes, wufRes] = read.results
  if (keyRes!.results.length > 0) return { taken: true }
  const lastUsedAt = firstRow<{ lastUsedAt: WufTicketsRow['used_at'] }>(wufRes)?.lastUsedAt ?? null
  const ticket = episode?.wufHours ? currentTicket(episode.wufHours, lastUsedAt, now) : null
  const verdict = checkFreetime(episode, { isAdult: order.adult }, rows<HoldingRow>(holdingRes), ticket, now)
  if (!verdict.ok) return { refused: verdict.code, ...(verdict.availableAt ? { details: { nextTicketAt: verdict.availableAt } } : {}) }
  const e = episode!
  const expiresAt = unlockEnd(now)
  const result: FreetimeResult = { episodeId, expiresAt, nextTicketAt: nextTicketAt(e.wufHours!, now) }
  const written = run([
    {
      // ready_at: when the series' next ticket is ready, the reader object's alarm tells them (reader migration 6)
      sql: `INSERT INTO wuf_tickets (user_id, series_id, available_at, used_at, used_episode_id, unlock_expires_at, created_at, ready_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      params: [userId, e.seriesId, ticket!.slot, nowIso, episodeId, expiresAt, nowIso, result.nextTicketAt],
    },
    {
      // coins -1 (CHECK fails the batch) when the episode is held
      sql: `INSERT INTO purchases (user_id, series_id, episode_id, type, coins, idempotency_key, created_at)
            VALUES (?, ?, ?, 'FREETIME', CASE WHEN ${HELD_SQL} THEN -1 ELSE 0 END, ?, ?)`,
      params: [userId, e.seriesId, episodeId, ...heldParams(userId, episodeId, nowIso), claim.key, nowIso],
    },
    {
      sql: `DELETE FROM ownerships WHERE user_id = ? AND episode_id = ? AND kind = 'FREETIME' AND expires_at IS NOT NULL AND expires_at <= ?`,
      params: [userId, episodeId, nowIso],
    },
    {
      sql: `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at, purchase_id, created_at, updated_at)
            VALUES (?, ?, ?, 'FREETIME', ?, last_insert_rowid(), ?, ?)`,
      params: [userId, e.seriesId, episodeId, expiresAt, nowIso, nowIso],
    },
    storeResponseStatement(claim, 200, `json_object('result', 'SUCCESS', 'data', json(?))`, [JSON.stringify(result)]),
  ])
  return written.ok ? { result: storedData<FreetimeResult>(written.results) } : written
}
