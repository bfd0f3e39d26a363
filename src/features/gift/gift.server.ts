/**
 * The gift box (spec §2 /gift, §3 gift tickets, §8 Gift codes). A gift, the purchase it writes, the ownership and the
 * idempotency row are the reader's money rows (`moneyDb`, issue 38); the episodes and series they name are shared
 * and read apart. Using a gift is one money batch, decided in the reader's object (`openGift`): the gift marked used under a guard, a purchase of the gift
 * variant (RENT_GIFT / POSSESSION_GIFT, 0 coins, `gift_id`), the ownership and the idempotency row. If any statement
 * fails, nothing happened. A gift is one reader's row from the start (given by mail or the seed, `sender_kind`):
 * nothing here writes two readers' rows.
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import { ADULT_STATE_SQL, adultNow, type AdultRow } from '../age/age.server.ts'
import type { Db } from '../../lib/server/db.ts'
import type { EpisodesRow, SeriesRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, rows, type Cols } from '../../lib/server/rows.ts'
import type { AgeEdition } from '../age/age.ts'
import type { IdempotencyClaim } from '../wallet/idempotency.ts'
import { keyTaken, settled, storedData, storeResponseStatement, type Decision } from '../wallet/idempotency.server.ts'
import { rentalEnd } from '../purchase/purchase.ts'
import { HELD_SQL, heldParams, holdingsOf, type HoldingRow } from '../ownership/holding.server.ts'
import { checkGift, giftPurchaseType, type Gift, type GiftEpisode } from './gift.ts'
import { decide, moneyDb } from '../reader/money-db.server.ts'
import type { MoneyRun } from '../reader/money-store.server.ts'

/** Gifts shown in the box (newest first, unused ones on top). */
const GIFT_LIST_LIMIT = 100
/** Episodes offered for a series ticket. */
const CHOICES_LIMIT = 300

const GIFT_COLUMNS = `id, kind, title, series_id AS seriesId, episode_id AS episodeId, sender_kind AS senderKind, given_at AS givenAt,
  used_at AS usedAt, used_episode_id AS usedEpisodeId, expires_at AS expiresAt`
type GiftListRow = Cols<
  'gifts',
  'id' | 'kind' | 'title' | 'series_id' | 'episode_id' | 'sender_kind' | 'given_at' | 'used_at' | 'used_episode_id' | 'expires_at'
>

/** A series ticket's choices: the paid episodes of its series the reader cannot open yet and that are sold the gift's way. */
export type GiftChoice = Cols<'episodes', 'id' | 'no' | 'title'>

/**
 * The reader's gift box: their gifts (expired unused ones left out), and for each usable series ticket its choices.
 * Two round trips: one batch over the reader's money rows (the gifts, and their live ownerships in the series of
 * their unused series tickets), then one shared batch (the episodes' numbers, the series' titles, and each series
 * ticket's episodes less those the reader holds, passed as a list).
 */
export async function listGifts(db: Db, userId: number, now = new Date()): Promise<{ items: (Gift & { choices: GiftChoice[] | null })[] }> {
  const nowIso = now.toISOString()
  const [giftRes, ownedRes] = await moneyDb(db, userId).batch([
    {
      sql: `SELECT ${GIFT_COLUMNS} FROM gifts WHERE user_id = ? AND (used_at IS NOT NULL OR expires_at IS NULL OR expires_at > ?)
             ORDER BY used_at IS NOT NULL, given_at DESC, id DESC LIMIT ${GIFT_LIST_LIMIT}`,
      params: [userId, nowIso],
    },
    {
      sql: `SELECT series_id AS seriesId, episode_id AS episodeId FROM ownerships
             WHERE user_id = ? AND (expires_at IS NULL OR expires_at > ?)
               AND series_id IN (SELECT series_id FROM gifts WHERE user_id = ? AND used_at IS NULL AND episode_id IS NULL AND series_id IS NOT NULL)`,
      params: [userId, nowIso, userId],
    },
  ])
  const gifts = rows<GiftListRow>(giftRes)
  if (gifts.length === 0) return { items: [] }
  const owned = rows<{ seriesId: number; episodeId: number }>(ownedRes)
  const open = gifts.filter((g) => g.usedAt === null && g.episodeId === null && g.seriesId !== null)
  const ids = (list: (number | null)[]) => JSON.stringify([...new Set(list.filter((id) => id !== null))])
  const [episodeRes, seriesRes, ...choices] = await db.batch([
    {
      sql: `SELECT e.id, e.no, s.title FROM episodes e LEFT JOIN series s ON s.id = e.series_id WHERE e.id IN (SELECT value FROM json_each(?))`,
      params: [ids(gifts.map((g) => g.episodeId))],
    },
    { sql: `SELECT id, title FROM series WHERE id IN (SELECT value FROM json_each(?))`, params: [ids(gifts.map((g) => g.seriesId))] },
    ...open.map((g) => ({
      sql: `SELECT e.id, e.no, e.title FROM episodes e
             WHERE e.series_id = ? AND e.is_free = 0 AND e.published_at <= ? AND ${g.kind === 'RENT' ? 'e.price_rent' : 'e.price_buy'} IS NOT NULL
               AND e.id NOT IN (SELECT value FROM json_each(?))
             ORDER BY e.no LIMIT ${CHOICES_LIMIT}`,
      params: [g.seriesId, nowIso, JSON.stringify(owned.filter((o) => o.seriesId === g.seriesId).map((o) => o.episodeId))],
    })),
  ])
  const episodes = new Map(
    rows<{ id: EpisodesRow['id']; no: EpisodesRow['no']; title: SeriesRow['title'] | null }>(episodeRes).map((e) => [e.id, e]),
  )
  const series = new Map(rows<{ id: SeriesRow['id']; title: SeriesRow['title'] }>(seriesRes).map((s) => [s.id, s.title]))
  const byGift = new Map(open.map((g, i) => [g.id, rows<GiftChoice>(choices[i])]))
  return {
    items: gifts.map((g) => {
      const episode = g.episodeId === null ? undefined : episodes.get(g.episodeId)
      const seriesTitle = g.seriesId !== null ? (series.get(g.seriesId) ?? null) : (episode?.title ?? null)
      const { id, kind, title, seriesId, episodeId, ...rest } = g
      // the fields in the order the box has always answered them
      return {
        id,
        kind,
        title,
        seriesId,
        seriesTitle,
        episodeId,
        episodeNo: episode?.no ?? null,
        ...rest,
        choices: byGift.get(g.id) ?? null,
      }
    }),
  }
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

/** What the shared side tells the reader's object for a gift's use: the episode as the catalogue has it, the reader's age. */
export type GiftOrder = Pick<UseGiftInput, 'userId' | 'giftId' | 'claim' | 'rentalHours'> & {
  /** The episode asked for, or the gift's own. */
  episodeId: number | null
  episode: GiftEpisode
  adult: boolean
  now: string
}

/**
 * Uses gift `giftId` of the reader on `episodeId` (or the gift's own episode) — rules: `checkGift`. Without
 * `episodeId`, the gift's episode is read from the reader's object first; then one D1 batch reads the account's age
 * state and the episode, and one call to the reader's object decides and writes (`openGift`). A stored key throws
 * IdempotencyKeyTaken (the middleware answers with the stored response).
 */
export async function useGift(db: Db, input: UseGiftInput, now = new Date()): Promise<UseGiftResult> {
  const { userId, giftId } = input
  const nowIso = now.toISOString()
  const episodeId =
    input.episodeId ??
    (
      await moneyDb(db, userId).first<{ episodeId: number | null }>(
        `SELECT episode_id AS episodeId FROM gifts WHERE id = ? AND user_id = ?`,
        giftId,
        userId,
      )
    )?.episodeId ??
    null
  const [userRes, episodeRes] = await db.batch([
    { sql: ADULT_STATE_SQL, params: [userId] },
    {
      sql: `SELECT e.id, e.series_id AS seriesId, e.is_free AS isFree, s.is_adult AS isAdult, e.price_rent AS priceRent, e.price_buy AS priceBuy
              FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.id = ? AND s.is_published = 1 AND e.published_at <= ?`,
      params: [episodeId, nowIso],
    },
  ])
  const adult = adultNow(firstRow<AdultRow>(userRes), input.ageRules, now)
  if (adult === null) throw new AppError('NOT_LOGIN_USER')
  const row = firstRow<EpisodeRow>(episodeRes)
  const episode: GiftEpisode = row ? { ...row, isFree: flag(row.isFree), isAdult: flag(row.isAdult) } : null
  const order: GiftOrder = { userId, giftId, claim: input.claim, rentalHours: input.rentalHours, episodeId, episode, adult, now: nowIso }
  return settled(await decide(userId, 'openGift', order))
}

/**
 * A gift's use inside the reader's object (procedures.server.ts): reads the key, the gift and the holdings of the
 * episode, checks (`checkGift`), then writes one batch, with nothing in between:
 * 1. `UPDATE gifts SET used_at … WHERE … used_at IS NULL`, and when it changes no row
 * 2. the purchase row's coins are `-1` (CHECK coins >= 0 fails the whole batch) instead of 0 — also when the
 *    episode is held (`HELD_SQL`): the rules the check decided, held again in the write;
 * 3. for a rental, the reader's ended rental of the episode is dropped; the ownership (RENT for the edition's
 *    rental length, or POSSESSION; unique per user, episode and kind);
 * 4. the idempotency row holding the answer.
 */
export function openGift(run: MoneyRun, order: GiftOrder): Decision<UseGiftResult> {
  const { userId, giftId, claim, episode } = order
  const now = new Date(order.now)
  const nowIso = order.now
  const read = run([
    keyTaken(claim),
    {
      sql: `SELECT kind, series_id AS seriesId, episode_id AS episodeId, used_at AS usedAt, expires_at AS expiresAt FROM gifts WHERE id = ? AND user_id = ?`,
      params: [giftId, userId],
    },
    holdingsOf(userId, order.episodeId),
  ])
  if (!read.ok) return read
  const [keyRes, giftRes, holdingRes] = read.results
  if (keyRes!.results.length > 0) return { taken: true }
  const gift = firstRow<GiftRow>(giftRes) ?? null
  const verdict = checkGift(gift, episode, { isAdult: order.adult }, rows<HoldingRow>(holdingRes), now)
  if (!verdict.ok) return { refused: verdict.code }
  const g = gift!
  const e = episode!
  const type = giftPurchaseType(g.kind)
  const expiresAt = g.kind === 'RENT' ? rentalEnd(now, order.rentalHours) : null
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
  const written = run(statements)
  return written.ok ? { result: storedData<UseGiftResult>(written.results) } : written
}
