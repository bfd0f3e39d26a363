import { describe, expect, it } from 'vitest'
import { chromeAfterScroll, swipeStep, tapZone } from './immersive.ts'

describe('immersive reading (issue 25 point 1)', () => {
  it('scrolling down hides the chrome, scrolling up shows it, small moves and the top of the page keep it', () => {
    expect(chromeAfterScroll(false, 400, 600)).toBe(true)
    expect(chromeAfterScroll(true, 600, 400)).toBe(false)
    expect(chromeAfterScroll(false, 400, 405)).toBe(false)
    expect(chromeAfterScroll(true, 400, 395)).toBe(true)
    expect(chromeAfterScroll(true, 300, 40)).toBe(false)
    expect(chromeAfterScroll(false, 0, 60)).toBe(false)
  })

  it('a tap on a page: outer thirds turn it, the middle toggles the chrome', () => {
    expect(tapZone(30, 390, 'ltr')).toBe('prev')
    expect(tapZone(360, 390, 'ltr')).toBe('next')
    expect(tapZone(195, 390, 'ltr')).toBe('chrome')
    expect(tapZone(0, 0, 'ltr')).toBe('chrome')
  })

  it('mirrored for a right-to-left series: the left third turns forward', () => {
    expect(tapZone(30, 390, 'rtl')).toBe('next')
    expect(tapZone(360, 390, 'rtl')).toBe('prev')
    expect(tapZone(195, 390, 'rtl')).toBe('chrome')
  })

  it('a horizontal swipe turns the page in the reading direction; a scroll or a short move does not', () => {
    expect(swipeStep(-120, 10, 'ltr')).toBe(1)
    expect(swipeStep(120, 10, 'ltr')).toBe(-1)
    expect(swipeStep(120, 10, 'rtl')).toBe(1)
    expect(swipeStep(-120, 10, 'rtl')).toBe(-1)
    expect(swipeStep(-30, 0, 'ltr')).toBe(0)
    expect(swipeStep(-80, 100, 'ltr')).toBe(0)
  })
})
