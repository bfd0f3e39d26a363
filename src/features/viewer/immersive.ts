/**
 * Immersive reading as rules without I/O (spec §2 viewer; issue 25 point 1): when the chrome (the viewer's one
 * compact bar, ViewerBar.tsx, in place of the site header and bottom bar) hides and comes back, and what a
 * tap or a swipe on a PAPER page does. `use-chrome.ts` and the viewer's page handlers read the events and apply these.
 */
import type { ReadingDirection } from './reading.ts'

/** Scroll movement (CSS px) below which the chrome stays as it is (a trembling finger hides nothing). */
const SCROLL_SLOP = 12
/** Near the top of the page the chrome is always shown. */
const TOP_ZONE = 80

/** The chrome after a scroll from `fromY` to `toY`: down hides it, up shows it, small moves keep it. */
export function chromeAfterScroll(hidden: boolean, fromY: number, toY: number): boolean {
  if (toY <= TOP_ZONE) return false
  if (toY - fromY > SCROLL_SLOP) return true
  if (fromY - toY > SCROLL_SLOP) return false
  return hidden
}

/** What a tap on a PAPER page does: turn back, turn forward, or toggle the chrome. */
export type TapAction = 'prev' | 'next' | 'chrome'

/**
 * A tap at `x` on a page `width` wide (both from the page's left edge): the outer thirds turn pages — the
 * right third forward in a left-to-right series, the left third forward in a right-to-left one — and the
 * middle third toggles the chrome.
 */
export function tapZone(x: number, width: number, direction: ReadingDirection): TapAction {
  if (width <= 0) return 'chrome'
  const third = x / width < 1 / 3 ? 'left' : x / width > 2 / 3 ? 'right' : 'middle'
  if (third === 'middle') return 'chrome'
  const forward = direction === 'rtl' ? 'left' : 'right'
  return third === forward ? 'next' : 'prev'
}

/** Horizontal travel (CSS px) that makes a swipe. */
const SWIPE_MIN = 50

/**
 * The page step of a swipe that moved `dx`, `dy` (end minus start): mostly horizontal and long enough; in a
 * left-to-right series a swipe to the left turns forward (the next page comes from the right), mirrored in a
 * right-to-left one; 0 for anything else (a scroll, a tap).
 */
export function swipeStep(dx: number, dy: number, direction: ReadingDirection): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN || Math.abs(dx) < 2 * Math.abs(dy)) return 0
  const towardStart = dx < 0 // finger moved left
  return towardStart === (direction === 'ltr') ? 1 : -1
}
