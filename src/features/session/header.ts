/**
 * The header's personal bit after first paint (docs/ARCHITECTURE.md: anonymous HTML stays edge-cacheable, no React):
 * starts the session client and shows the reader's coin balance. Any page code reports a coin movement with
 * `document.dispatchEvent(new CustomEvent('coin:changed', { detail: coin }))` (coin: the GET /api/v1/coin shape);
 * the balance changes without a reload, here and in the reader's other tabs.
 */
import { skipsUser } from './routes.ts'
import { $session, startSessionClient, type Coin } from './store.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'

const slot = document.querySelector<HTMLElement>('[data-coin-balance]')
if (slot && !skipsUser(location.pathname)) {
  const client = startSessionClient()
  const number = new Intl.NumberFormat(document.documentElement.lang || undefined)
  const label = JSON.parse(slot.dataset.label ?? '') as Plural
  $session.subscribe((s) => {
    if (s.user && s.coin) {
      slot.textContent = pluralText(label, s.coin.total, { count: number.format(s.coin.total) })
      slot.hidden = false
    } else slot.hidden = true
  })
  document.addEventListener('coin:changed', (e) => {
    const coin = (e as CustomEvent<Coin | null>).detail
    if (coin && Number.isFinite(coin.total)) client.coinChanged(coin)
  })
}
