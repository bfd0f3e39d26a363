/**
 * The content switches (issue 11): a `[data-content-toggle]` control (adult or BL, `data-value` true/false)
 * calls PUT /api/v1/user/{adult|BL}/toggle/{value}, then reloads so the page is rendered for the new class.
 * Spec §8: a failed toggle is only logged; the control comes back as it was.
 */
import { api } from '../session/api.ts'
document.addEventListener('click', async (e) => {
  const control = (e.target as Element | null)?.closest?.<HTMLElement>('[data-content-toggle]')
  if (!control || control.getAttribute('aria-busy') === 'true') return
  e.preventDefault()
  const kind = control.dataset.contentToggle === 'bl' ? 'BL' : 'adult'
  control.setAttribute('aria-busy', 'true')
  const res = await api(`/user/${kind}/toggle/${control.dataset.value === 'true'}`, { method: 'PUT' })
  if (res.ok) return location.reload()
  console.warn('content toggle failed', res.status, res.code)
  control.removeAttribute('aria-busy')
})
