/**
 * Every form that posts and waits for the server shows it (issue 25 point 3): on submit the form is `aria-busy`,
 * its button shows its `data-busy` label (else its own label and "…") and is disabled after this tick (so the
 * browser still sends it), and a second submit is dropped. A submit an island handles itself (default prevented,
 * e.g. the shop's checkout) is left to it. A page restored from the back/forward cache is ready again, and so is
 * a form the server has not answered within the API time-out (spec §9): the wait is stopped and the reader gets
 * the edition's retry message.
 */
import { REQUEST_TIMEOUT_MS, showRetry } from './stores.ts'

document.addEventListener('submit', (e) => {
  const form = e.target
  if (!(form instanceof HTMLFormElement) || e.defaultPrevented || form.method !== 'post') return
  if (form.getAttribute('aria-busy') === 'true') {
    e.preventDefault()
    return
  }
  form.setAttribute('aria-busy', 'true')
  const button = e.submitter ?? form.querySelector('button[type="submit"], button:not([type])')
  if (button instanceof HTMLButtonElement) {
    button.dataset.label = button.textContent ?? ''
    button.textContent = button.dataset.busy ?? `${button.textContent?.trim() ?? ''}…`
    setTimeout(() => (button.disabled = true), 0)
  }
  setTimeout(() => {
    if (form.getAttribute('aria-busy') !== 'true') return
    window.stop()
    form.removeAttribute('aria-busy')
    if (button instanceof HTMLButtonElement) restore(button)
    showRetry()
  }, REQUEST_TIMEOUT_MS)
})

/** A busy button as before the submit. */
function restore(button: HTMLButtonElement) {
  button.textContent = button.dataset.label ?? ''
  button.disabled = false
  delete button.dataset.label
}

addEventListener('pageshow', (e) => {
  if (!e.persisted) return
  for (const form of document.querySelectorAll('form[aria-busy="true"]')) form.removeAttribute('aria-busy')
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-label]')) restore(button)
})
