/**
 * Progressive enhancement of the comment pages (every form works without JavaScript): a form marked
 * `data-enhance` is posted in the background to the same /web/ endpoint, the page the server answers with
 * replaces `#comments-root` in place, and the outcome is read out by the polite live region `#comment-live`.
 * A refusal (`?error=` in the answer) keeps what the reader typed and shows the message next to the form.
 * `data-confirm` asks first; `data-counter` keeps a character count beside a text area.
 */
import { send } from '../session/api.ts'
const root = () => document.getElementById('comments-root')
const live = () => document.getElementById('comment-live')

function announce(text: string) {
  const region = live()
  if (!region) return
  region.textContent = ''
  // a fresh text node after a tick is announced even when the text repeats
  setTimeout(() => {
    region.textContent = text
  }, 50)
}

function updateCounter(area: HTMLTextAreaElement) {
  const target = area.dataset.counter ? document.getElementById(area.dataset.counter) : null
  if (target) target.textContent = target.textContent!.replace(/^\s*\d+/, String([...area.value].length))
}

document.addEventListener('input', (event) => {
  const area = event.target
  if (area instanceof HTMLTextAreaElement && area.dataset.counter) updateCounter(area)
})

/** The control that sent `action` (its button by name and value) in the page as it is now, or null. */
function sameControl(action: string, submitter: HTMLButtonElement | null): HTMLElement | null {
  const forms = [...(root()?.querySelectorAll<HTMLFormElement>('form') ?? [])].filter((f) => f.getAttribute('action') === action)
  for (const f of forms) {
    const buttons = [...f.querySelectorAll<HTMLButtonElement>('button')]
    const match = submitter?.name ? buttons.find((b) => b.name === submitter.name && b.value === submitter.value) : buttons[0]
    if (match) return match
  }
  return null
}

document.addEventListener('submit', async (event) => {
  const form = event.target
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-enhance') || !root()?.contains(form)) return
  const question = form.dataset.confirm
  if (question && !window.confirm(question)) {
    event.preventDefault()
    return
  }
  event.preventDefault()
  if (form.getAttribute('aria-busy') === 'true') return
  const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null
  const body = new URLSearchParams()
  for (const [k, v] of new FormData(form)) if (typeof v === 'string') body.append(k, v)
  if (submitter?.name) body.set(submitter.name, submitter.value)
  form.setAttribute('aria-busy', 'true')
  const buttons = [...form.querySelectorAll<HTMLButtonElement>('button')]
  for (const b of buttons) b.disabled = true
  try {
    const res = await send(form.action, { method: 'POST', body, headers: { Accept: 'text/html' } })
    const url = new URL(res.url)
    if (!url.pathname.startsWith('/comment')) {
      window.location.assign(res.url) // sign-in needed: the login page brings the reader back
      return
    }
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html')
    const fresh = doc.getElementById('comments-root')
    if (!res.ok && !fresh) throw new Error(String(res.status))
    if (url.searchParams.has('error')) {
      const message = doc.querySelector('[data-flash="error"]')?.textContent ?? ''
      let note = form.querySelector<HTMLElement>('.form-error[data-inline]')
      if (!note) {
        note = document.createElement('p')
        note.className = 'form-error'
        note.dataset.inline = ''
        note.id = `${form.id || 'form'}-inline-error-${Math.random().toString(36).slice(2, 7)}`
        form.insertBefore(note, form.firstChild)
      }
      note.textContent = message
      form.querySelector('textarea')?.setAttribute('aria-invalid', 'true')
      announce(message)
      return
    }
    const action = form.getAttribute('action') ?? ''
    // read before the swap: `fresh` leaves `doc` when it moves into the page
    const message = doc.querySelector('[data-flash="ok"]')?.textContent
    const current = root()
    if (current && fresh) current.replaceWith(fresh)
    if (message) announce(message)
    // Focus stays where it was: on the same control in the new markup (Like stays on Like), on a new comment,
    // else on the status box.
    const posted = url.searchParams.get('posted')
    const focus =
      (posted && document.getElementById(`c${posted}`)) || sameControl(action, submitter) || document.getElementById('comment-status')
    focus?.focus()
  } catch {
    announce(live()?.dataset.failed ?? '')
  } finally {
    form.removeAttribute('aria-busy')
    for (const b of buttons) b.disabled = false
  }
})

// tests and the page know the in-place mode is on
document.documentElement.dataset.commentReady = '1'
