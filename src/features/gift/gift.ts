/**
 * Gift box rules without I/O (spec §2 /gift, §3 "gift tickets: rental and purchase", purchase types RENT_GIFT and
 * POSSESSION_GIFT, §8 Gift codes). A gift is a rental or purchase ticket for one episode, or for any paid episode
 * of one series; using it opens the episode (a RENT ownership for the edition's rental length, or POSSESSION)
 * through a purchase of the gift variant, for 0 coins — no coin moves, so no ledger row.
 */
import { z } from 'zod'
import { RowId } from '../../lib/ids.ts'
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { holdingState, type EpisodeHolding } from '../ownership/holding.ts'
import { mayOpen } from '../age/age.ts'

export type GiftKind = 'RENT' | 'POSSESSION'

/** The purchase type a gift of `kind` writes (spec §3). */
export function giftPurchaseType(kind: GiftKind): 'RENT_GIFT' | 'POSSESSION_GIFT' {
  return kind === 'RENT' ? 'RENT_GIFT' : 'POSSESSION_GIFT'
}

/** A gift as its owner sees it in the box. */
export type Gift = {
  id: number
  kind: GiftKind
  title: string
  seriesId: number | null
  seriesTitle: string | null
  episodeId: number | null
  episodeNo: number | null
  senderKind: 'MAIL' | 'USER'
  givenAt: string
  usedAt: string | null
  usedEpisodeId: number | null
  expiresAt: string | null
}

/** Body of `POST /api/v1/gift/{id}/use`: the episode to open (optional when the gift names one). */
export const UseGiftRequest = z.object({ episodeId: RowId.optional() })
export type UseGiftRequest = z.infer<typeof UseGiftRequest>

/** The target episode as the rule sees it (null: not a published episode). */
export type GiftEpisode = {
  id: number
  seriesId: number
  isFree: boolean
  isAdult: boolean
  priceRent: number | null
  priceBuy: number | null
} | null

/**
 * Whether the reader may use `gift` on `episode` at `now`, in this order (spec §8 Gift, then Purchase codes):
 * - NOT_FOUND_GIFT: no such gift in the reader's box (another reader's too), or it has expired;
 * - ALREADY_GIVEN_GIFT: it was used already;
 * - NOT_FOUND_GIFT_INFO: what it targets is not a published episode (gone, unpublished, or none was named for
 *   a series ticket);
 * - UN_MATCHED_GIFT_TARGET_TYPE: the episode is not the gift's (another episode or series), is free, or is not
 *   sold the gift's way (a rental ticket on a buy-only episode, a purchase ticket on a rent-only one);
 * - ADULT_ONLY_CONTENTS; EXIST_LIBRARY when kept already; RENT_PURCHASE_IMPOSSIBLE / POSSESSION_PURCHASE_IMPOSSIBLE
 *   while a rental or unlock of it runs (spec §4).
 */
export function checkGift(
  gift: Pick<Gift, 'kind' | 'seriesId' | 'episodeId' | 'usedAt' | 'expiresAt'> | null,
  episode: GiftEpisode,
  reader: { isAdult: boolean },
  holdings: readonly EpisodeHolding[],
  now: Date,
): { ok: true } | { ok: false; code: ErrorCode } {
  if (!gift || (gift.expiresAt !== null && Date.parse(gift.expiresAt) <= now.getTime())) return { ok: false, code: 'NOT_FOUND_GIFT' }
  if (gift.usedAt !== null) return { ok: false, code: 'ALREADY_GIVEN_GIFT' }
  if (!episode) return { ok: false, code: 'NOT_FOUND_GIFT_INFO' }
  const price = gift.kind === 'RENT' ? episode.priceRent : episode.priceBuy
  if (
    (gift.episodeId !== null && gift.episodeId !== episode.id) ||
    (gift.seriesId !== null && gift.seriesId !== episode.seriesId) ||
    episode.isFree ||
    price === null
  ) {
    return { ok: false, code: 'UN_MATCHED_GIFT_TARGET_TYPE' }
  }
  if (!mayOpen(episode.isAdult, reader.isAdult)) return { ok: false, code: 'ADULT_ONLY_CONTENTS' }
  const held = holdingState(holdings, episode.id, now)
  if (held?.state === 'forever') return { ok: false, code: 'EXIST_LIBRARY' }
  if (held?.state === 'running')
    return { ok: false, code: gift.kind === 'RENT' ? 'RENT_PURCHASE_IMPOSSIBLE' : 'POSSESSION_PURCHASE_IMPOSSIBLE' }
  return { ok: true }
}
