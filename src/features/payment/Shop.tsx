/**
 * The coin shop island (issue 4 §8; spec §5 "shop requires the agreement checkbox", §8 "pop-up blocked",
 * "payment cancelled"). Its server HTML is the plain form of /shop (posting to `/api/v1/payment/web/charge`), so
 * the shop works without JavaScript. With JavaScript:
 * - agreement unchecked: the form posts as without JavaScript (the page answers with the translated alert, beside
 *   the checkbox, which takes the focus);
 * - card: `POST /api/v1/payment/charge` with this page's Idempotency-Key, then the provider's checkout in this tab;
 * - PayPal: the checkout opens in a pop-up window (opened at the click, so it is not blocked for being late); the
 *   island polls `GET /api/v1/payment/status/{id}` and shows the result: paid (with the new balance, which the
 *   header's shows too: `coinChanged`, the session store), cancelled, or — when the browser blocked the
 *   pop-up — a link that continues the checkout in this tab.
 * - paid, coming from an episode (`returnTo`): the way back to it is the main action;
 * - an offer the reader can no longer buy (the server's `shopOffers`, or a charge refused since) is disabled with
 *   its reason and never selected; a refusal is told beside the buy button, announced (role=alert) and scrolled
 *   into view there (issue 35 point 4);
 * - "remember this payment method" keeps the method in this browser (localStorage) — nothing is stored server-side.
 */
import { api } from '../session/api.ts'
import { useEffect, useRef, useState } from 'react'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import type { Coin } from '../session/store.ts'
import type { ChargeRequest } from './payment.ts'

type ShopProduct = {
  id: number
  coins: string
  bonus: string | null
  label: string | null
  limit: string | null
  /** Why the reader cannot buy it now (sold out, already bought up to its limit); null: it may be bought. */
  unavailable: string | null
  price: string
}

type ShopLabels = {
  products: string
  method: string
  methods: Record<string, string>
  agree: string
  policy: string
  buy: string
  /** An offer's reason once a charge of it is refused with one of these codes (another tab bought it meanwhile). */
  refused: Record<'LIMITED_COIN_PRODUCT' | 'LIMITED_COIN_PRODUCT_USER', string>
  remember: string
  busy: string
  waiting: string
  blocked: string
  continueHere: string
  cancelled: string
  paidTitle: string
  /** Counts the coins, with {bonus}. */
  received: Plural
  /** Counts the new total. */
  balance: Plural
  failed: string
  again: string
  /** Back to the episode the reader came from (issue 25 §2). */
  toEpisode: string
}

type Props = {
  products: ShopProduct[]
  methods: string[]
  selected: number | null
  /** The payment method the refused form had (else the first). */
  method?: string | undefined
  formKey: string
  /** The agreement's own message after a refusal for the unticked box (shown beside it). */
  agreeError: string | null
  /** Any other refusal's message (shown beside the buy button). */
  error: string | null
  labels: ShopLabels
  /** The validated episode path to go back to once paid (null: none). */
  returnTo?: string | null
}

type State =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'waiting'; paymentId: string }
  | { kind: 'blocked'; checkoutUrl: string }
  | { kind: 'paid'; text: string; balance: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; text: string }

const METHOD_KEY = 'shop.method'
const POLL_MS = 1500

export default function Shop({ products, methods, selected, method: kept, formKey, agreeError, error, labels, returnTo = null }: Props) {
  const [method, setMethod] = useState(kept && methods.includes(kept) ? kept : (methods[0] ?? 'card'))
  const [remember, setRemember] = useState(false)
  const [state, setState] = useState<State>({ kind: 'idle' })
  const popup = useRef<Window | null>(null)
  const agreeBox = useRef<HTMLInputElement | null>(null)
  const errorBox = useRef<HTMLParagraphElement | null>(null)
  /** Offers refused since the page was drawn, with their reason (by product id). */
  const [refused, setRefused] = useState<Record<number, string>>({})

  // the agreement's alert is beside its checkbox: focus goes there (also without JavaScript: autofocus), below the sticky header (scroll-margin)
  useEffect(() => {
    if (agreeError) agreeBox.current?.focus()
  }, [agreeError])

  // a refusal shows beside the button that caused it, in view (the page's fragment does so without JavaScript)
  useEffect(() => {
    if (state.kind === 'error' || state.kind === 'cancelled') errorBox.current?.scrollIntoView({ block: 'nearest' })
  }, [state])

  useEffect(() => {
    const saved = localStorage.getItem(METHOD_KEY)
    if (saved && methods.includes(saved) && !kept) {
      setMethod(saved)
      setRemember(true)
    }
  }, [methods, kept])

  useEffect(() => {
    if (state.kind !== 'waiting') return
    let stop = false
    const tick = async () => {
      if (stop) return
      const closed = popup.current?.closed ?? true
      const res = await api<{ state: string; coins: number; bonus: number }>(`/payment/status/${encodeURIComponent(state.paymentId)}`)
      if (stop) return
      const p = res.ok ? res.data : null
      if (p?.state === 'PAID') {
        const coin = await api<Coin>('/coin')
        if (coin.ok) void import('../session/store.ts').then((session) => session.coinChanged(coin.data))
        setState({
          kind: 'paid',
          text: pluralText(labels.received, p.coins, { bonus: p.bonus }),
          balance: coin.ok ? pluralText(labels.balance, coin.data.total) : '',
        })
      } else if (p && p.state !== 'UNPAID') setState({ kind: 'cancelled' })
      else if (closed)
        setState({ kind: 'cancelled' }) // the reader closed the window without paying
      else setTimeout(tick, POLL_MS)
    }
    const first = setTimeout(tick, POLL_MS)
    return () => {
      stop = true
      clearTimeout(first)
    }
  }, [state, labels])

  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget
    const data = new FormData(form)
    if (data.get('agree') !== 'on') return // the server answers with the agreement alert, as without JavaScript
    e.preventDefault()
    if (state.kind === 'busy' || state.kind === 'waiting') return
    if (remember) localStorage.setItem(METHOD_KEY, method)
    else localStorage.removeItem(METHOD_KEY)
    const usePopup = method === 'paypal'
    // opened now, while the click still counts as the reader's gesture; filled once the checkout exists
    popup.current = usePopup ? window.open('', 'checkout', 'popup,width=480,height=720') : null
    setState({ kind: 'busy' })
    const res = await api<{ paymentId: string; checkoutUrl: string }>('/payment/charge', {
      method: 'POST',
      key: `${formKey}-${String(data.get('productId'))}-${method}`,
      body: { productId: Number(data.get('productId')), method } satisfies ChargeRequest,
    })
    if (!res.ok) {
      popup.current?.close()
      if (res.code === 'LIMITED_COIN_PRODUCT' || res.code === 'LIMITED_COIN_PRODUCT_USER') {
        const reason = labels.refused[res.code]
        setRefused((r) => ({ ...r, [Number(data.get('productId'))]: reason }))
      }
      setState({ kind: 'error', text: res.message ?? labels.failed })
      return
    }
    if (!usePopup) {
      location.assign(res.data.checkoutUrl)
      return
    }
    if (!popup.current || popup.current.closed) {
      setState({ kind: 'blocked', checkoutUrl: res.data.checkoutUrl })
      return
    }
    popup.current.location.href = res.data.checkoutUrl
    setState({ kind: 'waiting', paymentId: res.data.paymentId })
  }

  if (state.kind === 'paid') {
    return (
      <section className="shop-result" aria-labelledby="shop-paid" data-state="PAID">
        <h2 id="shop-paid">{labels.paidTitle}</h2>
        <p role="status">{state.text}</p>
        {state.balance && <p className="total">{state.balance}</p>}
        {returnTo && (
          <a className="btn" href={returnTo}>
            {labels.toEpisode}
          </a>
        )}
        <button className={returnTo ? 'link' : 'btn'} type="button" onClick={() => location.reload()}>
          {labels.again}
        </button>
      </section>
    )
  }

  const shownError = state.kind === 'error' ? state.text : state.kind === 'cancelled' ? labels.cancelled : error
  return (
    <form id="shop-form" method="post" action="/api/v1/payment/web/charge" onSubmit={submit}>
      <input type="hidden" name="key" value={formKey} />
      <fieldset className="products">
        <legend>{labels.products}</legend>
        {products.map((p) => {
          const unavailable = refused[p.id] ?? p.unavailable
          return (
            <label key={p.id} className={unavailable ? 'product disabled' : 'product'}>
              <input type="radio" name="productId" value={p.id} defaultChecked={p.id === selected} disabled={!!unavailable} />
              <span className="coins">{p.coins}</span>
              {p.bonus && <span className="bonus">{p.bonus}</span>}
              {p.label && <span className="label">{p.label}</span>}
              {p.limit && <span className="limit">{p.limit}</span>}
              {unavailable && <span className="reason">{unavailable}</span>}
              <span className="price">{p.price}</span>
            </label>
          )
        })}
      </fieldset>
      <fieldset className="methods">
        <legend>{labels.method}</legend>
        {methods.map((m) => (
          <label key={m} className="check">
            <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} /> {labels.methods[m] ?? m}
          </label>
        ))}
        <label className="check">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} /> {labels.remember}
        </label>
      </fieldset>
      <label className="check agree">
        <input
          ref={agreeBox}
          id="shop-agree"
          type="checkbox"
          name="agree"
          aria-required="true"
          aria-invalid={agreeError ? 'true' : undefined}
          aria-describedby={agreeError ? 'shop-agree-error' : undefined}
          autoFocus={agreeError !== null}
        />
        <span>
          {labels.agree} <a href="/policy">{labels.policy}</a>
        </span>
      </label>
      {agreeError && (
        <p className="form-error" role="alert" id="shop-agree-error">
          {agreeError}
        </p>
      )}
      <button
        className="btn"
        type="submit"
        disabled={state.kind === 'busy' || state.kind === 'waiting'}
        aria-describedby={shownError ? 'shop-error' : undefined}
      >
        {state.kind === 'busy' ? labels.busy : labels.buy}
      </button>
      {shownError && (
        <p ref={errorBox} className="form-error" role="alert" id="shop-error">
          {shownError}
        </p>
      )}
      {state.kind === 'waiting' && <p role="status">{labels.waiting}</p>}
      {state.kind === 'blocked' && (
        <p role="alert" className="form-error">
          {labels.blocked} <a href={state.checkoutUrl}>{labels.continueHere}</a>
        </p>
      )}
    </form>
  )
}
