import { describe, expect, it } from 'vitest'
import { runInNewContext } from 'node:vm'
import { THEME_BOOT, THEME_STORAGE_KEY, parseThemeChoice } from './theme.ts'

/** A <head> with the two theme-color metas and the color-scheme meta, and <html> with its attributes. */
function page(opts: { stored?: string | null; hour: number; night?: boolean; storageBlocked?: boolean }) {
  const attrs = new Map<string, string>(opts.night ? [['data-night-dark', '']] : [])
  const meta = (a: Record<string, string>) => {
    const m = new Map(Object.entries(a))
    return {
      dataset: { scheme: a['data-scheme'] },
      set media(v: string) {
        m.set('media', v)
      },
      set content(v: string) {
        m.set('content', v)
      },
      attrs: m,
    }
  }
  const themeColors = [meta({ name: 'theme-color', 'data-scheme': 'light' }), meta({ name: 'theme-color', 'data-scheme': 'dark' })]
  const colorScheme = meta({ name: 'color-scheme', content: 'light dark' })
  const document = {
    documentElement: {
      hasAttribute: (k: string) => attrs.has(k),
      setAttribute: (k: string, v: string) => attrs.set(k, v),
      removeAttribute: (k: string) => attrs.delete(k),
    },
    querySelectorAll: () => themeColors,
    querySelector: () => colorScheme,
  }
  const localStorage = {
    getItem(key: string) {
      if (opts.storageBlocked) throw new Error('SecurityError')
      return key === THEME_STORAGE_KEY ? (opts.stored ?? null) : null
    },
  }
  const RealDate = Date
  class FixedDate extends RealDate {
    override getHours() {
      return opts.hour
    }
  }
  const context: Record<string, unknown> = { document, localStorage, Date: FixedDate }
  context.window = context
  const result = runInNewContext(THEME_BOOT, context) as string | null
  return {
    result,
    theme: attrs.get('data-theme') ?? null,
    media: themeColors.map((m) => m.attrs.get('media')),
    colorScheme: colorScheme.attrs.get('content'),
    again: context.wtTheme as () => string | null,
    attrs,
  }
}

describe('parseThemeChoice', () => {
  it('keeps the three choices and reads anything else as system', () => {
    expect(parseThemeChoice('dark')).toBe('dark')
    expect(parseThemeChoice('light')).toBe('light')
    expect(parseThemeChoice('system')).toBe('system')
    expect(parseThemeChoice(null)).toBe('system')
    expect(parseThemeChoice('DARK')).toBe('system')
  })
})

describe('THEME_BOOT (the first script of every page)', () => {
  it('a stored choice wins, day or night, on any page', () => {
    for (const hour of [3, 12, 23]) {
      expect(page({ stored: 'dark', hour }).theme).toBe('dark')
      expect(page({ stored: 'light', hour, night: true }).theme).toBe('light')
    }
  })
  it('system: no data-theme (the CSS follows prefers-color-scheme), metas follow the system', () => {
    const p = page({ stored: null, hour: 12 })
    expect(p.theme).toBeNull()
    expect(p.media).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)'])
    expect(p.colorScheme).toBe('light dark')
    expect(page({ stored: 'system', hour: 12 }).theme).toBeNull()
  })
  it('the viewer is dark from 22:00 to 08:00 on the reader’s clock unless light was chosen', () => {
    const at = (hour: number, stored: string | null = null) => page({ stored, hour, night: true }).theme
    expect([21, 22, 23, 0, 7, 8, 12].map((h) => at(h))).toEqual([null, 'dark', 'dark', 'dark', 'dark', null, null])
    expect(at(23, 'system')).toBe('dark')
    expect(at(23, 'light')).toBe('light')
    // a page not marked for the night stays with the system
    expect(page({ hour: 23 }).theme).toBeNull()
  })
  it('points the theme-color and color-scheme metas at the theme shown', () => {
    const p = page({ stored: 'dark', hour: 12 })
    expect(p.media).toEqual(['not all', 'all'])
    expect(p.colorScheme).toBe('dark')
  })
  it('blocked storage: the system theme, no error', () => {
    expect(page({ hour: 12, storageBlocked: true }).theme).toBeNull()
  })
  it('stays callable to apply a new choice without reloading', () => {
    const p = page({ stored: 'dark', hour: 12 })
    expect(p.result).toBe('dark')
    expect(typeof p.again).toBe('function')
  })
  it('is plain ES5 (no build step touches it: its hash is in the CSP)', () => {
    expect(THEME_BOOT).not.toMatch(/=>|`|\blet\b|\bconst\b/)
  })
})
