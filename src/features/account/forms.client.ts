/**
 * Progressive enhancement of the account forms (they all work without JavaScript): a submitted form shows its
 * progress (button disabled, busy label, aria-busy) so a second click cannot post twice; an SMS code countdown
 * ticks every second (spec §2 "SMS code with countdown") and, at zero, says the code is over; a form with
 * `data-confirm` asks first (spec §4 withdrawal confirm dialog).
 */
import { formatCountdown, secondsLeft } from './account.ts'

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-progress]')) {
  form.addEventListener('submit', (event) => {
    const question = form.dataset.confirm
    if (question && !window.confirm(question)) {
      event.preventDefault()
      return
    }
    if (form.getAttribute('aria-busy') === 'true') {
      event.preventDefault()
      return
    }
    form.setAttribute('aria-busy', 'true')
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])')
    if (button) {
      // disabled after this tick, so the browser still sends the form
      setTimeout(() => {
        button.disabled = true
      }, 0)
      if (button.dataset.busy) button.textContent = button.dataset.busy
    }
  })
}

for (const el of document.querySelectorAll<HTMLElement>('[data-countdown-until]')) {
  const until = el.dataset.countdownUntil!
  const value = el.querySelector<HTMLElement>('[data-countdown-value]')
  const tick = () => {
    const left = secondsLeft(until, new Date())
    if (value) value.textContent = formatCountdown(left)
    if (left > 0) return
    clearInterval(timer)
    el.dataset.expired = 'true'
    const over = el.querySelector<HTMLElement>('[data-countdown-over]')
    if (over) over.hidden = false
  }
  const timer = setInterval(tick, 1000)
  tick()
}
