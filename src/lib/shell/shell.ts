/**
 * The page shell's only script (no framework; docs/QUALITY.md ≤ 5 KB on catalogue pages): toast region,
 * modal/panel stack with the back order of spec §2, scroll-to-top, the content protection of §2, and the busy
 * state of every posting form (busy.ts).
 */
import './busy.ts'
import { $layers, $toast, MODAL_Z, enterLayer, isOwnStep, layerToClose, removeLayer, showToast, type ModalType } from './stores.ts'

const HOME = '/'
let opener: HTMLElement | null = null

function layerEl(id: string): HTMLElement | null {
  return document.getElementById(id)
}

/**
 * Opens a modal or a slide panel by element id. A modal that is a `<dialog>` opens with `showModal()`: the page
 * behind it is inert, Tab stays inside, and Esc closes it natively (its `close` event then takes the history
 * step back, like the back button). Other layers are `hidden` elements shown in place.
 */
function openLayer(id: string, kind: 'modal' | 'panel', type: ModalType = 'default'): void {
  const el = layerEl(id)
  if (!el) return
  opener = document.activeElement as HTMLElement | null
  enterLayer({ id, kind, type })
  el.style.zIndex = String(MODAL_Z[type])
  if (el instanceof HTMLDialogElement) {
    if (!el.open) el.showModal()
    return
  }
  el.hidden = false
  ;(el.querySelector<HTMLElement>('[autofocus], button, a, input') ?? el).focus()
}

function hideLayer(id: string): void {
  const island = $layers.get().find((l) => l.id === id)?.close
  removeLayer(id)
  // An island's popup (useLayer) closes through its own state, which gives focus back to its own opener.
  if (island) return island()
  const el = layerEl(id)
  if (el instanceof HTMLDialogElement) el.close()
  else if (el) el.hidden = true
  opener?.focus()
}

// A `<dialog>` layer closed by the browser (Esc): the history entry it pushed is taken back (popstate hides it).
document.addEventListener(
  'close',
  (e) => {
    const el = e.target
    if (el instanceof HTMLDialogElement && $layers.get().some((l) => l.id === el.id)) history.back()
  },
  true,
)

/** Spec §2: back closes modals first, then panels, then goes back unless on home. */
function goBack(): void {
  if (layerToClose($layers.get())) history.back()
  else if (location.pathname !== HOME) history.back()
}

addEventListener('popstate', () => {
  if (isOwnStep()) return
  const top = layerToClose($layers.get())
  if (top) hideLayer(top.id)
})

document.addEventListener('click', (e) => {
  const target = (e.target as HTMLElement).closest<HTMLElement>('[data-open-modal],[data-open-panel],[data-close-layer],[data-back]')
  if (!target) return
  if (target.dataset.openModal) openLayer(target.dataset.openModal, 'modal', (target.dataset.modalType as ModalType) ?? 'default')
  else if (target.dataset.openPanel) openLayer(target.dataset.openPanel, 'panel')
  else if (target.hasAttribute('data-close-layer') || target.hasAttribute('data-back')) goBack()
  else return
  e.preventDefault()
})

document.addEventListener('keydown', (e) => {
  // Spec §2 content protection: F12 and Alt+Meta+I are blocked (keyboard use stays intact otherwise).
  if (e.key === 'F12' || (e.altKey && e.metaKey && e.code === 'KeyI')) e.preventDefault()
  const top = layerToClose($layers.get())
  // A `<dialog>` closes itself on Esc (the `close` event above), an island's popup through its own Esc handling.
  if (e.key === 'Escape' && top && !top.close && !(layerEl(top.id) instanceof HTMLDialogElement)) goBack()
})
/** The Tab stops of `root` in order (a radio group is one stop: its checked button, or the first). */
function tabStops(root: Element): HTMLElement[] {
  const all = [...root.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]')].filter(
    (el) => !el.matches(':disabled, [tabindex="-1"], [type="hidden"]') && el.getClientRects().length > 0,
  )
  return all.filter((el) => {
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || el.checked) return true
    const group = all.filter((r) => r instanceof HTMLInputElement && r.type === 'radio' && r.name === el.name) as HTMLInputElement[]
    return !group.some((r) => r.checked) && group[0] === el
  })
}

// Every modal <dialog> on the page (the shell's and the islands'): Tab cycles inside it, from the last stop to
// the first and back, instead of leaving for the browser's own bar.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Tab' || e.defaultPrevented) return
  const dialog = [...document.querySelectorAll('dialog[open]')].filter((d) => d.matches(':modal')).pop()
  if (!dialog) return
  const stops = tabStops(dialog)
  const active = document.activeElement
  const edge = e.shiftKey ? stops[0] : stops[stops.length - 1]
  if (stops.length && (active === edge || !dialog.contains(active))) {
    e.preventDefault()
    ;(e.shiftKey ? stops[stops.length - 1] : stops[0])!.focus()
  }
})
document.addEventListener('contextmenu', (e) => e.preventDefault())
document.addEventListener('dragstart', (e) => e.preventDefault())

// Toast: one at a time, 3 s, announced politely.
const toastEl = document.getElementById('toast')
$toast.subscribe((toast) => {
  if (!toastEl) return
  toastEl.textContent = toast?.message ?? ''
  toastEl.hidden = !toast
})
document
  .querySelectorAll<HTMLElement>('[data-toast]')
  .forEach((el) => el.addEventListener('click', () => showToast(el.dataset.toast ?? '')))

// Scroll-to-top: appears after scrolling, checked at most every 200 ms (spec §9).
const topButton = document.getElementById('scroll-top')
let last = 0
let pending = false
function updateTop() {
  pending = false
  last = Date.now()
  if (topButton) topButton.hidden = scrollY < 200
}
addEventListener(
  'scroll',
  () => {
    if (pending) return
    pending = true
    setTimeout(updateTop, Math.max(0, 200 - (Date.now() - last)))
  },
  { passive: true },
)
topButton?.addEventListener('click', () => {
  scrollTo({ top: 0, behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' })
  document.getElementById('main')?.focus({ preventScroll: true })
})
