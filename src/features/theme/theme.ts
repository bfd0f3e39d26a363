/**
 * Light, dark or the system's theme (issue 19 point 2), chosen on /setting and remembered on this device only
 * (localStorage): pages stay the same for every reader, so the edge cache is not split per person
 * (docs/ARCHITECTURE.md "Edge cache per audience class"). The colours are the edition's (src/lib/edition/palette.ts).
 */

/** The reader's choice: `system` follows `prefers-color-scheme`. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const
export type ThemeChoice = (typeof THEME_CHOICES)[number]

/** The localStorage key of the choice (absent: system). */
export const THEME_STORAGE_KEY = 'wt-theme'

/** The viewer's surroundings are dark from 22:00 to 08:00 on the reader's own clock, unless they chose light. */
const NIGHT_HOURS = { from: 22, to: 8 } as const

export function parseThemeChoice(value: unknown): ThemeChoice {
  return THEME_CHOICES.find((c) => c === value) ?? 'system'
}

/**
 * The page's first script, inline in <head> after the theme metas (src/layouts/Base.astro), so the first paint
 * already has the chosen theme: `data-theme` on <html> from the stored choice, or `dark` at night on a page marked
 * `data-night-dark` (the viewer) unless light was chosen; none leaves the system's. It also points the
 * `theme-color` metas (`data-scheme`) and the `color-scheme` meta at the theme shown. It stays callable as
 * `window.wtTheme()` so /setting applies a new choice the same way. Its SHA-256 is allowed by the CSP
 * (astro.config.mjs), so this text must stay exactly as it is rendered: plain ES5, no build step.
 */
export const THEME_BOOT =
  '(window.wtTheme=function(){var d=document,r=d.documentElement,h=new Date().getHours(),c,t;' +
  `try{c=localStorage.getItem('${THEME_STORAGE_KEY}')}catch(e){}` +
  "t=c==='light'||c==='dark'?c:" +
  `r.hasAttribute('data-night-dark')&&(h>=${NIGHT_HOURS.from}||h<${NIGHT_HOURS.to})?'dark':null;` +
  "t?r.setAttribute('data-theme',t):r.removeAttribute('data-theme');" +
  "d.querySelectorAll('meta[name=theme-color]').forEach(function(m){var s=m.dataset.scheme;" +
  "m.media=t?(s===t?'all':'not all'):'(prefers-color-scheme: '+s+')'});" +
  "var n=d.querySelector('meta[name=color-scheme]');if(n)n.content=t||'light dark';return t})()"
