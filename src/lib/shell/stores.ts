/**
 * Client state of the shell shared by the tiny page script and React islands (nanostores):
 * the toast (spec §4: one at a time, 3 s) and the stack of open layers (modals, then panels).
 */
import { atom } from 'nanostores'

const TOAST_MS = 3000

/** Spec §9 modal z-indexes: default/up/bottom 2000, main popup 3000, full screen 5000. */
export const MODAL_Z = { default: 2000, up: 2000, bottom: 2000, main: 3000, full: 5000 } as const
export type ModalType = keyof typeof MODAL_Z

export type Layer = { id: string; kind: 'modal' | 'panel'; type: ModalType }

export const $toast = atom<{ id: number; message: string } | null>(null)
export const $layers = atom<Layer[]>([])

let toastTimer: ReturnType<typeof setTimeout> | undefined
let toastSeq = 0

/** Shows one toast, replacing any visible one; it disappears after 3 s. */
export function showToast(message: string): void {
  clearTimeout(toastTimer)
  $toast.set({ id: ++toastSeq, message })
  toastTimer = setTimeout(() => $toast.set(null), TOAST_MS)
}

export function pushLayer(layer: Layer): void {
  $layers.set([...$layers.get().filter((l) => l.id !== layer.id), layer])
}

export function removeLayer(id: string): void {
  $layers.set($layers.get().filter((l) => l.id !== id))
}

/**
 * Spec §2 back order: the layer a "back" closes — the newest modal first, then the newest panel;
 * null when nothing is open (then back navigates, unless on home).
 */
export function layerToClose(layers: Layer[]): Layer | null {
  const modals = layers.filter((l) => l.kind === 'modal')
  if (modals.length) return modals[modals.length - 1]!
  const panels = layers.filter((l) => l.kind === 'panel')
  return panels.length ? panels[panels.length - 1]! : null
}
