/**
 * Client state of the shell shared by the page scripts and React islands (nanostores; an island reads an atom with
 * @nanostores/react's `useStore`, a page script with `subscribe`): the toast (spec §4: one at a time, 3 s), the
 * age check asked for and its answer, and the stack of open layers (modals, then panels). The signed-in reader and
 * the balance are the session's atom (src/features/session/store.ts).
 */
import { atom } from 'nanostores'

const TOAST_MS = 3000

/** Spec §9 modal z-indexes: default/up/bottom 2000, main popup 3000, full screen 5000. */
export const MODAL_Z = { default: 2000, up: 2000, bottom: 2000, main: 3000, full: 5000 } as const
export type ModalType = keyof typeof MODAL_Z

/** `close`: how Back closes a layer an island renders (its own state); the shell's own layers are closed by element id. */
export type Layer = { id: string; kind: 'modal' | 'panel'; type: ModalType; close?: () => void }

export const $toast = atom<{ id: number; message: string } | null>(null)
export const $layers = atom<Layer[]>([])

/**
 * The age check (spec §4; spec §8 ADULT_ONLY_CONTENTS → the age popup): the page to come back to while it is asked
 * for (age/listen.ts opens the popup); its answer: null again once the popup closed without success ("no", Esc,
 * Back), while a success leaves the page.
 */
export const $age = atom<string | null>(null)

/** Asks for the age popup, which comes back to `returnTo` (none: this page) after the check. */
export const requireAge = (returnTo?: string | null) => $age.set(returnTo || location.pathname + location.search)

let toastTimer: ReturnType<typeof setTimeout> | undefined
let toastSeq = 0

/** Shows one toast, replacing any visible one; it disappears after 3 s. */
export function showToast(message: string): void {
  clearTimeout(toastTimer)
  $toast.set({ id: ++toastSeq, message })
  toastTimer = setTimeout(() => $toast.set(null), TOAST_MS)
}

/** Spec §9: API time-out 30000 ms: the API client's (api-client.ts) and the plain forms' wait (busy.ts). */
export const REQUEST_TIMEOUT_MS = 30_000

/** Tells the reader the server did not answer in time: the edition's message (the toast region's `data-timeout`). */
export function showRetry(): void {
  const message = document.getElementById('toast')?.dataset.timeout
  if (message) showToast(message)
}

function pushLayer(layer: Layer): void {
  $layers.set([...$layers.get().filter((l) => l.id !== layer.id), layer])
}

export function removeLayer(id: string): void {
  $layers.set($layers.get().filter((l) => l.id !== id))
}

/** History steps taken back by `leaveLayer`: their popstate closes nothing (the layer is already closed). */
let ownSteps = 0

/**
 * `leaveLayer`'s step back until the browser has taken it (its popstate). The browser takes a step back after the
 * script that asked for it, so an entry pushed meanwhile would be the one taken back (and the popup opened next
 * would lose its entry): a layer opening then pushes its entry once the step is done.
 */
let stepping: Promise<void> | null = null
/** Layers on the stack whose history entry waits for that step. */
const unpushed = new Set<string>()

/** A layer opens: on the stack, with a history entry of its own that Back takes (spec §2 back order). */
export function enterLayer(layer: Layer): void {
  pushLayer(layer)
  if (!stepping) return history.pushState({ layer: layer.id }, '')
  unpushed.add(layer.id)
  void stepping.then(() => {
    if (unpushed.delete(layer.id)) history.pushState({ layer: layer.id }, '')
  })
}

/**
 * A layer closed by its own button or Esc while still on the stack: off the stack, and its history entry taken
 * back, so the next Back leaves the page instead of landing on a dead entry. Nothing when Back already closed it.
 */
export function leaveLayer(id: string): void {
  if (!$layers.get().some((l) => l.id === id)) return
  removeLayer(id)
  if (unpushed.delete(id)) return // its entry was never pushed: there is nothing to take back
  ownSteps++
  const step: Promise<void> = new Promise<void>((resolve) => addEventListener('popstate', () => resolve(), { once: true })).then(() => {
    if (stepping === step) stepping = null
  })
  stepping = step
  history.back()
}

/** Whether a popstate is one of `leaveLayer`'s own steps back (counted once). */
export function isOwnStep(): boolean {
  if (ownSteps === 0) return false
  ownSteps--
  return true
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
