import { describe, expect, it } from 'vitest'
import {
  AUTO_SCROLL_SPEEDS,
  DEFAULT_AUTO_SCROLL_SPEED,
  MAX_ZOOM,
  atPageEnd,
  reducedAutoScrollJump,
  autoScrollStep,
  nextSpeed,
  offlineUrls,
  pinchZoom,
  progressUnchanged,
  progressSaveDelay,
  PROGRESS_INTERVAL_MS,
  speedIndex,
  zoomAnchor,
  DEFAULT_SETTINGS,
  pageIndicator,
  pageOfPosition,
  pageOfSlice,
  pagePosition,
  pageSlices,
  pageStep,
  parseSettings,
  positionParam,
  settingsKey,
  turnPage,
  viewerLoginHref,
} from './reading.ts'
import { viewerPlace } from './place.ts'

/** Number of pages in PAPER mode: the last page a reader can turn to, plus one. */
const pageCount = (slices: number, double: boolean) => turnPage(0, Number.MAX_SAFE_INTEGER, slices, double) + 1

describe('PAPER mode page turns (spec §2 viewer modes)', () => {
  it('left-to-right series: ArrowRight forward, ArrowLeft back', () => {
    expect(pageStep('ArrowRight', false, 'ltr')).toBe(1)
    expect(pageStep('ArrowLeft', false, 'ltr')).toBe(-1)
  })

  it('right-to-left series: ArrowLeft forward, ArrowRight back', () => {
    expect(pageStep('ArrowLeft', false, 'rtl')).toBe(1)
    expect(pageStep('ArrowRight', false, 'rtl')).toBe(-1)
  })

  it('PageDown, ArrowDown and space go forward, PageUp, ArrowUp and Shift+space back, whatever the direction', () => {
    for (const d of ['ltr', 'rtl'] as const) {
      expect([pageStep('PageDown', false, d), pageStep('ArrowDown', false, d), pageStep(' ', false, d)]).toEqual([1, 1, 1])
      expect([pageStep('PageUp', false, d), pageStep('ArrowUp', false, d), pageStep(' ', true, d)]).toEqual([-1, -1, -1])
    }
    expect(pageStep('a', false, 'ltr')).toBe(0)
    expect(pageStep('Enter', false, 'rtl')).toBe(0)
  })

  it('stays within the episode: no page before the first or after the last', () => {
    expect(turnPage(0, -1, 12, false)).toBe(0)
    expect(turnPage(0, 1, 12, false)).toBe(1)
    expect(turnPage(11, 1, 12, false)).toBe(11)
    expect(turnPage(5, 1, 0, false)).toBe(0)
  })

  it('double pages pair slices, the last page alone when the count is odd', () => {
    expect(pageCount(12, true)).toBe(6)
    expect(pageCount(3, true)).toBe(2)
    expect(pageCount(3, false)).toBe(3)
    expect(pageSlices(0, true, 3)).toEqual([0, 1])
    expect(pageSlices(1, true, 3)).toEqual([2])
    expect(pageSlices(9, true, 3)).toEqual([2])
    expect(pageSlices(2, false, 3)).toEqual([2])
    expect(pageSlices(0, false, 0)).toEqual([])
    expect(turnPage(1, 1, 3, true)).toBe(1)
    expect(turnPage(5, 1, 12, true)).toBe(5)
  })

  it('keeps the reader on the same slice when switching single/double', () => {
    expect(pageOfSlice(5, true)).toBe(2)
    expect(pageOfSlice(4, true)).toBe(2)
    expect(pageOfSlice(5, false)).toBe(5)
  })

  it('indicates "3 / 12", or "3–4 / 12" on a double page', () => {
    expect(pageIndicator(2, false, 12)).toEqual({ current: '3', total: 12 })
    expect(pageIndicator(1, true, 12)).toEqual({ current: '3–4', total: 12 })
    expect(pageIndicator(1, true, 3)).toEqual({ current: '3', total: 3 })
  })

  it('maps pages to saved positions and back', () => {
    expect(pagePosition(0, 12, false)).toBe(0)
    expect(pagePosition(11, 12, false)).toBe(1)
    expect(pagePosition(0, 1, false)).toBe(1)
    expect(pageOfPosition(0.5, 11, false)).toBe(5)
    expect(pageOfPosition(1, 12, true)).toBe(5)
    expect(pageOfPosition(pagePosition(7, 12, false), 12, false)).toBe(7)
  })
})

describe('reader settings', () => {
  it('are stored under one key per edition', () => {
    expect(settingsKey('fr')).not.toBe(settingsKey('ar'))
  })

  it('parse stored JSON field by field, falling back to the defaults', () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS)
    expect(parseSettings('not json')).toEqual(DEFAULT_SETTINGS)
    expect(parseSettings('[1]')).toEqual(DEFAULT_SETTINGS)
    expect(parseSettings('{"mode":"PAPER","double":true,"font":"serif","fontSize":22}')).toEqual({
      mode: 'PAPER',
      double: true,
      font: 'serif',
      fontSize: 22,
      transcript: false,
      shortcuts: true,
    })
    expect(parseSettings('{"mode":"SCROLL","transcript":true}')).toEqual({ ...DEFAULT_SETTINGS, transcript: true })
    expect(parseSettings('{"mode":"BOOK","double":"yes","font":"comic","fontSize":99,"transcript":"on"}')).toEqual(DEFAULT_SETTINGS)
  })
})

describe('returning to the same place after login', () => {
  it('puts the episode and position in the viewer URL, and the URL in the login callback', () => {
    expect(viewerPlace(6, 0.4237)).toBe('/viewer/6?p=0.424')
    expect(viewerPlace(6, 0)).toBe('/viewer/6')
    expect(viewerPlace(6, null)).toBe('/viewer/6')
    const href = viewerLoginHref(6, 0.4237)
    const callback = new URL(href, 'http://x').searchParams.get('callback')!
    expect(callback).toBe('/callback/viewer-login-success?callback=%2Fviewer%2F6&position=0.424')
    const back = new URL(callback, 'http://x').searchParams
    expect([back.get('callback'), back.get('position')]).toEqual(['/viewer/6', '0.424'])
    expect(new URL(viewerLoginHref(6, null), 'http://x').searchParams.get('callback')).toBe(
      '/callback/viewer-login-success?callback=%2Fviewer%2F6',
    )
  })

  it('reads back only a position between 0 and 1', () => {
    expect(positionParam('?p=0.424')).toBe(0.424)
    expect(positionParam('?p=1')).toBe(1)
    for (const bad of ['', '?p=', '?p=2', '?p=-0.1', '?p=abc', '?p=0.5e1', '?p=Infinity']) expect(positionParam(bad)).toBeNull()
  })
})

describe('settings cookie', () => {
  it('is recognised in a Cookie header, whatever the edition', async () => {
    const { hasSettingsCookie, settingsCookieName, settingsFromCookie, settingsCookie } = await import('./reading.ts')
    expect(settingsCookieName(settingsKey('fr'))).toBe('viewer-settings_fr')
    expect(hasSettingsCookie('a=1; viewer-settings_fr=%7B%7D')).toBe(true)
    expect(hasSettingsCookie('viewer-settings_ar=x')).toBe(true)
    expect(hasSettingsCookie('wt_session=1; other=viewer-settings_fr')).toBe(false)
    expect(hasSettingsCookie(undefined)).toBe(false)
    const set = settingsCookie(settingsKey('fr'), { ...DEFAULT_SETTINGS, mode: 'PAPER' })
    expect(set).toMatch(/^viewer-settings_fr=[^;]+; Path=\/; Max-Age=31536000; SameSite=Lax$/)
    expect(settingsFromCookie(set.split(';')[0]!.split('=')[1])).toEqual({ ...DEFAULT_SETTINGS, mode: 'PAPER' })
    expect(settingsFromCookie(undefined)).toBeNull()
    expect(settingsFromCookie('%E0%A4%A')).toEqual(DEFAULT_SETTINGS) // undecodable: the defaults
  })
})

describe('zoom (SCROLL mode)', () => {
  it("a pinch scales the zoom at its start by the fingers' distance, to 0.05, within 1 and the largest step", () => {
    expect(pinchZoom(1, 100, 150)).toBe(1.5)
    expect(pinchZoom(1.5, 100, 133)).toBe(2)
    expect(pinchZoom(1, 100, 112)).toBe(1.1)
    expect(pinchZoom(2, 100, 10)).toBe(1)
    expect(pinchZoom(2, 100, 1000)).toBe(MAX_ZOOM)
    expect(MAX_ZOOM).toBe(3)
  })

  it('keeps the point at the middle of the screen in place, never above the top', () => {
    expect(zoomAnchor(1400, 1, 2, 800)).toBe(2400) // middle 1400 → 2800, minus half a screen
    expect(zoomAnchor(2800, 2, 1, 800)).toBe(1000)
    expect(zoomAnchor(400, 2, 1, 800)).toBe(0)
  })
})

describe('auto-scroll (SCROLL mode)', () => {
  it('scrolls whole pixels and carries the fraction, so a slow speed still moves at its rate', () => {
    expect(autoScrollStep(0, 100, 16)).toEqual({ px: 1, carry: expect.closeTo(0.6, 9) })
    expect(autoScrollStep(0, 30, 16)).toEqual({ px: 0, carry: expect.closeTo(0.48, 9) })
    let carry = 0
    let moved = 0
    for (let i = 0; i < 60; i++) {
      const s = autoScrollStep(carry, 30, 1000 / 60)
      carry = s.carry
      moved += s.px
    }
    expect(moved).toBeGreaterThanOrEqual(29) // one second at 30 px/s
    expect(moved).toBeLessThanOrEqual(30)
    expect(autoScrollStep(0.5, 100, -20)).toEqual({ px: 0, carry: expect.closeTo(-1.5, 9) }) // a frame stamped before the start moves nothing
  })

  it('with reduced motion, jumps 80 % of a screen at the pace of the chosen speed', () => {
    expect(reducedAutoScrollJump(844, 100)).toEqual({ px: 675, everyMs: 6750 })
    expect(reducedAutoScrollJump(1000, 320)).toEqual({ px: 800, everyMs: 2500 })
    for (const speed of AUTO_SCROLL_SPEEDS) {
      const { px, everyMs } = reducedAutoScrollJump(900, speed)
      expect((px / everyMs) * 1000).toBeCloseTo(speed, 0) // the same pace as the glide
    }
  })

  it('stops at the end of the page (within a pixel)', () => {
    expect(atPageEnd(800, 1199, 2000)).toBe(true)
    expect(atPageEnd(800, 1198, 2000)).toBe(false)
  })

  it('steps its speed within the offered ones; the slider shows an unknown speed as the first', () => {
    expect(nextSpeed(DEFAULT_AUTO_SCROLL_SPEED, 1)).toBe(150)
    expect(nextSpeed(DEFAULT_AUTO_SCROLL_SPEED, -1)).toBe(60)
    expect(nextSpeed(AUTO_SCROLL_SPEEDS[0], -1)).toBe(AUTO_SCROLL_SPEEDS[0])
    expect(nextSpeed(320, 1)).toBe(320)
    expect(nextSpeed(77, 1)).toBe(AUTO_SCROLL_SPEEDS[0]) // not one of them: from the start
    expect(speedIndex(100)).toBe(2)
    expect(speedIndex(77)).toBe(0)
  })
})

describe('progress saving', () => {
  it('sends a position only when it moved by half a percent since the last one sent', () => {
    expect(progressUnchanged(undefined, 0)).toBe(false)
    expect(progressUnchanged(0.5, 0.504)).toBe(true)
    expect(progressUnchanged(0.5, 0.496)).toBe(true)
    expect(progressUnchanged(0.5, 0.506)).toBe(false)
    expect(progressUnchanged(-1, 0)).toBe(false) // no saved progress yet: the top is sent
  })

  it('saves while reading at most every 30 s and only a moved place; the end at once', () => {
    const opened = 1_000_000
    expect(progressSaveDelay(-1, 0.1, opened, opened + 2_000)).toBe(28_000) // 2 s after the opening: in 28 s
    expect(progressSaveDelay(-1, 0.4, opened, opened + 31_000)).toBe(0) // 30 s on: now
    expect(progressSaveDelay(0.4, 0.402, opened + 31_000, opened + 90_000)).toBeNull() // not moved: never
    expect(progressSaveDelay(0.4, 0.6, opened + 31_000, opened + 40_000)).toBe(21_000)
    expect(progressSaveDelay(0.6, 1, opened + 61_000, opened + 62_000)).toBe(0) // the end: at once
    expect(progressSaveDelay(1, 1, opened + 62_000, opened + 63_000)).toBeNull() // and once
    expect(PROGRESS_INTERVAL_MS).toBe(30_000)
  })
})

describe('offline reading', () => {
  it("caches every width of every slice, then the site's built assets once each", () => {
    const srcsets = ['/img/1-360.webp 360w, /img/1-720.webp 720w', '/img/2-360.webp 360w']
    const resources = [
      'http://x/_astro/a.js',
      'http://x/api/v1/me',
      'http://x/_astro/a.js',
      'http://x/_astro/b.css',
      'http://y/_astro/c.js',
    ]
    expect(offlineUrls(srcsets, resources, 'http://x')).toEqual([
      '/img/1-360.webp',
      '/img/1-720.webp',
      '/img/2-360.webp',
      'http://x/_astro/a.js',
      'http://x/_astro/b.css',
    ])
  })
})
