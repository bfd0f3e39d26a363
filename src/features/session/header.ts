/**
 * The header's personal bit after first paint (docs/ARCHITECTURE.md: anonymous HTML stays edge-cacheable, no React):
 * starts the session client and shows the reader's coin balance, a link to /shop made from the header's template
 * once there is a balance to name it (issue 19 point 4: a guest's page held an empty link). It follows the session
 * store: a coin movement any page code reports (`coinChanged`, store.ts) changes it without a reload, here and in
 * the reader's other tabs.
 */
import { skipsUser } from './routes.ts'
import { $session, $unreadAlarms, startSessionClient } from './store.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'

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
 * The alarm bell (issue 13): shown once the session says a reader is signed in, with the unread count the same
 * session answer carries (`alarms`), so the page's HTML stays the same for everyone and edge-cacheable, and a page
 * asks one question after paint. The count follows each new answer (another tab, the tab shown again).
 */
const bell = document.querySelector<HTMLElement>('[data-alarm-bell]')
if (bell && !skipsUser(location.pathname)) {
  const badge = bell.querySelector<HTMLElement>('.alarm-count')!
  const label = bell.querySelector<HTMLElement>('.visually-hidden')!
  const empty = label.textContent
  const plural = JSON.parse(bell.dataset.label ?? '') as Plural
  const number = new Intl.NumberFormat(document.documentElement.lang || undefined)
  $session.subscribe((s) => {
    bell.hidden = !s.user
  })
  $unreadAlarms.subscribe((count) => {
    badge.textContent = count <= 0 ? '' : count > 99 ? '99+' : number.format(count)
    label.textContent = count <= 0 ? empty : pluralText(plural, count, { count: number.format(count) })
  })
}
