/**
 * The rent-or-buy island (issue 4 §3): the reader picks rent or buy, this episode or "unlock all remaining",
 * sees the price and which coins pay (spec §4 spend order, from `GET /purchase/preview`, rendered by the server
 * into the props), confirms, and the island calls `POST /api/v1/purchase` with an Idempotency-Key made here (one
 * per choice, kept for retries). A wait-until-free ticket, when the series has one, is offered too.
 *
 * The main action (issue 25 §2, `mainAction`): a ready ticket comes first; otherwise "Confirmer" when the
 * balance covers the choice, else "Recharger" with the missing coins, a link to the shop that brings the reader
 * back here after paying (`shopHref`, server-made, so it works without JavaScript). An error shows beside the
 * action that failed, scrolled into view, announced (role=alert) and focused.
 *
 * Success → the new balance in the session store (`coinChanged`: the header and the other tabs), then the page
 * reloads open; COIN_INSUFFICIENT → the shop link with the way back. ADULT_ONLY_CONTENTS opens the age popup (the
 * API client's follow-up).
 */
import { api, type ApiResult } from '../session/api.ts'
import { useEffect, useRef, useState } from 'react'
import { mainAction, type PreviewOffer, type PurchasePreview } from './preview.ts'
import type { PurchaseKind } from './purchase.ts'
import type { PurchaseRequest } from './purchase.schema.ts'
import type { FreetimeRequest } from '../freetime/freetime.schema.ts'
import type { Coin } from '../session/store.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'

type RentOrBuyLabels = {
  legend: string
  /** "{count} pièces", the price inside `rent` and `remaining`. */
  coins: Plural
  /** The rental's hours already in, "{coins}" left. */
  rent: string
  buy: Plural
  scope: string
  single: Plural
  remaining: Plural
  uses: string
  /** "Votre location est déduite : {count} pièces de moins." (a purchase for good of running rentals) */
  credit: Plural
  type: Record<'BONUS' | 'FREE_COIN' | 'COIN', string>
  short: Plural
  /** "Recharger : il manque {count} pièces", the main action when the balance is short. */
  topUp: Plural
  toShop: string
  confirm: Plural
  busy: string
  done: string
  freetime: Plural
  freetimeButton: Plural
  freetimeNext: string
  failed: string
}

type Props = {
  preview: PurchasePreview
  labels: RentOrBuyLabels
  freetimeNext?: string | null
  /** The shop link with the way back to this episode (`shopHref`; the shop keeps it only if valid). */
  shopHref?: string
}

/** `{name}` placeholders of a label filled in. */
function fill(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m))
}

/** What the last action did; an error is shown beside the action it came from (`at`). */
type Outcome = { tone: 'ok'; text: string } | { tone: 'error'; text: string; at: 'FREETIME' | 'COINS'; shop: boolean } | null

export default function RentOrBuy({ preview, labels, freetimeNext = null, shopHref = '/shop' }: Props) {
  const kinds = (['RENT', 'POSSESSION'] as const).filter((k) => preview.offers[k].single !== null)
  const [kind, setKind] = useState<PurchaseKind>(kinds[0] ?? 'RENT')
  const [scope, setScope] = useState<'SINGLE' | 'REMAINING'>('SINGLE')
  const coins = (n: number) => pluralText(labels.coins, n)
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const errorBox = useRef<HTMLParagraphElement>(null)
  const keys = useRef(new Map<string, string>())
  const keyFor = (what: string) => {
    if (!keys.current.has(what)) keys.current.set(what, crypto.randomUUID())
    return keys.current.get(what)!
  }
  // An error is where the reader looks: scrolled into view beside the action, and focused (read out).
  useEffect(() => {
    if (outcome?.tone !== 'error' || !errorBox.current) return
    errorBox.current.scrollIntoView({ block: 'center' })
    errorBox.current.focus()
  }, [outcome])
  if (kinds.length === 0 && !preview.freetime) return null

  const offers = preview.offers[kind]
  const offer: PreviewOffer | null = kinds.length > 0 ? ((scope === 'REMAINING' ? offers.remaining : null) ?? offers.single) : null
  const action = mainAction(offer, preview.freetime)
  const ticketReady = preview.freetime?.available === true
  const look = (a: typeof action.main) => (action.main === a ? 'btn' : 'btn rob-secondary')

  /** A purchase or a ticket: the new balance goes to the session store, then the page reloads open. */
  const handle = async (at: 'FREETIME' | 'COINS', call: Promise<ApiResult<{ coin?: Coin }>>) => {
    setBusy(true)
    setOutcome(null)
    const res = await call
    if (res.ok) {
      const coin = res.data.coin
      if (coin) await import('../session/store.ts').then((session) => session.coinChanged(coin))
      setOutcome({ tone: 'ok', text: labels.done })
      // The browser reopens the page where it stands (its scroll kept over any #unlock): at the episode's title,
      // clear of the bar above it (its scroll-margin), not where the offer was (issue 35 point 9).
      document.getElementById('episode-title')?.scrollIntoView({ behavior: 'instant' })
      location.reload()
      return
    }
    setBusy(false)
    setOutcome({ tone: 'error', text: res.message ?? labels.failed, at, shop: res.code === 'COIN_INSUFFICIENT' })
  }

  const buyNow = () => {
    if (!offer || busy) return
    const body: PurchaseRequest = { episodeIds: offer.episodeIds, kind: offer.kind }
    void handle('COINS', api('/purchase', { method: 'POST', key: keyFor(`${offer.kind}:${offer.scope}`), body }))
  }
  const useTicket = () => {
    if (busy) return
    const body: FreetimeRequest = { episodeId: preview.episodeId }
    void handle('FREETIME', api('/purchase/freetime', { method: 'POST', key: keyFor('FREETIME'), body }))
  }
  const errorAt = (at: 'FREETIME' | 'COINS') =>
    outcome?.tone === 'error' && outcome.at === at ? (
      <p role="alert" id="rob-error" className="rob-error" tabIndex={-1} ref={errorBox}>
        {outcome.text}
        {outcome.shop && (
          <>
            {' '}
            <a href={shopHref}>{labels.toShop}</a>
          </>
        )}
      </p>
    ) : null
  const describedBy = (at: 'FREETIME' | 'COINS') => (outcome?.tone === 'error' && outcome.at === at ? 'rob-error' : undefined)
  const freetimeNote = preview.freetime && <span className="rob-freetime-note">{pluralText(labels.freetime, preview.freetime.hours)}</span>

  return (
    <div className="rent-or-buy" data-main={action.main ?? undefined}>
      {ticketReady && (
        <div className="rob-freetime">
          <button className={look('FREETIME')} type="button" onClick={useTicket} disabled={busy} aria-describedby={describedBy('FREETIME')}>
            {pluralText(labels.freetimeButton, preview.freetime!.unlockHours)}
          </button>
          {freetimeNote}
          {errorAt('FREETIME')}
        </div>
      )}
      {offer && (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            buyNow()
          }}
        >
          <fieldset>
            <legend>{labels.legend}</legend>
            {kinds.map((k) => (
              <label key={k} className="rob-choice">
                <input type="radio" name="rob-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
                {k === 'RENT'
                  ? fill(labels.rent, { coins: coins(preview.offers[k].single!.coins) })
                  : pluralText(labels.buy, preview.offers[k].single!.coins)}
              </label>
            ))}
          </fieldset>
          {offers.remaining && (
            <fieldset>
              <legend>{labels.scope}</legend>
              <label className="rob-choice">
                <input type="radio" name="rob-scope" value="SINGLE" checked={scope === 'SINGLE'} onChange={() => setScope('SINGLE')} />
                {pluralText(labels.single, offers.single!.coins)}
              </label>
              <label className="rob-choice">
                <input
                  type="radio"
                  name="rob-scope"
                  value="REMAINING"
                  checked={scope === 'REMAINING'}
                  onChange={() => setScope('REMAINING')}
                />
                {pluralText(labels.remaining, offers.remaining.episodeIds.length, { coins: coins(offers.remaining.coins) })}
              </label>
            </fieldset>
          )}
          {offer.credit > 0 && (
            <p className="rob-uses" data-testid="upgrade-credit">
              {pluralText(labels.credit, offer.credit)}
            </p>
          )}
          {/* read out when a choice changes what is paid, or how much is missing */}
          <p className={action.coins === 'PAY' ? 'rob-uses' : 'sr-only'} data-testid="coins-used" aria-live="polite">
            {action.coins === 'PAY'
              ? `${labels.uses} ${offer.uses.map((u) => `${labels.type[u.type]} ${u.amount}`).join(' · ')}`
              : pluralText(labels.short, action.missing)}
          </p>
          {action.coins === 'PAY' ? (
            <button className={look('PAY')} type="submit" disabled={busy} aria-disabled={busy} aria-describedby={describedBy('COINS')}>
              {busy ? labels.busy : pluralText(labels.confirm, offer.coins)}
            </button>
          ) : (
            <a className={look('TOP_UP')} href={shopHref} data-testid="top-up">
              {pluralText(labels.topUp, action.missing)}
            </a>
          )}
          {errorAt('COINS')}
        </form>
      )}
      {preview.freetime && !ticketReady && (
        <p className="rob-freetime">
          {freetimeNext && <span>{fill(labels.freetimeNext, { date: freetimeNext })}</span>}
          {freetimeNote}
        </p>
      )}
      <p role="status" className="rob-ok">
        {outcome?.tone === 'ok' ? outcome.text : ''}
      </p>
    </div>
  )
}
