/**
 * Progressive enhancement of the account forms (they all work without JavaScript; the busy state of a submitted
 * form is the shell's, src/lib/shell/busy.ts, for every form): an SMS code countdown
 * ticks every second (spec §2 "SMS code with countdown") and, at zero, says the code is over; a form with
 * `data-confirm` asks first (spec §4 withdrawal confirm dialog).
 */
import { formatCountdown, secondsLeft } from './countdown.ts'

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    const question = form.dataset.confirm
    if (question && !window.confirm(question)) event.preventDefault()
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
