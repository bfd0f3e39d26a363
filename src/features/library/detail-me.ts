/**
 * The reader's part of /detail/{id}, after first paint (issue 5, issue 25 §5): the page HTML is the same for every
 * reader of an audience class (edge cached per class), so the page loads this only for a browser the worker marked
 * as signed in (`markedSignedIn`), which asks `/api/v1/contents/{id}/me` (a session ended meanwhile: no data, the
 * page stays as a guest's) and fills the slots the page already holds: episode badges, the main
 * button (resume or next episode, resumeTarget), the wait-until-free ticket's state, the favourite toggle.
 */
import { api } from '../session/api.ts'
import { formatDateTime, type DateEdition } from '../../lib/i18n/dates.ts'
import { resumeTarget } from './resume.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import type { SeriesMe } from './library.ts'

const HOUR_MS = 3_600_000

const root = document.querySelector<HTMLElement>('[data-series]')
if (root) void load(root)

async function load(root: HTMLElement) {
  const d = root.dataset
  try {
    const res = await api<SeriesMe>(`/contents/${d.series}/me`)
    if (!res.ok) return
    const me = res.data
    for (const o of me.ownerships) {
      const badge = root.querySelector<HTMLElement>(`[data-ep="${o.episodeId}"] .own`)
      if (!badge) continue
      badge.textContent =
        o.expiresAt === null ? d.owned! : d.rented!.replace('{d}', formatDateTime(o.expiresAt, JSON.parse(d.dates!) as DateEdition))
      badge.hidden = false
    }
    const read = root.querySelector<HTMLAnchorElement>('a.read')
    const at = me.continueReading
    if (read && at) {
      const following = root.querySelector<HTMLElement>(`[data-ep="${at.episodeId}"]`)?.nextElementSibling as HTMLElement | null
      const go = resumeTarget({
        episodeId: at.episodeId,
        episodeNo: at.no,
        position: at.position,
        nextEpisodeId: Number(following?.dataset.ep) || null,
      })
      read.href = go.href
      read.textContent = (go.next ? read.dataset.next! : read.dataset.resume!).replace('{n}', String(go.no))
    }
    const ticket = root.querySelector<HTMLElement>('.ticket')
    if (ticket && me.freetime) {
      const state = ticket.querySelector<HTMLElement>('.ticket-state')!
      const hours =
        me.freetime.availableAt === null ? 0 : Math.max(1, Math.ceil((Date.parse(me.freetime.availableAt) - Date.now()) / HOUR_MS))
      const count = new Intl.NumberFormat(document.documentElement.lang || undefined).format(hours)
      state.textContent = me.freetime.available
        ? ticket.dataset.ready!
        : pluralText(JSON.parse(ticket.dataset.wait!) as Plural, hours, { count })
      ticket.dataset.state = me.freetime.available ? 'ready' : 'waiting'
      state.hidden = false
    }
    const fav = root.querySelector<HTMLButtonElement>('.fav')!
    let on = me.favorite
    const show = () => fav.setAttribute('aria-pressed', String(on))
    show()
    let busy = false
    fav.addEventListener('click', async () => {
      if (busy) return // keeps focus on the button (a disabled one would lose it)
      busy = true
      on = !on
      show()
      const res = await api(`/library/favorite/${d.series}`, { method: on ? 'POST' : 'DELETE' })
      if (!res.ok) {
        on = !on
        show()
      }
      busy = false
    })
    fav.hidden = false
  } catch {
    // personal bits are an extra: the page stays as the server sent it
  }
}
