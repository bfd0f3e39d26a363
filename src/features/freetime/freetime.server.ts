/**
 * Wait-until-free (docs/API.md `POST /api/v1/purchase/freetime`, spec §4): using the series' ticket on an episode is
 * one batch of the reader's money rows (`moneyDb`, src/features/reader/money-db.server.ts) — the ticket row (its slot
 * unique per reader and series), a FREETIME purchase, the FREETIME ownership for 72 hours and the idempotency row. If
 * any statement fails, nothing happened.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import { ADULT_STATE_SQL, adultNow, type AdultRow } from '../age/age.server.ts'
import type { Db } from '../../lib/server/db.ts'
import type { WufTicketsRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, rows, type Cols } from '../../lib/server/rows.ts'
import type { AgeEdition } from '../age/age.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { IdempotencyKeyTaken, isKeyTaken, storedData, storeResponseStatement } from '../wallet/idempotency.server.ts'
import { HELD_SQL, heldParams, type HoldingRow } from '../ownership/holding.server.ts'
import { checkFreetime, currentTicket, nextTicketAt, unlockEnd, type FreetimeEpisode } from './freetime.ts'
import { isConstraint } from '../../lib/server/constraint.ts'
import { moneyDb } from '../reader/money-db.server.ts'

/** Re-reads after a concurrent use refused the batch (the next read then finds the ticket gone). */
const FREETIME_ATTEMPTS = 5

export type FreetimeResult = { episodeId: number; expiresAt: string; nextTicketAt: string }

type EpisodeRow = Cols<'episodes', 'id' | 'series_id' | 'is_free'> & Cols<'series', 'is_adult' | 'wuf_hours'>

/**
 * Uses the reader's ticket of the episode's series on `episodeId` (rules: `checkFreetime`). It reads the account and
 * the episode with its series (one D1 batch), then the reader's idempotency key, holdings of the episode and last use
 * of the series' ticket (one `moneyDb` batch, given the series read first), and writes one `moneyDb` batch. A second use of the
 * same ticket, however concurrent, hits the unique slot (user, series, available_at) and fails as a whole; it
 * is then read again and answers NOT_EVENT_REMAIN_TICKET. An episode opened another way meanwhile (a purchase,
 * a gift) fails it too (`HELD_SQL` in the purchase row) and then answers EXIST_LIBRARY / RENT_PURCHASE_IMPOSSIBLE.
 * A lost race for the idempotency key throws IdempotencyKeyTaken (the middleware answers with the stored first
 * response).
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
  const { userId, episodeId, claim } = input
  const nowIso = now.toISOString()
  const money = moneyDb(db, userId)
  for (let attempt = 1; ; attempt++) {
    const [userRes, episodeRes] = await db.batch([
      { sql: ADULT_STATE_SQL, params: [userId] },
      {
        sql: `SELECT e.id, e.series_id AS seriesId, e.is_free AS isFree, s.is_adult AS isAdult, s.wuf_hours AS wufHours
                FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.id = ? AND s.is_published = 1 AND e.published_at <= ?`,
        params: [episodeId, nowIso],
      },
    ])
    const row = firstRow<EpisodeRow>(episodeRes)
    const [keyRes, holdingRes, wufRes] = await money.batch([
      { sql: `SELECT 1 AS taken FROM idempotency_keys WHERE user_id = ? AND key = ?`, params: [userId, claim.key] },
      {
        sql: `SELECT episode_id AS episodeId, kind, expires_at AS expiresAt FROM ownerships WHERE user_id = ? AND episode_id = ?`,
        params: [userId, episodeId],
      },
      // the series of a published episode (none: no ticket is read)
      {
        sql: `SELECT max(used_at) AS lastUsedAt FROM wuf_tickets WHERE user_id = ? AND series_id = ?`,
        params: [userId, row?.seriesId ?? null],
      },
    ])
    if (keyRes!.results.length > 0) throw new IdempotencyKeyTaken()
    const adult = adultNow(firstRow<AdultRow>(userRes), input.ageRules, now)
    if (adult === null) throw new AppError('NOT_LOGIN_USER')
    const episode: FreetimeEpisode = row
      ? { id: row.id, seriesId: row.seriesId, isFree: flag(row.isFree), isAdult: flag(row.isAdult), wufHours: row.wufHours }
      : null
    const lastUsedAt = firstRow<{ lastUsedAt: WufTicketsRow['used_at'] }>(wufRes)?.lastUsedAt ?? null
    const ticket = episode?.wufHours ? currentTicket(episode.wufHours, lastUsedAt, now) : null
    const verdict = checkFreetime(episode, { isAdult: adult }, rows<HoldingRow>(holdingRes), ticket, now)
    if (!verdict.ok) throw new AppError(verdict.code, verdict.availableAt ? { nextTicketAt: verdict.availableAt } : undefined)
    const e = episode!
    const expiresAt = unlockEnd(now)
    const result: FreetimeResult = { episodeId, expiresAt, nextTicketAt: nextTicketAt(e.wufHours!, now) }
    try {
      const results = await money.batch([
        {
          // ready_at: when the series' next ticket is ready, the reader object's alarm tells them (reader migration 6)
          sql: `INSERT INTO wuf_tickets (user_id, series_id, available_at, used_at, used_episode_id, unlock_expires_at, created_at, ready_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          params: [userId, e.seriesId, ticket!.slot, nowIso, episodeId, expiresAt, nowIso, result.nextTicketAt],
        },
        {
          // coins -1 (CHECK fails the batch) when the episode was opened another way since the read
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
      return storedData<FreetimeResult>(results)
    } catch (err) {
      if (isKeyTaken(err)) throw new IdempotencyKeyTaken()
      // The ticket was used meanwhile (unique slot) or the episode opened another way: read and check again.
      if (!isConstraint(err)) throw err
      if (attempt >= FREETIME_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
  }
}
