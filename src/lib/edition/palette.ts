/**
 * The edition's colours in a light and a dark scheme (issue 19 point 2), and the CSS custom properties that carry
 * them. The light scheme is the edition's theme (spec §9) plus the site's fixed neutrals; the dark scheme keeps
 * the edition's primary colour, or the nearest lighter tint of it that stays readable on the dark background
 * (WCAG 2 AA, 1.4.3: 4.5:1), so each edition's brand comes through without a hand-written dark palette.
 */
import type { Edition } from './schema.ts'

type Theme = Edition['theme']

/** WCAG 1.4.3 (AA) contrast for normal text. */
const AA_TEXT = 4.5

/** Every colour token a page uses, as `--c-<name>` (camelCase names become kebab-case; background is `--c-bg`). */
export type Palette = {
  primary: string
  onPrimary: string
  background: string
  text: string
  /** Secondary text (dates, captions). */
  muted: string
  /** Decorative separators. */
  line: string
  /** Form-field borders (non-text contrast, 1.4.11: 3:1). */
  border: string
  /** Placeholder and soft panel backgrounds. */
  surface: string
  error: string
  ok: string
  /** Warning text (a rental's end, a bonus). */
  warn: string
}

/** The site's neutrals and state colours; the dark ones are what a dark UI commonly uses (not pure black). */
const LIGHT_FIXED = {
  muted: '#5f6368',
  line: '#e6e6e6',
  border: '#8a8a8a',
  surface: '#eeeeee',
  error: '#b00020',
  ok: '#1b5e20',
  warn: '#8a4b00',
} as const
const DARK_FIXED = {
  background: '#121212',
  text: '#ececec',
  muted: '#aab0b7',
  line: '#333333',
  border: '#8a8a8a',
  surface: '#262626',
  error: '#ff8a80',
  ok: '#7fd69a',
  warn: '#ffb870',
} as const

type Rgb = readonly [number, number, number]

function rgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

function hex(c: Rgb): string {
  return '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(color: string): number {
  const [r, g, b] = rgb(color).map((v) => {
    const s = v / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** `color` mixed with `toward` by `share` (0: color, 1: toward), in sRGB. */
function mix(color: string, toward: string, share: number): string {
  const a = rgb(color)
  const b = rgb(toward)
  return hex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * share) as unknown as Rgb)
}

/**
 * `color` itself when it reaches `ratio` on `background`, else the first tint of it (1 % steps toward white on a
 * dark background, toward black on a light one) that does: the brand colour changes as little as it must.
 */
function readableTint(color: string, background: string, ratio = AA_TEXT): string {
  const toward = luminance(background) < 0.18 ? '#ffffff' : '#000000'
  for (let step = 0; step <= 100; step++) {
    const tint = mix(color, toward, step / 100)
    if (contrast(tint, background) >= ratio) return tint
  }
  return toward
}

/**
 * The edition's text colour on its primary when readable there, else black or white, whichever reads better (a
 * primary readable on the dark background is light enough for black to reach 4.5:1 on it).
 */
function onColor(preferred: string, background: string): string {
  if (contrast(preferred, background) >= AA_TEXT) return preferred
  return contrast('#000000', background) >= contrast('#ffffff', background) ? '#000000' : '#ffffff'
}

/** The light and dark palettes of an edition's theme. */
export function palettes(theme: Theme): { light: Palette; dark: Palette } {
  const light: Palette = {
    primary: theme.primary,
    onPrimary: theme.onPrimary,
    background: theme.background,
    text: theme.text,
    ...LIGHT_FIXED,
  }
  const primary = readableTint(theme.primary, DARK_FIXED.background)
  const dark: Palette = { primary, onPrimary: onColor(theme.onPrimary, primary), ...DARK_FIXED }
  return { light, dark }
}

/** `--c-bg` for the background (the name pages already use), `--c-on-primary` for onPrimary. */
const cssName = (name: string) => (name === 'background' ? 'bg' : name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()))
const declarations = (p: Palette, scheme: 'light' | 'dark') =>
  Object.entries(p)
    .map(([name, value]) => `--c-${cssName(name)}:${value}`)
    .join(';') + `;color-scheme:${scheme}`

/**
 * The theme tokens as CSS: the light palette on :root; the dark one when the system prefers dark and the reader
 * has not chosen light on this device, or when the reader chose dark (`data-theme` on <html>, set before the
 * first paint by src/features/theme/theme.ts). Bundled like any stylesheet (CSP-safe).
 */
export function themeCss(theme: Theme): string {
  const { light, dark } = palettes(theme)
  return (
    `:root{--max-width:${theme.maxWidth}px;${declarations(light, 'light')}}\n` +
    `@media (prefers-color-scheme:dark){:root:not([data-theme='light']){${declarations(dark, 'dark')}}}\n` +
    `:root[data-theme='dark']{${declarations(dark, 'dark')}}\n`
  )
}
