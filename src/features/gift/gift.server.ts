/**
 * The gift box on D1 (spec §2 /gift, §3 gift tickets, §8 Gift codes). Using a gift is one D1 batch: the gift
 * marked used under a guard, a purchase of the gift variant (RENT_GIFT / POSSESSION_GIFT, 0 coins, `gift_id`),
 * the ownership and the idempotency row. If any statement fails, nothing happened.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import { ADULT_STATE_SQL, adultNow, type AdultRow } from '../age/age.server.ts'
import type { Db } from '../../lib/server/db.ts'
import type { EpisodesRow, SeriesRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, rows, type Cols } from '../../lib/server/rows.ts'
import type { AgeEdition } from '../age/age.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { IdempotencyKeyTaken, isKeyTaken, storedData, storeResponseStatement } from '../wallet/idempotency.server.ts'
import { rentalEnd } from '../purchase/purchase.ts'
import { HELD_SQL, heldParams, type HoldingRow } from '../ownership/holding.server.ts'
import { checkGift, giftPurchaseType, type Gift, type GiftEpisode } from './gift.ts'
import { isConstraint } from '../../lib/server/constraint.ts'

/** Gifts shown in the box (newest first, unused ones on top). */
const GIFT_LIST_LIMIT = 100
/** Episodes offered for a series ticket. */
const CHOICES_LIMIT = 300
const USE_ATTEMPTS = 5

const GIFT_COLUMNS = `g.id, g.kind, g.title, g.series_id AS seriesId, s.title AS seriesTitle, g.episode_id AS episodeId, e.no AS episodeNo,
  g.sender_kind AS senderKind, g.given_at AS givenAt, g.used_at AS usedAt, g.used_episode_id AS usedEpisodeId, g.expires_at AS expiresAt`
type GiftListRow = Cols<
  'gifts',
  'id' | 'kind' | 'title' | 'series_id' | 'episode_id' | 'sender_kind' | 'given_at' | 'used_at' | 'used_episode_id' | 'expires_at'
> & { seriesTitle: SeriesRow['title'] | null; episodeNo: EpisodesRow['no'] | null }
const GIFT_FROM = `FROM gifts g LEFT JOIN episodes e ON e.id = g.episode_id LEFT JOIN series s ON s.id = coalesce(g.series_id, e.series_id)`

/** A series ticket's choices: the paid episodes of its series the reader cannot open yet and that are sold the gift's way. */
export type GiftChoice = Cols<'episodes', 'id' | 'no' | 'title'>

/** The reader's gift box: their gifts (expired unused ones left out), and for each usable series ticket its choices. */
export async function listGifts(db: Db, userId: number, now = new Date()): Promise<{ items: (Gift & { choices: GiftChoice[] | null })[] }> {
  const nowIso = now.toISOString()
  const gifts: Gift[] = await db.all<GiftListRow>(
    `SELECT ${GIFT_COLUMNS} ${GIFT_FROM} WHERE g.user_id = ? AND (g.used_at IS NOT NULL OR g.expires_at IS NULL OR g.expires_at > ?)
      ORDER BY g.used_at IS NOT NULL, g.given_at DESC, g.id DESC LIMIT ${GIFT_LIST_LIMIT}`,
    userId,
    nowIso,
  )
  const open = gifts.filter((g) => g.usedAt === null && g.episodeId === null && g.seriesId !== null)
  const choices = open.length
    ? await db.batch(
        open.map((g) => ({
          sql: `SELECT e.id, e.no, e.title FROM episodes e
                 WHERE e.series_id = ? AND e.is_free = 0 AND e.published_at <= ? AND ${g.kind === 'RENT' ? 'e.price_rent' : 'e.price_buy'} IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM ownerships o WHERE o.user_id = ? AND o.episode_id = e.id AND (o.expires_at IS NULL OR o.expires_at > ?))
                 ORDER BY e.no LIMIT ${CHOICES_LIMIT}`,
          params: [g.seriesId, nowIso, userId, nowIso],
        })),
      )
    : []
  const byGift = new Map(open.map((g, i) => [g.id, rows<GiftChoice>(choices[i])]))
  return { items: gifts.map((g) => ({ ...g, choices: byGift.get(g.id) ?? null })) }
}

export type UseGiftInput = {
  userId: number
  giftId: number
  episodeId?: number | undefined
  claim: IdempotencyClaim
  rentalHours: number
  ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>
}
export type UseGiftResult = {
  giftId: number
  purchase: { episodeId: number; kind: 'RENT_GIFT' | 'POSSESSION_GIFT'; expiresAt: string | null }
}

type GiftRow = Cols<'gifts', 'kind' | 'series_id' | 'episode_id' | 'used_at' | 'expires_at'>
type EpisodeRow = Cols<'episodes', 'id' | 'series_id' | 'is_free' | 'price_rent' | 'price_buy'> & Cols<'series', 'is_adult'>

/**
 * Uses gift `giftId` of the reader on `episodeId` (or the gift's own episode) — rules: `checkGift`. One batch:
 * 1. `UPDATE gifts SET used_at … WHERE … used_at IS NULL` — a concurrent use changes no row, and then
 * 2. the purchase row's coins are `-1` (CHECK coins >= 0 fails the whole batch) instead of 0 — also when the
 *    episode was opened meanwhile by a purchase, a ticket or another gift (`HELD_SQL`);
 * 3. for a rental, the reader's ended rental of the episode is dropped; the ownership (RENT for the edition's
 *    rental length, or POSSESSION; unique per user, episode and kind);
 * 4. the idempotency row holding the answer.
 * A refused batch wrote nothing: the gift is read and checked again (then ALREADY_GIVEN_GIFT, EXIST_LIBRARY, …).
 */
export async function useGift(db: Db, input: UseGiftInput, now = new Date()): Promise<UseGiftResult> {
  const { userId, giftId, claim } = input
  const nowIso = now.toISOString()
  const target = `coalesce(?, (SELECT episode_id FROM gifts WHERE id = ? AND user_id = ?))`
  for (let attempt = 1; ; attempt++) {
    const [keyRes, userRes, giftRes, episodeRes, holdingRes] = await db.batch([
      { sql: `SELECT 1 AS taken FROM idempotency_keys WHERE user_id = ? AND key = ?`, params: [userId, claim.key] },
      { sql: ADULT_STATE_SQL, params: [userId] },
      {
        sql: `SELECT kind, series_id AS seriesId, episode_id AS episodeId, used_at AS usedAt, expires_at AS expiresAt FROM gifts WHERE id = ? AND user_id = ?`,
        params: [giftId, userId],
      },
      {
        sql: `SELECT e.id, e.series_id AS seriesId, e.is_free AS isFree, s.is_adult AS isAdult, e.price_rent AS priceRent, e.price_buy AS priceBuy
                FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.id = ${target} AND s.is_published = 1 AND e.published_at <= ?`,
        params: [input.episodeId ?? null, giftId, userId, nowIso],
      },
      {
        sql: `SELECT episode_id AS episodeId, kind, expires_at AS expiresAt FROM ownerships WHERE user_id = ? AND episode_id = ${target}`,
        params: [userId, input.episodeId ?? null, giftId, userId],
      },
    ])
    if (keyRes!.results.length > 0) throw new IdempotencyKeyTaken()
    const adult = adultNow(firstRow<AdultRow>(userRes), input.ageRules, now)
    if (adult === null) throw new AppError('NOT_LOGIN_USER')
    const gift = firstRow<GiftRow>(giftRes) ?? null
    const row = firstRow<EpisodeRow>(episodeRes)
    const episode: GiftEpisode = row ? { ...row, isFree: flag(row.isFree), isAdult: flag(row.isAdult) } : null
    const verdict = checkGift(gift, episode, { isAdult: adult }, rows<HoldingRow>(holdingRes), now)
    if (!verdict.ok) throw new AppError(verdict.code)
    const g = gift!
    const e = episode!
    const type = giftPurchaseType(g.kind)
    const expiresAt = g.kind === 'RENT' ? rentalEnd(now, input.rentalHours) : null
    const result: UseGiftResult = { giftId, purchase: { episodeId: e.id, kind: type, expiresAt } }
    const statements: { sql: string; params: unknown[] }[] = [
      {
        sql: `UPDATE gifts SET used_at = ?, used_episode_id = ? WHERE id = ? AND user_id = ? AND used_at IS NULL`,
        params: [nowIso, e.id, giftId, userId],
      },
      {
        sql: `INSERT INTO purchases (user_id, series_id, episode_id, type, coins, gift_id, idempotency_key, created_at)
              VALUES (?, ?, ?, ?, CASE WHEN changes() = 1 AND NOT ${HELD_SQL} THEN 0 ELSE -1 END, ?, ?, ?)`,
        params: [userId, e.seriesId, e.id, type, ...heldParams(userId, e.id, nowIso), giftId, claim.key, nowIso],
      },
    ]
    if (g.kind === 'RENT') {
      statements.push({
        sql: `DELETE FROM ownerships WHERE user_id = ? AND episode_id = ? AND kind = 'RENT' AND expires_at IS NOT NULL AND expires_at <= ?`,
        params: [userId, e.id, nowIso],
      })
    }
    statements.push(
      {
        sql: `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at, purchase_id, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, last_insert_rowid(), ?, ?)`,
        params: [userId, e.seriesId, e.id, g.kind, expiresAt, nowIso, nowIso],
      },
      storeResponseStatement(claim, 200, `json_object('result', 'SUCCESS', 'data', json(?))`, [JSON.stringify(result)]),
    )
    try {
      const results = await db.batch(statements)
      return storedData<UseGiftResult>(results)
    } catch (err) {
      if (isKeyTaken(err)) throw new IdempotencyKeyTaken()
      if (!isConstraint(err)) throw err
      if (attempt >= USE_ATTEMPTS) throw new AppError('TOO_MANY_REQUESTS')
    }
  }
}
