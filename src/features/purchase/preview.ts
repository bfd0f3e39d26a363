/**
 * The rent-or-buy choice before paying (issue 4 §3: "the rent-or-buy choice shows the price and the cost to catch
 * up — e.g. unlock 14 remaining: 42 coins — and which coins will be used"), without I/O. It runs the same rules
 * as the purchase itself (`checkSale`, `planPurchase`, spec §4 spend order), so what it shows is what a
 * purchase made now would do.
 */
import type { CoinType, Lot, SpendableType } from '../wallet/wallet.ts'
import { SPEND_ORDER } from '../wallet/wallet.ts'
import { buyPrice, MAX_EPISODES_PER_PURCHASE, planPurchase, type PurchaseKind, type SaleItem } from './purchase.ts'
import { holdingState, type EpisodeHolding } from '../ownership/holding.ts'
import { WUF_UNLOCK_HOURS, type Ticket } from '../freetime/freetime.ts'

/** An episode of the series as the preview sees it (published ones only, any order). */
export type PreviewEpisode = { id: number; no: number; isFree: boolean; priceRent: number | null; priceBuy: number | null }

/** Coins of one type a purchase would draw (spend order: BONUS, FREE_COIN, COIN). */
type CoinUse = { type: SpendableType; amount: number }

/**
 * One way to pay: `episodeIds` (in episode order) for `coins` in all. `uses` says which coins pay (spec §4
 * order); when the balance is short, `affordable` is false, `uses` is empty and `shortBy` says how many coins
 * are missing (the reader is sent to /shop). `credit`: the coins of running rentals deducted from a purchase
 * for good of those episodes (`buyPrice`; 0 otherwise).
 */
export type PreviewOffer = {
  kind: PurchaseKind
  scope: 'SINGLE' | 'REMAINING'
  episodeIds: number[]
  coins: number
  credit: number
  uses: CoinUse[]
  affordable: boolean
  shortBy: number
}

/** Wait-until-free state of the series for this reader (null when the series has none). */
type PreviewFreetime = {
  /** Hours between tickets (the series' setting). */
  hours: number
  /** Hours an unlock lasts (spec §4: 72). */
  unlockHours: number
  /** The ticket can be used on this episode now. */
  available: boolean
  /** When the next ticket arrives (null: one is there now). */
  nextTicketAt: string | null
}

/**
 * What the choice shows for one episode: its prices, what the reader already holds of it, and per kind the
 * single offer (this episode) and the "unlock all remaining" offer (this episode and every later one the reader
 * cannot open yet and that is sold that way — buying for good, also the running rentals, less what they cost;
 * present only when it covers more than this episode; at most MAX_EPISODES_PER_PURCHASE, the first ones in
 * episode order).
 */
export type PurchasePreview = {
  episodeId: number
  no: number
  free: boolean
  price: { rent: number | null; buy: number | null }
  /** The reader's current access (a rental or an unlock running, or kept forever); null: none. */
  ownership: { kind: string; expiresAt: string | null } | null
  offers: Record<PurchaseKind, { single: PreviewOffer | null; remaining: PreviewOffer | null }>
  /** Spendable coins now (mileage is never spent on episodes). */
  balance: { total: number; bonus: number; freeCoin: number; coin: number }
  freetime: PreviewFreetime | null
}

/** The coins of each type `items` would draw, in spend order (null when the balance is short). */
function coinUses(lots: readonly Lot[], items: readonly SaleItem[], now: Date): CoinUse[] | null {
  const plan = planPurchase(lots, items, now)
  if (!plan) return null
  const typeOf = new Map(lots.map((l) => [l.id, l.type]))
  const sums = new Map<CoinType, number>()
  for (const p of plan) for (const s of p.steps) sums.set(typeOf.get(s.lotId)!, (sums.get(typeOf.get(s.lotId)!) ?? 0) + s.take)
  return SPEND_ORDER.filter((t) => (sums.get(t) ?? 0) > 0).map((t) => ({ type: t, amount: sums.get(t)! }))
}

function spendable(lots: readonly Lot[], now: Date) {
  const live = lots.filter((l) => l.remaining > 0 && (l.expiresAt === null || Date.parse(l.expiresAt) > now.getTime()))
  const sum = (t: CoinType) => live.filter((l) => l.type === t).reduce((s, l) => s + l.remaining, 0)
  const b = { bonus: sum('BONUS'), freeCoin: sum('FREE_COIN'), coin: sum('COIN') }
  return { total: b.bonus + b.freeCoin + b.coin, ...b }
}

/**
 * The preview of `episodeId` among the series' `episodes` for a reader holding `holdings` (their ownerships of
 * the series) and `lots`; `ticket` is the series' WUF ticket (null: the series has none, or a guest).
 * Returns null when `episodeId` is not among `episodes`.
 */
export function purchasePreview(
  episodeId: number,
  episodes: readonly PreviewEpisode[],
  holdings: readonly EpisodeHolding[],
  lots: readonly Lot[],
  now: Date,
  wuf: { hours: number; ticket: Ticket } | null = null,
): PurchasePreview | null {
  const target = episodes.find((e) => e.id === episodeId)
  if (!target) return null
  const held = holdingState(holdings, target.id, now)
  const balance = spendable(lots, now)
  // the same rule as `checkSale`: a running rental may be bought for good (at `buyPrice`), not rented again
  const sellable = (e: PreviewEpisode, kind: PurchaseKind) => {
    if (e.isFree) return null
    const h = holdingState(holdings, e.id, now)
    if (kind === 'RENT') return e.priceRent === null || h !== null ? null : e.priceRent
    return e.priceBuy === null || h?.state === 'forever' ? null : buyPrice(e.priceBuy, h)
  }
  const offer = (kind: PurchaseKind, scope: PreviewOffer['scope'], list: PreviewEpisode[]): PreviewOffer => {
    const items = list.map((e) => ({ episodeId: e.id, seriesId: 0, price: sellable(e, kind)! }))
    const coins = items.reduce((s, i) => s + i.price, 0)
    const uses = coinUses(lots, items, now)
    const full = kind === 'POSSESSION' ? list.reduce((s, e) => s + e.priceBuy!, 0) : coins
    return {
      kind,
      scope,
      episodeIds: list.map((e) => e.id),
      coins,
      credit: full - coins,
      uses: uses ?? [],
      affordable: uses !== null,
      shortBy: uses ? 0 : Math.max(0, coins - balance.total),
    }
  }
  const later = [...episodes].filter((e) => e.no >= target.no).sort((a, b) => a.no - b.no)
  const offersOf = (kind: PurchaseKind) => {
    const single = sellable(target, kind) === null ? null : offer(kind, 'SINGLE', [target])
    const rest = later.filter((e) => sellable(e, kind) !== null).slice(0, MAX_EPISODES_PER_PURCHASE)
    const remaining = single && rest.length > 1 ? offer(kind, 'REMAINING', rest) : null
    return { single, remaining }
  }
  const freetime: PreviewFreetime | null =
    wuf && !target.isFree
      ? {
          hours: wuf.hours,
          unlockHours: WUF_UNLOCK_HOURS,
          available: wuf.ticket.available && held === null,
          nextTicketAt: wuf.ticket.availableAt,
        }
      : null
  return {
    episodeId: target.id,
    no: target.no,
    free: target.isFree,
    price: { rent: target.priceRent, buy: target.priceBuy },
    ownership: held ? { kind: held.kind, expiresAt: held.expiresAt } : null,
    offers: { RENT: offersOf('RENT'), POSSESSION: offersOf('POSSESSION') },
    balance,
    freetime,
  }
}

/** The main action of the rent-or-buy choice: the wait-until-free ticket, paying, or the shop (`mainAction`). */
export type MainAction = 'FREETIME' | 'PAY' | 'TOP_UP'

/**
 * Which action the rent-or-buy choice puts first (issue 25 §2, the low-balance path): a wait-until-free ticket
 * ready for this episode comes first and is the main action; otherwise paying the chosen `offer` when the
 * balance covers it, else topping up (`TOP_UP`, a link to the shop) with the `missing` coins.
 * `coins` is what the coin part offers: paying, or the shop when short (null: nothing is sold for coins).
 */
export function mainAction(
  offer: Pick<PreviewOffer, 'affordable' | 'shortBy'> | null,
  freetime: Pick<PreviewFreetime, 'available'> | null,
): { main: MainAction | null; coins: 'PAY' | 'TOP_UP' | null; missing: number } {
  const coins = offer === null ? null : offer.affordable ? 'PAY' : 'TOP_UP'
  const main = freetime?.available ? 'FREETIME' : coins
  return { main, coins, missing: offer && !offer.affordable ? offer.shortBy : 0 }
}
