/**
 * The session client of a signed-in reader's page and the header's personal part it keeps live (docs/ARCHITECTURE.md:
 * anonymous HTML stays edge-cacheable, no React). The page comes with that part drawn for the reader (HeaderMe.astro,
 * a server island); this module loads once the session may have changed (site.ts: another tab's message, the tab shown
 * again, a coin movement here, `coinChanged`), starts the session client and follows its store from its first answer
 * on: the balance, a link to /shop made from the header's template where the page had none (issue 19 point 4: a
 * guest's page holds no empty link), and the alarm bell with the unread count (issue 13). The server island may replace
 * the part while this runs, so each change looks its elements up again. On the viewer (`data-late-shell`: its bar hides
 * the site header) it only runs the session client.
 */
import { skipsUser } from './routes.ts'
import { $session, $unreadAlarms, startSessionClient } from './store.ts'
import { balanceText, bellText } from './personal.ts'
import type { Plural } from '../../lib/i18n/plural.ts'

const label = (el: HTMLElement) => JSON.parse(el.dataset.label ?? '') as Plural

function showBalance(total: number | null): void {
  let link = document.querySelector<HTMLElement>('.site-header [data-coin-balance]')
  if (total === null) {
    if (link) link.hidden = true
    return
  }
  const template = document.querySelector<HTMLTemplateElement>('template[data-coin-balance-template]')
  if (!link && template) {
    link = template.content.firstElementChild!.cloneNode(true) as HTMLElement
    template.insertAdjacentElement('afterend', link)
  }
  if (!link) return
  link.textContent = balanceText(label(link), total)
  link.hidden = false
}

function showBell(signedIn: boolean, count: number): void {
  const bell = document.querySelector<HTMLElement>('[data-alarm-bell]')
  if (!bell) return
  bell.hidden = !signedIn
  const text = bellText(label(bell), bell.dataset.empty ?? '', count)
  bell.querySelector('.alarm-count')!.textContent = text.badge
  bell.querySelector('.visually-hidden')!.textContent = text.label
}

if (!skipsUser(location.pathname)) {
  const client = startSessionClient()
  if (!document.documentElement.hasAttribute('data-late-shell'))
    // from the first answer on: the store's empty start would hide what the server drew
    void client.ready.then(() => {
      $session.subscribe((s) => showBalance(s.user && s.coin ? s.coin.total : null))
      $unreadAlarms.subscribe((count) => showBell($session.get().user !== null, count))
    })
}
