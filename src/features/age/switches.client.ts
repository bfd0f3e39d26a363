/**
 * The content switches (issue 11): a `[data-content-toggle]` control (adult or BL, `data-value` true/false)
 * calls PUT /api/v1/user/{adult|BL}/toggle/{value}, then reloads so the page is rendered for the new class.
 * Spec §8: a failed toggle is only logged; the control comes back as it was.
 */
import { apiFetch } from '../../lib/shell/request.ts'
document.addEventListener('click', async (e) => {
  const control = (e.target as Element | null)?.closest?.<HTMLElement>('[data-content-toggle]')
  if (!control || control.getAttribute('aria-busy') === 'true') return
  e.preventDefault()
  const kind = control.dataset.contentToggle === 'bl' ? 'BL' : 'adult'
  control.setAttribute('aria-busy', 'true')
  try {
    const res = await apiFetch(`/api/v1/user/${kind}/toggle/${control.dataset.value === 'true'}`, {
      method: 'PUT',
      credentials: 'same-origin',
    })
    if (!res.ok) throw new Error(`${res.status} ${((await res.json().catch(() => null)) as { code?: string } | null)?.code ?? ''}`)
    location.reload()
  } catch (err) {
    console.warn('content toggle failed', err)
    control.removeAttribute('aria-busy')
  }
})
