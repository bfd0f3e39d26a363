import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { EDITION_IDS } from './schema.ts'
import { loadEdition } from './load.ts'
import { palettes, themeCss } from './palette.ts'

/** WCAG AA contrast for body text. */
const AA_TEXT = 4.5

/** WCAG 2 relative luminance of a `#rrggbb` colour (the checks' own, independent of palette.ts). */
function luminance(color: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const s = Number.parseInt(color.slice(i, i + 2), 16) / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}
/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}
/** The night primary of a brand colour: what the dark palette shows it as (on its #121212 background). */
const nightPrimary = (color: string) => palettes(theme(color)).dark.primary

const hexColor = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join(''))
const theme = (primary: string, onPrimary = '#1a1a1a') => ({ primary, onPrimary, background: '#ffffff', text: '#1a1a1a', maxWidth: 720 })

describe('contrast (WCAG 2)', () => {
  it('gives the reference ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#ffffff', '#ffffff')).toBe(1)
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2)
    expect(luminance('#ffffff')).toBeCloseTo(1, 6)
  })
  it('is symmetric', () => {
    fc.assert(fc.property(hexColor, hexColor, (a, b) => contrast(a, b) === contrast(b, a)))
  })
})

describe('the night primary (readable tint of the brand colour)', () => {
  it('is on the #121212 background', () => {
    fc.assert(fc.property(hexColor, (c) => palettes(theme(c)).dark.background === '#121212'))
  })
  it('keeps a colour that is already readable (the demo orange on the dark background)', () => {
    expect(nightPrimary('#ff6a00')).toBe('#ff6a00')
  })
  it('lightens a dark brand colour only as far as it must', () => {
    const tint = nightPrimary('#1a3c8f')
    expect(contrast(tint, '#121212')).toBeGreaterThanOrEqual(AA_TEXT)
    // one step less would not be readable: the tint is the nearest
    expect(tint).not.toBe('#1a3c8f')
    expect(luminance(tint)).toBeLessThan(luminance('#ffffff'))
    // still bluish: blue stays the strongest channel
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(tint.slice(i, i + 2), 16))
    expect(b!).toBeGreaterThan(r!)
    expect(b!).toBeGreaterThan(g!)
  })
  it('always reaches 4.5:1 on the dark background', () => {
    fc.assert(fc.property(hexColor, (c) => contrast(nightPrimary(c), '#121212') >= AA_TEXT))
  })
})

describe('palettes', () => {
  it('the dark scheme of any brand colour: text, primary and onPrimary readable', () => {
    fc.assert(
      fc.property(hexColor, hexColor, (primary, onPrimary) => {
        const { dark } = palettes(theme(primary, onPrimary))
        return (
          contrast(dark.primary, dark.background) >= AA_TEXT &&
          contrast(dark.onPrimary, dark.primary) >= AA_TEXT &&
          contrast(dark.text, dark.background) >= AA_TEXT
        )
      }),
    )
  })
  it.each(EDITION_IDS)('%s: every text colour reads at AA on its background, in both schemes', (id) => {
    const { edition } = loadEdition(id)
    const { light, dark } = palettes(edition.theme)
    for (const p of [light, dark]) {
      for (const text of [p.text, p.muted, p.error, p.ok, p.warn]) expect(contrast(text, p.background)).toBeGreaterThanOrEqual(AA_TEXT)
      expect(contrast(p.text, p.surface)).toBeGreaterThanOrEqual(AA_TEXT)
      expect(contrast(p.onPrimary, p.primary)).toBeGreaterThanOrEqual(AA_TEXT)
      expect(contrast(p.border, p.background)).toBeGreaterThanOrEqual(3)
    }
    // the brand stays: the edition's own primary when it is readable at night
    expect(dark.primary).toBe(nightPrimary(edition.theme.primary))
    expect(light.primary).toBe(edition.theme.primary)
  })
})

describe('themeCss', () => {
  it('light on :root, dark for a dark system unless light was chosen, and for a chosen dark', () => {
    const css = themeCss(theme('#ff6a00'))
    expect(css).toContain(':root{--max-width:720px;--c-primary:#ff6a00;')
    expect(css).toContain("@media (prefers-color-scheme:dark){:root:not([data-theme='light']){--c-primary:")
    expect(css).toContain(":root[data-theme='dark']{--c-primary:")
    expect(css).toContain('--c-on-primary:#1a1a1a')
    expect(css.match(/;color-scheme:dark/g)).toHaveLength(2)
    expect(css.match(/;color-scheme:light/g)).toHaveLength(1)
  })
})
