/**
 * Reading rules the viewer island needs in the browser (kept apart from viewer.ts so the island does not
 * bundle zod): how far ahead slices load and where the reader is in an episode.
 */

/** Spec §9 lazy load starts 200 px before the viewport at least; the viewer loads three screens ahead. */
export const LOAD_AHEAD_ROOT_MARGIN = '300% 0px'

/** The client saves at most this often while scrolling (and once more when the page is hidden). */
export const PROGRESS_THROTTLE_MS = 3000

/** Position in the episode from the scroll state: 0 at the top of the content, 1 once its end is on screen. */
export function scrollPosition(scrollY: number, contentTop: number, contentHeight: number, viewportHeight: number): number {
  const span = contentHeight - viewportHeight
  if (!(span > 0)) return 1
  return Math.min(1, Math.max(0, Math.round(((scrollY - contentTop) / span) * 1000) / 1000))
}

/** The scroll offset that shows `position` again (the inverse of `scrollPosition`). */
export function scrollOffset(position: number, contentTop: number, contentHeight: number, viewportHeight: number): number {
  return Math.max(0, contentTop + Math.max(0, contentHeight - viewportHeight) * position)
}

