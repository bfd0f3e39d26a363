/**
 * The reader's part of /creator/{id} (issue 37 point 2), after first paint: the page is the same for every reader of an
 * audience class (edge cached per class), so the page loads this only where the worker marked a signed-in reader
 * (`markedSignedIn`). It asks whether they follow the creator, shows it on the follow button (`aria-pressed`) and makes
 * the button's form a toggle that says what changed; a refusal puts the state back and says why.
 */
import { api } from '../session/api.ts'
import type { Following } from './library.ts'

const form = document.querySelector<HTMLFormElement>('form[data-follow]')
if (form) void wire(form)

async function wire(form: HTMLFormElement) {
  const button = form.querySelector('button')!
  const next = form.querySelector<HTMLInputElement>('input[name="follow"]')!
  const status = document.querySelector<HTMLElement>('[data-follow-status]')!
  const id = form.dataset.follow!
  let on = false
  const show = () => {
    button.setAttribute('aria-pressed', String(on))
    next.value = on ? '0' : '1'
  }
  const res = await api<Following>(`/contents/creators/${id}/me`, { quiet: true })
  if (!res.ok) return // a session ended meanwhile: the form stays a guest's
  on = res.data.following
  show()
  let busy = false
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    if (busy) return // keeps focus on the button (a disabled one would lose it)
    busy = true
    on = !on
    show()
    const done = await api<Following>(`/contents/creators/${id}/follow`, { method: on ? 'PUT' : 'DELETE' })
    if (done.ok) status.textContent = on ? form.dataset.following! : form.dataset.unfollowed!
    else {
      on = !on
      show()
      if (done.message) status.textContent = done.message
    }
    busy = false
  })
}
