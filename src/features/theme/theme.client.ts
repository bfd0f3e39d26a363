/**
 * The theme radio group on /setting (ThemeChoice.astro): shows the stored choice, stores a new one on this device
 * and applies it at once through the page's own first script (`window.wtTheme`, theme.ts), so the rule of which
 * theme shows lives in one place. Storage blocked (private mode): applied to this page only.
 */
import { fillIn } from '../../lib/i18n/plural.ts'
import { THEME_STORAGE_KEY, parseThemeChoice } from './theme.ts'

declare global {
  interface Window {
    wtTheme?: () => 'light' | 'dark' | null
  }
}

const root = document.querySelector<HTMLElement>('[data-theme-choice]')
if (root) start(root)

function stored() {
  try {
    return parseThemeChoice(localStorage.getItem(THEME_STORAGE_KEY))
  } catch {
    return 'system'
  }
}

function start(root: HTMLElement) {
  const fieldset = root.querySelector('fieldset')!
  const status = root.querySelector<HTMLElement>('[data-theme-status]')!
  const radios = [...root.querySelectorAll<HTMLInputElement>('input[name="theme"]')]
  const current = stored()
  for (const r of radios) r.checked = r.value === current
  fieldset.disabled = false
  root.querySelector<HTMLElement>('[data-js-off]')!.hidden = true

  fieldset.addEventListener('change', (e) => {
    const input = e.target as HTMLInputElement
    const choice = parseThemeChoice(input.value)
    try {
      if (choice === 'system') localStorage.removeItem(THEME_STORAGE_KEY)
      else localStorage.setItem(THEME_STORAGE_KEY, choice)
      window.wtTheme?.()
    } catch {
      // storage blocked: this page only
      if (choice === 'system') document.documentElement.removeAttribute('data-theme')
      else document.documentElement.setAttribute('data-theme', choice)
    }
    const label = input.closest('label')?.textContent?.trim() ?? choice
    status.textContent = fillIn(root.dataset.saved!, { theme: label })
  })
}
