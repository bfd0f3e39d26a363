/**
 * The locked next episode at the end of the chain (spec §1 continuous reading with automatic coin deduction):
 * its prices and the way to rent or buy it; for a signed-in reader, the opt-in to automatic unlocks of the
 * series with a coin cap, confirmed in a dialog the first time. Once opted in, the episode is unlocked when
 * the reader reaches it — exactly once (Idempotency-Key from reader + episode), never past the cap (checked here,
 * and by the server in the purchase itself: two tabs cannot pass it together), and the automation stops when the
 * balance is short.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { useDialog } from './use-dialog.ts'
import {
  AUTO_UNLOCK_BUDGETS,
  DEFAULT_AUTO_UNLOCK_BUDGET,
  autoUnlockDecision,
  autoUnlockKey,
  type AutoUnlockKind,
  type AutoUnlockState,
} from './continuous.ts'
import { autoPurchase, getAutoUnlock, putAutoUnlock } from './client.ts'
import { shopHref } from '../payment/shop-link.ts'
import type { EpisodeLink } from './viewer.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { episodeLabel } from '../../lib/i18n/episode-label.ts'

export type NextLabels = {
  /** "Épisode {no} : {title}" */
  episodeHeading: string
  /** "Épisode {no}": the heading of an episode whose title is only its number (episodeLabel) */
  episodeNumber: string
  locked: string
  /** "Location {count} pièces" */
  rent: Plural
  /** "Achat {count} pièces" */
  buy: Plural
  choose: string
  login: string
  loading: string
  failed: string
  retry: string
  adult: string
  autoOffer: string
  autoTitle: string
  /** Counts the coins of this episode. */
  autoText: Plural
  autoBudget: string
  /** "{count} pièces", also the price inside `autoWorking`. */
  autoBudgetOption: Plural
  autoKind: string
  autoRent: string
  autoBuy: string
  autoConfirm: string
  autoCancel: string
  /** Counts the budget. */
  autoStoppedBudget: Plural
  autoStoppedBalance: string
  autoStoppedNotSold: string
  /** Counts the budget, with {no}, {spent} and {coins} (the price worded by `autoBudgetOption`). */
  autoWorking: Plural
  shop: string
}

export type NextStatus = 'loading' | 'locked' | 'adult' | 'error'

type Props = {
  link: EpisodeLink
  seriesId: number
  status: NextStatus
  userId: number | null
  loginHref: string
  labels: NextLabels
  /** The series' opt-in (null: not known yet or guest). */
  auto: AutoUnlockState | null
  onAuto: (state: AutoUnlockState) => void
  /** The episode was unlocked: open it in the chain; `focus`: from a control of this block, whose heading then takes the focus. */
  onUnlocked: (message: string, focus: boolean) => void
  onRetry: () => void
  /** Live-region announcement (unlocked, stopped). */
  announce: (message: string) => void
  format: (template: string, values: Record<string, string | number>) => string
}

/** Episodes this page already tried to unlock automatically: one attempt each, whatever happens. */
const attempted = new Set<number>()

export default function NextEpisode({
  link,
  seriesId,
  status,
  userId,
  loginHref,
  labels,
  auto,
  onAuto,
  onUnlocked,
  onRetry,
  announce,
  format,
}: Props) {
  const block = useRef<HTMLElement | null>(null)
  const [asking, setAsking] = useState(false)
  const dialog = useDialog(asking, () => setAsking(false), 'select')
  const [budget, setBudget] = useState<number>(DEFAULT_AUTO_UNLOCK_BUDGET)
  const [kind, setKind] = useState<AutoUnlockKind>(link.priceRent !== null ? 'RENT' : 'POSSESSION')
  const [reached, setReached] = useState(false)
  const [busy, setBusy] = useState(false)
  const [stopped, setStopped] = useState<string | null>(null)
  const headingId = `viewer-next-${link.id}`

  // The reader reached the locked episode: its block is on screen, or was scrolled past (End key).
  useEffect(() => {
    if (status !== 'locked' || !block.current || !('IntersectionObserver' in window)) return
    const io = new IntersectionObserver((entries) => setReached(entries.some((e) => e.isIntersecting || e.boundingClientRect.bottom < 0)))
    io.observe(block.current)
    return () => io.disconnect()
  }, [status])

  /** `focus`: asked from this block (the dialog's confirmation, a control here), whose focus goes to the episode once open. */
  const unlock = async (state: AutoUnlockState, focus: boolean) => {
    if (userId === null || attempted.has(link.id)) return
    const decision = autoUnlockDecision(state, link)
    if (decision.action === 'ask') return
    if (decision.action === 'stop') {
      const text = decision.reason === 'BUDGET' ? pluralText(labels.autoStoppedBudget, state.budget ?? 0) : labels.autoStoppedNotSold
      setStopped(text)
      announce(text)
      return
    }
    attempted.add(link.id)
    setBusy(true)
    const res = await autoPurchase(link.id, decision.kind, autoUnlockKey(userId, link.id))
    setBusy(false)
    if (res.ok) {
      const coin = res.data.coin
      void import('../session/store.ts').then((session) => session.coinChanged(coin))
      onAuto({ ...state, spent: state.spent + decision.price })
      onUnlocked(
        pluralText(labels.autoWorking, state.budget ?? 0, {
          no: link.no,
          coins: pluralText(labels.autoBudgetOption, decision.price),
          spent: state.spent + decision.price,
        }),
        focus,
      )
      return
    }
    if (res.code === 'ADULT_ONLY_CONTENTS') return // the API client asked for the age popup
    if (res.code === 'EXIST_LIBRARY' || res.code === 'RENT_PURCHASE_IMPOSSIBLE') {
      onUnlocked('', focus)
      return
    }
    if (res.code === 'POSSESSION_PURCHASE_IMPOSSIBLE') {
      // the server's cap refused it (another tab spent the rest, or the opt-in ended): its state says which
      const now = await getAutoUnlock(seriesId)
      if (now.ok) onAuto(now.data)
      const text = now.ok && now.data.enabled ? pluralText(labels.autoStoppedBudget, now.data.budget ?? 0) : labels.failed
      setStopped(text)
      announce(text)
      return
    }
    const text = res.code === 'COIN_INSUFFICIENT' ? labels.autoStoppedBalance : labels.failed
    setStopped(text)
    announce(text)
  }

  // Opted in: unlock when the reader gets here (once per arrival; a purchase under way is not started twice).
  const unlockOnArrival = useEffectEvent(() => {
    if (auto?.enabled && !busy) void unlock(auto, block.current?.contains(document.activeElement) === true)
  })
  useEffect(() => {
    if (status === 'locked' && reached && auto?.enabled) unlockOnArrival()
  }, [status, reached, auto?.enabled])

  const confirm = async () => {
    setBusy(true)
    const res = await putAutoUnlock(seriesId, { budget, kind })
    setBusy(false)
    setAsking(false)
    if (!res.ok) {
      setStopped(labels.failed)
      return
    }
    onAuto(res.data)
    await unlock(res.data, true)
  }

  const heading = episodeLabel(
    link.title,
    format(labels.episodeNumber, { no: link.no }),
    format(labels.episodeHeading, { no: link.no, title: link.title }),
  )
  return (
    <section ref={block} className="viewer-next" aria-labelledby={headingId} aria-busy={status === 'loading' || busy}>
      <h2 id={headingId}>{heading}</h2>
      {status === 'loading' && <p className="viewer-next-status">{labels.loading}</p>}
      {status === 'error' && (
        <p className="viewer-next-status">
          {labels.failed}{' '}
          <button type="button" className="btn" onClick={onRetry}>
            {labels.retry}
          </button>
        </p>
      )}
      {status === 'adult' && <p className="viewer-next-status">{labels.adult}</p>}
      {status === 'locked' && (
        <>
          <p>{labels.locked}</p>
          <ul className="viewer-prices">
            {link.priceRent !== null && <li>{pluralText(labels.rent, link.priceRent)}</li>}
            {link.priceBuy !== null && <li>{pluralText(labels.buy, link.priceBuy)}</li>}
          </ul>
          {stopped && (
            <p className="viewer-next-stopped" role="alert">
              {stopped} {stopped === labels.autoStoppedBalance && <a href={shopHref(`/viewer/${link.id}#unlock`)}>{labels.shop}</a>}
            </p>
          )}
          <p className="viewer-actions">
            <a className="btn" data-primary href={`/viewer/${link.id}`}>
              {labels.choose}
            </a>
            {userId === null && <a href={loginHref}>{labels.login}</a>}
            {userId !== null && auto !== null && !auto.enabled && (
              <button type="button" className="btn btn-secondary" aria-haspopup="dialog" onClick={() => setAsking(true)} disabled={busy}>
                {labels.autoOffer}
              </button>
            )}
          </p>
        </>
      )}
      <dialog ref={dialog} className="viewer-dialog viewer-auto" aria-labelledby={`${headingId}-auto`}>
        {asking && (
          <>
            <h2 id={`${headingId}-auto`}>{labels.autoTitle}</h2>
            <p>{pluralText(labels.autoText, (kind === 'RENT' ? link.priceRent : link.priceBuy) ?? link.priceRent ?? link.priceBuy ?? 0)}</p>
            <label className="viewer-size">
              {labels.autoBudget}
              <select value={budget} onChange={(e) => setBudget(Number(e.currentTarget.value))}>
                {AUTO_UNLOCK_BUDGETS.map((n) => (
                  <option key={n} value={n}>
                    {pluralText(labels.autoBudgetOption, n)}
                  </option>
                ))}
              </select>
            </label>
            <fieldset>
              <legend>{labels.autoKind}</legend>
              {link.priceRent !== null && (
                <label className="viewer-choice">
                  <input type="radio" name={`auto-kind-${link.id}`} checked={kind === 'RENT'} onChange={() => setKind('RENT')} />
                  {labels.autoRent}
                </label>
              )}
              {link.priceBuy !== null && (
                <label className="viewer-choice">
                  <input
                    type="radio"
                    name={`auto-kind-${link.id}`}
                    checked={kind === 'POSSESSION'}
                    onChange={() => setKind('POSSESSION')}
                  />
                  {labels.autoBuy}
                </label>
              )}
            </fieldset>
            <p className="viewer-actions">
              <button type="button" className="btn" onClick={() => void confirm()} disabled={busy}>
                {labels.autoConfirm}
              </button>
              <button type="button" className="btn btn-secondary" onClick={() => setAsking(false)}>
                {labels.autoCancel}
              </button>
            </p>
          </>
        )}
      </dialog>
    </section>
  )
}
