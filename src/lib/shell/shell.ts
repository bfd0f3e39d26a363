/**
 * The page shell's only script (no framework; docs/QUALITY.md ≤ 5 KB on catalogue pages): toast region,
 * modal/panel stack with the back order of spec §2, scroll-to-top, and the content protection of §2.
 */
import { $layers, $toast, MODAL_Z, layerToClose, pushLayer, removeLayer, showToast, type ModalType } from './stores.ts'

const HOME = '/'
let opener: HTMLElement | null = null

function layerEl(id: string): HTMLElement | null {
  return document.getElementById(id)
}

/** Opens a modal (`<div role="dialog" hidden>`) or a slide panel by element id. */
function openLayer(id: string, kind: 'modal' | 'panel', type: ModalType = 'default'): void {
  const el = layerEl(id)
  if (!el) return
  opener = document.activeElement as HTMLElement | null
  pushLayer({ id, kind, type })
  el.hidden = false
  el.style.zIndex = String(MODAL_Z[type])
  history.pushState({ layer: id }, '')
  ;(el.querySelector<HTMLElement>('[autofocus], button, a, input') ?? el).focus()
}

function hideLayer(id: string): void {
  const el = layerEl(id)
  if (el) el.hidden = true
  removeLayer(id)
  opener?.focus()
}

/** Spec §2: back closes modals first, then panels, then goes back unless on home. */
function goBack(): void {
  if (layerToClose($layers.get())) history.back()
  else if (location.pathname !== HOME) history.back()
}

addEventListener('popstate', () => {
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
  if (e.key === 'Escape' && layerToClose($layers.get())) goBack()
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
document.querySelectorAll<HTMLElement>('[data-toast]').forEach((el) =>
  el.addEventListener('click', () => showToast(el.dataset.toast ?? '')),
)
addEventListener('app:toast', (e) => showToast((e as CustomEvent<string>).detail))

// Scroll-to-top: appears after scrolling, checked at most every 200 ms (spec §9).
const topButton = document.getElementById('scroll-top')
let last = 0
let pending = false
function updateTop() {
  pending = false
  last = Date.now()
  if (topButton) topButton.hidden = scrollY < 200
}
addEventListener('scroll', () => {
  if (pending) return
  pending = true
  setTimeout(updateTop, Math.max(0, 200 - (Date.now() - last)))
}, { passive: true })
topButton?.addEventListener('click', () => {
  scrollTo({ top: 0, behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' })
  document.getElementById('main')?.focus({ preventScroll: true })
})
