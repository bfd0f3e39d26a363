/**
 * The /roulette page's spin (spec §2 /roulette): the server draws the prize; this only sends the spin with an
 * Idempotency-Key (kept for a retry after a network failure), turns the wheel to the answer — at once when the
 * reader prefers reduced motion — and announces the result in the page's live region. After a prize it tells
 * the session store the new balance (`coinChanged`: the header and the other tabs).
 */
import { api } from '../session/api.ts'
import { landingRotation } from './wheel.ts'
import type { SpinRequest } from './roulette.ts'
import type { Coin } from '../session/store.ts'
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'

type Spin = { prizeIndex: number; prize: { type: string; amount: number }; tickets: number; freeSpins: number; coin: Coin }

const form = document.querySelector<HTMLFormElement>('#roulette-form')
if (form) {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
  const wheel = document.querySelector<SVGGElement>('#roulette-wheel')!
  const status = document.querySelector<HTMLElement>('#roulette-status')!
  const tickets = document.querySelector<HTMLElement>('#roulette-tickets')
  const freeSpins = document.querySelector<HTMLElement>('#roulette-free')
  const balance = document.querySelector<HTMLElement>('#roulette-balance')
  const labels = [...document.querySelectorAll<HTMLElement>('#roulette-prizes [data-label]')].map((li) => li.dataset.label ?? '')
  const text = (name: string) => form.dataset[name] ?? ''
  const counted = (name: string, n: number) => pluralText(JSON.parse(text(name)) as Plural, n)
  const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches
  let rotation = 0
  let pendingKey: string | null = null

  const settle = () =>
    new Promise<void>((resolve) => {
      if (reduced()) return resolve()
      const done = () => resolve()
      wheel.addEventListener('transitionend', done, { once: true })
      setTimeout(done, 5000)
    })

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (button.disabled) return
    button.disabled = true
    status.textContent = text('spinning')
    pendingKey ??= crypto.randomUUID()
    const body: SpinRequest = { eventId: Number(form.dataset.eventId) }
    const answer = await api<Spin>('/roulette/spin', { method: 'POST', key: pendingKey, body })
    if (!answer.ok && answer.code === 'NETWORK') {
      status.textContent = text('error') // same key on the next try: a spin that did go through is not repeated
      button.disabled = false
      return
    }
    pendingKey = null
    if (!answer.ok) {
      status.textContent = answer.message ?? text('error')
      button.disabled = answer.code === 'NOT_EVENT_REMAIN_TICKET'
      return
    }
    const spin = answer.data
    rotation = landingRotation(rotation, spin.prizeIndex, labels.length)
    wheel.classList.toggle('instant', reduced())
    wheel.style.transform = `rotate(${rotation}deg)`
    await settle()
    const label = labels[spin.prizeIndex] ?? ''
    status.textContent = spin.prize.type === 'NONE' ? text('none') : text('win').replace('{{prize}}', label)
    if (tickets) tickets.textContent = counted('tickets', spin.tickets)
    if (freeSpins) freeSpins.textContent = counted('free', spin.freeSpins)
    if (balance) balance.textContent = counted('balance', spin.coin.total)
    if (spin.prize.type !== 'NONE') void import('../session/store.ts').then((session) => session.coinChanged(spin.coin))
    button.disabled = spin.tickets + spin.freeSpins === 0
    if (button.disabled) status.textContent += ` ${text('empty')}`
  })
}
