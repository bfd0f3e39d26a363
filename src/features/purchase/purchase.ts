/**
 * Renting and buying episodes without I/O (spec §3 purchase kinds, §4 "a rental cannot be bought again while
 * time remains", §8 Purchase errors; docs/API.md `POST /api/v1/purchase`): which episodes of a request can be sold
 * to this reader, for how many coins (a running rental bought for good costs the price less what the rental
 * cost: `buyPrice`), and which lots pay for each of them.
 */
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { planSpend, type Lot, type SpendStep } from '../wallet/wallet.ts'
import { HOUR_MS, isoAfter } from '../../lib/time.ts'
import type { PurchaseRequest } from './purchase.schema.ts'
import { holdingState, type EpisodeHolding, type Held } from '../ownership/holding.ts'
import { mayOpen } from '../age/age.ts'

/** The purchase kinds a reader pays coins for (spec §3; gifts, PERMANENT and FREETIME come another way). */
export const PURCHASE_KINDS = ['RENT', 'POSSESSION'] as const
export type PurchaseKind = (typeof PURCHASE_KINDS)[number]

/**
 * Largest bulk purchase ("unlock all / remaining"): one request is one D1 batch of a few statements per
 * episode and per lot touched, which must stay well inside D1's per-invocation statement limit.
 */
export const MAX_EPISODES_PER_PURCHASE = 100

/** An episode as the sale rules see it. */
export type SaleEpisode = {
  id: number
  seriesId: number
  isFree: boolean
  priceRent: number | null
  priceBuy: number | null
  /** The series is for adults only (spec §6: needs the age check). */
  isAdult: boolean
}

/**
 * The coins a purchase for good costs (docs/API.md "Buying a rented episode for good"): the price, less what a
 * rental still running cost — the reader never pays twice for the same days; never below 0.
 */
export function buyPrice(priceBuy: number, held: Held | null): number {
  return held?.state === 'running' ? Math.max(0, priceBuy - held.credit) : priceBuy
}

/**
 * One episode to sell: its price in coins for the requested kind; `runningCount`: the rentals or unlocks of it
 * running when the price was set (a purchase for good is written only while that still holds).
 */
export type SaleItem = { episodeId: number; seriesId: number; price: number; runningCount?: number }

export type SaleCheck = { ok: true; items: SaleItem[]; total: number } | { ok: false; code: ErrorCode; episodeId?: number }

/**
 * Whether every episode of a request can be sold to this reader, checked in this order over the whole
 * request (so the answer does not depend on the order of the ids):
 *
 * 1. NOT_FOUND_EPISODE: an id that is not a published episode of a published series.
 * 2. ADULT_ONLY_CONTENTS: an adult series and the reader is not a confirmed adult (spec §6; opens the popup).
 * 3. UN_MATCHED_RENT_SALE_TYPE / UN_MATCHED_POSSESSION_SALE_TYPE: not offered that way — no price for the
 *    kind, or a free episode, which is offered in neither way (everyone reads it).
 * 4. EXIST_LIBRARY: the reader keeps the episode forever already (POSSESSION, ALL_POSSESSION, PERMANENT).
 * 5. Spec §4 "a rental cannot be bought again while time remains" (a rental or a wait-until-free unlock
 *    still running): renting again is RENT_PURCHASE_IMPOSSIBLE ("your rental is still running"). Buying it
 *    for good is allowed (issue 12 point 4, the upgrade), at `buyPrice`: the price less what the rental cost.
 *
 * The balance (COIN_INSUFFICIENT) is checked afterwards, by `planPurchase`.
 */
export function checkSale(
  request: PurchaseRequest,
  episodes: readonly SaleEpisode[],
  holdings: readonly EpisodeHolding[],
  reader: { isAdult: boolean },
  now: Date,
): SaleCheck {
  const byId = new Map(episodes.map((e) => [e.id, e]))
  const missing = request.episodeIds.find((id) => !byId.has(id))
  if (missing !== undefined) return { ok: false, code: 'NOT_FOUND_EPISODE', episodeId: missing }
  const wanted = request.episodeIds.map((id) => byId.get(id)!)

  const adult = wanted.find((e) => !mayOpen(e.isAdult, reader.isAdult))
  if (adult) return { ok: false, code: 'ADULT_ONLY_CONTENTS', episodeId: adult.id }

  const priceOf = (e: SaleEpisode) => (e.isFree ? null : request.kind === 'RENT' ? e.priceRent : e.priceBuy)
  const unsold = wanted.find((e) => priceOf(e) === null)
  if (unsold)
    return {
      ok: false,
      code: request.kind === 'RENT' ? 'UN_MATCHED_RENT_SALE_TYPE' : 'UN_MATCHED_POSSESSION_SALE_TYPE',
      episodeId: unsold.id,
    }

  const held = new Map(request.episodeIds.map((episodeId) => [episodeId, holdingState(holdings, episodeId, now)]))
  const owned = request.episodeIds.find((id) => held.get(id)?.state === 'forever')
  if (owned !== undefined) return { ok: false, code: 'EXIST_LIBRARY', episodeId: owned }
  const running = request.episodeIds.find((id) => held.get(id)?.state === 'running')
  if (running !== undefined && request.kind === 'RENT') return { ok: false, code: 'RENT_PURCHASE_IMPOSSIBLE', episodeId: running }

  const items = wanted.map((e) => {
    const h = held.get(e.id) ?? null
    const price = request.kind === 'RENT' ? priceOf(e)! : buyPrice(priceOf(e)!, h)
    return { episodeId: e.id, seriesId: e.seriesId, price, runningCount: h?.runningCount ?? 0 }
  })
  return { ok: true, items, total: items.reduce((s, i) => s + i.price, 0) }
}

/** The lots one episode of a purchase draws from. */
export type PurchaseStep = { episodeId: number; steps: SpendStep[] }

/**
 * Which lots pay for each item, in request order: the items are paid one after the other from the same
 * lots (spec §4 spend order through `planSpend`), so together they draw exactly what one spend of the total
 * would, and every ledger row can name the episode it paid for. Null when the balance is short
 * (COIN_INSUFFICIENT).
 */
export function planPurchase(lots: readonly Lot[], items: readonly SaleItem[], now: Date): PurchaseStep[] | null {
  const left = lots.map((l) => ({ ...l }))
  const byId = new Map(left.map((l) => [l.id, l]))
  const out: PurchaseStep[] = []
  for (const item of items) {
    const steps = planSpend(left, item.price, now)
    if (!steps) return null
    for (const s of steps) byId.get(s.lotId)!.remaining -= s.take
    out.push({ episodeId: item.episodeId, steps })
  }
  return out
}

/** When a rental bought at `now` ends (edition `rentalHours`, spec §3 "rental length per edition"). */
export function rentalEnd(now: Date, rentalHours: number): string {
  return isoAfter(now, rentalHours * HOUR_MS)
}
