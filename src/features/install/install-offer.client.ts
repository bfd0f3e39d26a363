/**
 * /my's install offer (InstallOffer.astro): shown once the browser fires `beforeinstallprompt` (it does when the
 * site meets its install criteria and is not installed), its button calls the event's `prompt()` — the browser's
 * own dialog — and the row goes once that dialog is answered (a declined offer returns with the browser's next
 * event) or the app is installed (`appinstalled`).
 */
import { registerStartPage } from './start-page.ts'

/** The event Chromium fires (not in the DOM typings). */
type InstallPrompt = Event & { prompt: () => Promise<unknown>; userChoice?: Promise<{ outcome: string }> }

const root = document.querySelector<HTMLElement>('[data-install-offer]')
if (root) start(root)

function start(root: HTMLElement) {
  const button = root.querySelector<HTMLButtonElement>('[data-install-button]')!
  const status = root.querySelector<HTMLElement>('[data-install-status]')!
  let offer: InstallPrompt | null = null

  const hide = () => {
    offer = null
    root.hidden = true
    button.removeAttribute('aria-disabled')
    status.textContent = ''
  }

  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault() // this row is the offer: no banner of the browser's own
    offer = event as InstallPrompt
    root.hidden = false
    void registerStartPage() // the app, once installed, starts offline on the start page
  })
  window.addEventListener('appinstalled', hide)

  button.addEventListener('click', () => {
    const asked = offer
    if (!asked || button.getAttribute('aria-disabled') === 'true') return
    offer = null // a prompt can be shown once per event
    button.setAttribute('aria-disabled', 'true') // aria-disabled rather than disabled: the button keeps the focus
    status.textContent = button.dataset.working!
    Promise.resolve()
      .then(() => asked.prompt())
      .then(() => asked.userChoice)
      .catch(() => undefined)
      .then(hide)
  })
}
