/**
 * The reader's part of /detail/{id}, on a signed-in class's page (SeriesPlaces.astro): puts the parts the server drew for
 * them (SeriesMe.astro, a server island: badges, the main button, the ticket's state, the favourite's, the header's
 * balance and bell) into the slots the page holds — each part's attributes and children go to the element its `data-for`
 * names, which shows — and makes the favourite a toggle (its API client loads with the first press).
 */
import { api } from '../session/api.ts'

const root = document.querySelector<HTMLElement>('[data-series]')! // SeriesPlaces.astro is inside it
const placeParts = () => {
  const parts = root.querySelector<HTMLTemplateElement>('template[data-series-me]')
  parts?.remove() // placed once
  for (const part of (parts?.content.children ?? []) as HTMLCollectionOf<HTMLElement>) {
    const slot = document.querySelector<HTMLElement>(part.dataset.for!)
    if (!slot) continue
    for (const { name, value } of part.attributes) if (name !== 'data-for') slot.setAttribute(name, value)
    if (part.childNodes.length) slot.replaceChildren(...part.childNodes)
    slot.hidden = false
  }
}
new MutationObserver(placeParts).observe(root, { childList: true })
placeParts() // the island may have come before this script
// the favourite: shown at once, put back when the call is refused or never answered (the API client says why)
root.addEventListener('click', async (e) => {
  const fav = (e.target as Element).closest('.fav')
  if (!fav || fav.ariaBusy) return // busy: keeps focus on the button (a disabled one would lose it)
  const on = fav.ariaPressed !== 'true'
  fav.ariaPressed = `${on}`
  fav.ariaBusy = 'true'
  if (!(await api(`/library/favorite/${root.dataset.series}`, { method: on ? 'POST' : 'DELETE' })).ok) fav.ariaPressed = `${!on}`
  fav.ariaBusy = null
})
