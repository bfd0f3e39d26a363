/**
 * The point exchange popup's script (MileageExchange.astro): the live preview of the coins an amount gives (the
 * rule of exchange.ts), and the exchange through `POST /api/v1/payment/mileage` under an Idempotency-Key (kept for a
 * retry after a network failure). Success puts the new balance in the session store (`coinChanged`: the header and
 * the other tabs) and reloads the page with the new wallet; a code whose spec §8 follow-up is a reload reloads it
 * with the popup open and the message; any other refusal is shown in the popup. The popup is closed through the
 * shell's history step first, so Back never reopens it.
 */
import { exchangeCoins } from './exchange.ts'
import type { MileageExchangeRequest } from './mileage.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { api } from '../session/api.ts'
import type { Coin } from '../session/store.ts'

const dialog = document.querySelector<HTMLDialogElement>('#mileage-exchange')
const form = dialog?.querySelector('form')
if (dialog && form) {
  const text = dialog.dataset
  const rate = { mileagePerCoin: Number(text.step), mileageMinimum: Number(text.minimum) }
  const preview = JSON.parse(text.preview ?? '{}') as Plural
  const amount = form.querySelector<HTMLInputElement>('input[name="amount"]')!
  const page = form.querySelector<HTMLInputElement>('input[name="page"]')!.value
  const shown = dialog.querySelector<HTMLElement>('#exchange-preview')!
  const alert = dialog.querySelector<HTMLElement>('[data-alert]')!
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const label = button.textContent ?? ''
  let key: string | null = null

  const coins = () => exchangeCoins(Number(amount.value), rate)
  amount.addEventListener('input', () => {
    key = null
    const n = coins()
    shown.textContent = n === null ? (text.invalid ?? '') : pluralText(preview, n)
  })

  const busy = (on: boolean) => {
    form.toggleAttribute('aria-busy', on)
    button.disabled = on
    button.textContent = on ? (button.dataset.busy ?? label) : label
  }

  /** Goes to `url` instead of this page, once the popup's own history entry is taken back (the shell closes it). */
  const leave = (url: string) => {
    if (!dialog.matches(':modal')) return location.replace(url)
    addEventListener('popstate', () => location.replace(url), { once: true })
    dialog.close()
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (button.disabled) return
    busy(true)
    alert.textContent = ''
    key ??= crypto.randomUUID()
    const body: MileageExchangeRequest = { amount: Number(amount.value) }
    const answer = await api<{ coin: Coin }>('/payment/mileage', { method: 'POST', key, body })
    if (!answer.ok && answer.code === 'NETWORK') {
      alert.textContent = text.network ?? '' // same key on the next try: an exchange that did go through is not repeated
      busy(false)
      return
    }
    key = null
    if (answer.ok) {
      await import('../session/store.ts').then((session) => session.coinChanged(answer.data.coin))
      return leave(`${page}?exchanged=${coins()}#exchange-done`)
    }
    if (text.reload?.split(' ').includes(answer.code)) return leave(`${page}?error=${answer.code}#mileage-exchange`)
    alert.textContent = answer.message ?? text.network ?? ''
    busy(false)
  })

  // The popup rendered open (a refused form, or the no-JavaScript link): it joins the shell's layer stack instead.
  if (dialog.open && !dialog.matches(':modal')) {
    dialog.addEventListener('close', () => document.querySelector<HTMLElement>('[data-open-modal="mileage-exchange"]')?.click(), {
      once: true,
    })
    dialog.close()
  }
}
