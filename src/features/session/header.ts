/**
 * The header's personal bit after first paint (docs/ARCHITECTURE.md: anonymous HTML stays edge-cacheable, no React):
 * starts the session client and shows the reader's coin balance, a link to /shop made from the header's template
 * once there is a balance to name it (issue 19 point 4: a guest's page held an empty link). Any page code reports a coin movement with
 * `document.dispatchEvent(new CustomEvent('coin:changed', { detail: coin }))` (coin: the GET /api/v1/coin shape);
 * the balance changes without a reload, here and in the reader's other tabs.
 */
import { skipsUser } from './routes.ts'
import { $session, startSessionClient, type Coin } from './store.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { apiFetch } from '../../lib/shell/request.ts'

const template = document.querySelector<HTMLTemplateElement>('template[data-coin-balance-template]')
if (template && !skipsUser(location.pathname)) {
  const link = template.content.firstElementChild as HTMLElement
  let slot: HTMLElement | null = null
  const client = startSessionClient()
  const number = new Intl.NumberFormat(document.documentElement.lang || undefined)
  const label = JSON.parse(link.dataset.label ?? '') as Plural
  $session.subscribe((s) => {
    if (s.user && s.coin) {
      if (!slot) {
        slot = link.cloneNode(true) as HTMLElement
        template.insertAdjacentElement('afterend', slot)
      }
      slot.textContent = pluralText(label, s.coin.total, { count: number.format(s.coin.total) })
      slot.hidden = false
    } else if (slot) slot.hidden = true
  })
  document.addEventListener('coin:changed', (e) => {
    const coin = (e as CustomEvent<Coin | null>).detail
    if (coin && Number.isFinite(coin.total)) client.coinChanged(coin)
  })
}

/**
 * The alarm bell (issue 13): shown once the session says a reader is signed in, with the unread count of one small
 * request (`GET /api/v1/alarm/count`), so the page's HTML stays the same for everyone and edge-cacheable.
 */
const bell = document.querySelector<HTMLElement>('[data-alarm-bell]')
if (bell && !skipsUser(location.pathname)) {
  const badge = bell.querySelector<HTMLElement>('.alarm-count')!
  const label = bell.querySelector<HTMLElement>('.visually-hidden')!
  const plural = JSON.parse(bell.dataset.label ?? '') as Plural
  const number = new Intl.NumberFormat(document.documentElement.lang || undefined)
  let shownFor: number | null = null
  $session.subscribe((s) => {
    const userId = s.user ? Number(s.user.id) : null
    bell.hidden = userId === null
    if (userId === null || userId === shownFor) return
    shownFor = userId
    void apiFetch('/api/v1/alarm/count', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then((res) => (res.ok ? (res.json() as Promise<{ data?: { count?: unknown } }>) : null))
      .then((body) => {
        const count = body?.data?.count
        if (typeof count !== 'number' || count <= 0) return
        badge.textContent = count > 99 ? '99+' : number.format(count)
        label.textContent = pluralText(plural, count, { count: number.format(count) })
      })
      .catch(() => undefined) // the bell stays without a number; the list page still shows everything
  })
}
