/**
 * The header's personal bit after first paint (docs/ARCHITECTURE.md: anonymous HTML stays edge-cacheable, no React):
 * starts the session client and shows the reader's coin balance, a link to /shop made from the header's template
 * once there is a balance to name it (issue 19 point 4: a guest's page held an empty link). It follows the session
 * store: a coin movement any page code reports (`coinChanged`, store.ts) changes it without a reload, here and in
 * the reader's other tabs.
 */
import { skipsUser } from './routes.ts'
import { $session, startSessionClient } from './store.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { api } from '../../lib/shell/api.ts'

const template = document.querySelector<HTMLTemplateElement>('template[data-coin-balance-template]')
if (template && !skipsUser(location.pathname)) {
  const link = template.content.firstElementChild as HTMLElement
  let slot: HTMLElement | null = null
  startSessionClient()
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
    void api<{ count: number }>('/alarm/count').then((res) => {
      const count = res.ok ? res.data.count : 0 // a failure leaves the bell without a number; the list page shows everything
      if (count <= 0) return
      badge.textContent = count > 99 ? '99+' : number.format(count)
      label.textContent = pluralText(plural, count, { count: number.format(count) })
    })
  })
}
