/**
 * The reader's part of /detail/{id}, loaded where the worker marked a signed-in reader (`markedSignedIn`): puts the
 * parts the server drew for them (SeriesMe.astro, a server island: badges, the main button, the ticket's state, the
 * favourite's) into the slots the page holds — each part's attributes and text go to the element its `data-for` names,
 * which shows — and makes the favourite a toggle (its API client loads with the first press).
 */
import { api } from '../session/api.ts'

const root = document.querySelector<HTMLElement>('[data-series]')
if (root) {
  const placeParts = () => {
    const parts = root.querySelector<HTMLTemplateElement>('template[data-series-me]')
    if (!parts) return
    observer.disconnect()
    for (const part of parts.content.children as HTMLCollectionOf<HTMLElement>) {
      const slot = root.querySelector<HTMLElement>(part.dataset.for!)
      if (!slot) continue
      for (const { name, value } of part.attributes) if (name !== 'data-for') slot.setAttribute(name, value)
      if (part.childNodes.length) slot.replaceChildren(...part.childNodes)
      slot.hidden = false
    }
  }
  const observer = new MutationObserver(placeParts)
  observer.observe(root, { childList: true })
  placeParts() // the island may have come before this script
  // the favourite: shown at once, put back when the call is refused or never answered (the API client says why)
  root.addEventListener('click', async (e) => {
    const fav = (e.target as Element).closest('.fav')
    if (!fav || fav.hasAttribute('aria-busy')) return // busy: keeps focus on the button (a disabled one would lose it)
    const on = fav.getAttribute('aria-pressed') !== 'true'
    fav.setAttribute('aria-pressed', String(on))
    fav.setAttribute('aria-busy', 'true')
    const res = await api(`/library/favorite/${root.dataset.series}`, { method: on ? 'POST' : 'DELETE' })
    if (!res.ok) fav.setAttribute('aria-pressed', String(!on))
    fav.removeAttribute('aria-busy')
  })
}
