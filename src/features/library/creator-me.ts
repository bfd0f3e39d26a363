/**
 * The follow button of /creator/{id} drawn for the reader (FollowMe.astro), toggled in place: the page loads this with
 * the first press (issue 40 point 1). The button shows the new state at once (`aria-pressed`) and the page says what
 * changed; a refusal puts the state back and says why.
 */
import { api } from '../session/api.ts'
import type { Following } from './library.ts'

/** One press; the form is busy (`aria-busy`, set by the page as it is pressed: a press meanwhile is dropped) until its end. */
export async function toggle(form: HTMLFormElement): Promise<void> {
  const button = form.querySelector('button')!
  const status = document.querySelector<HTMLElement>('[data-follow-status]')!
  const show = (on: boolean) => {
    button.setAttribute('aria-pressed', String(on))
    form.querySelector<HTMLInputElement>('input[name="follow"]')!.value = on ? '0' : '1'
  }
  const on = button.getAttribute('aria-pressed') !== 'true'
  show(on)
  const done = await api<Following>(`/contents/creators/${form.dataset.follow}/follow`, { method: on ? 'PUT' : 'DELETE' })
  if (done.ok) status.textContent = on ? form.dataset.following! : form.dataset.unfollowed!
  else {
    show(!on)
    if (done.message) status.textContent = done.message
  }
  form.removeAttribute('aria-busy')
}
