/**
 * Reading rules the viewer island needs in the browser (kept apart from viewer.ts so the island does not
 * bundle zod): how far ahead slices load and where the reader is in an episode.
 */
import { POSITION_PARAM } from './place.ts'

/** Spec §9 lazy load starts 200 px before the viewport at least; the viewer loads three screens ahead. */
export const LOAD_AHEAD_ROOT_MARGIN = '300% 0px'
/** The slices' `sizes`: the strip is at most 720 px wide (the page's preload of the first slice uses it too). */
export const SLICE_SIZES = '(min-width: 721px) 720px, 100vw'

/**
 * While reading, the place is saved at most this often, and only when it moved (docs/API.md "Reading
 * progress"); reaching the end, moving on to the next episode and leaving the page save at once.
 */
export const PROGRESS_INTERVAL_MS = 30_000

/** A position closer than this to the last one sent for the same episode is not sent again. */
const PROGRESS_MIN_STEP = 0.005

/** Whether `position` is too close to the last one sent (`sent`, undefined: none yet) to be worth a save. */
export function progressUnchanged(sent: number | undefined, position: number): boolean {
  return Math.abs(position - (sent ?? -1)) < PROGRESS_MIN_STEP
}

/**
 * When to save the place `position` while reading: null when it has not moved since the last one sent (`sent`),
 * 0 (at once) when the end is reached, else the wait until PROGRESS_INTERVAL_MS have passed since the last save
 * (`lastAt`: its time, or the page's opening; `now` in the same clock).
 */
export function progressSaveDelay(sent: number | undefined, position: number, lastAt: number, now: number): number | null {
  if (progressUnchanged(sent, position)) return null
  if (position >= 1) return 0
  return Math.max(0, lastAt + PROGRESS_INTERVAL_MS - now)
}

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

// ───────────────────────────── reader settings (spec §2/§3 viewer modes) ─────────────────────────────

/** SCROLL: the vertical strip; PAPER: one page (or two side by side) at a time. */
type ViewerMode = 'SCROLL' | 'PAPER'
type FontFamily = 'sans' | 'serif'
export type ReadingDirection = 'ltr' | 'rtl'

/**
 * `transcript`: the slices' transcripts shown beside (or below) the images, where an episode has them.
 * `shortcuts`: the single-character keys (n, p, a, f, ?, + − 0, [ ]) act; a reader may switch them off (WCAG 2.1.4).
 */
export type ViewerSettings = {
  mode: ViewerMode
  double: boolean
  font: FontFamily
  fontSize: number
  transcript: boolean
  shortcuts: boolean
}

/** Text sizes (CSS px) offered for TEXT episodes; the default is the page's own 18 px. */
export const FONT_SIZES = [14, 16, 18, 20, 22, 24, 28] as const
export const DEFAULT_SETTINGS: ViewerSettings = {
  mode: 'SCROLL',
  double: false,
  font: 'sans',
  fontSize: 18,
  transcript: false,
  shortcuts: true,
}

/** localStorage key of the reader's settings, one per edition (editions may share an origin in development). */
export function settingsKey(editionId: string): string {
  return `viewer-settings:${editionId}`
}

/** Settings from stored JSON: each field kept when valid, the default otherwise (never throws). */
export function parseSettings(raw: string | null): ViewerSettings {
  let v: Record<string, unknown> = {}
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : null
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) v = parsed as Record<string, unknown>
  } catch {
    /* keep the defaults */
  }
  return {
    mode: v.mode === 'PAPER' || v.mode === 'SCROLL' ? v.mode : DEFAULT_SETTINGS.mode,
    double: typeof v.double === 'boolean' ? v.double : DEFAULT_SETTINGS.double,
    font: v.font === 'serif' || v.font === 'sans' ? v.font : DEFAULT_SETTINGS.font,
    fontSize: (FONT_SIZES as readonly unknown[]).includes(v.fontSize) ? (v.fontSize as number) : DEFAULT_SETTINGS.fontSize,
    transcript: typeof v.transcript === 'boolean' ? v.transcript : DEFAULT_SETTINGS.transcript,
    shortcuts: typeof v.shortcuts === 'boolean' ? v.shortcuts : DEFAULT_SETTINGS.shortcuts,
  }
}

/** Number of pages in PAPER mode: one slice each, or two side by side in double mode. */
function pageCount(slices: number, double: boolean): number {
  return Math.max(1, double ? Math.ceil(slices / 2) : slices)
}

/** Slice indexes (0-based) shown on page `page`. */
export function pageSlices(page: number, double: boolean, slices: number): number[] {
  if (slices === 0) return []
  if (!double) return [Math.min(Math.max(0, page), slices - 1)]
  const first = Math.min(Math.max(0, page), pageCount(slices, true) - 1) * 2
  return first + 1 < slices ? [first, first + 1] : [first]
}

/** The page that shows slice `slice` (used when switching single/double keeps the reader's place). */
export function pageOfSlice(slice: number, double: boolean): number {
  return double ? Math.floor(Math.max(0, slice) / 2) : Math.max(0, slice)
}

/**
 * Which way a key turns the page in PAPER mode: +1 forward, -1 back, 0 not a page key. Right-to-left series
 * (manga) go forward with ArrowLeft; PageDown, ArrowDown and space go forward whatever the direction.
 */
export function pageStep(key: string, shiftKey: boolean, direction: ReadingDirection): -1 | 0 | 1 {
  switch (key) {
    case 'ArrowRight':
      return direction === 'rtl' ? -1 : 1
    case 'ArrowLeft':
      return direction === 'rtl' ? 1 : -1
    case 'PageDown':
    case 'ArrowDown':
      return 1
    case 'PageUp':
    case 'ArrowUp':
      return -1
    case ' ':
      return shiftKey ? -1 : 1
    default:
      return 0
  }
}

/** The page after a step, kept within the episode (first page 0, last `pageCount - 1`). */
export function turnPage(page: number, step: number, slices: number, double: boolean): number {
  return Math.min(pageCount(slices, double) - 1, Math.max(0, page + step))
}

/** The page indicator's numbers ("3 / 12", or "3–4 / 12" for a double page): 1-based slice numbers. */
export function pageIndicator(page: number, double: boolean, slices: number): { current: string; total: number } {
  const shown = pageSlices(page, double, slices).map((i) => i + 1)
  return { current: shown.join('–'), total: slices }
}

/** The position (0..1) saved for a page, and the page that shows a saved position again. */
export function pagePosition(page: number, slices: number, double: boolean): number {
  const pages = pageCount(slices, double)
  return pages <= 1 ? 1 : Math.round((page / (pages - 1)) * 1000) / 1000
}
export function pageOfPosition(position: number, slices: number, double: boolean): number {
  const pages = pageCount(slices, double)
  return Math.min(pages - 1, Math.max(0, Math.round(position * (pages - 1))))
}

// ───────────────────────────── returning after login (spec §2 /callback/viewer-login-success) ─────────────────────────────

/** The page that finishes a login started in the viewer; it sends the reader back to `returnTo`. */
const VIEWER_LOGIN_SUCCESS = '/callback/viewer-login-success'

/**
 * The login link of the viewer: after logging in, /callback/viewer-login-success saves `position` as the
 * reader's progress and sends them back to episode `episodeId` (`callback` = the viewer path, `position` 0..1).
 */
export function viewerLoginHref(episodeId: number, position: number | null): string {
  const p = position === null ? 0 : Math.min(1, Math.max(0, Math.round(position * 1000) / 1000))
  const back = new URLSearchParams({ callback: `/viewer/${episodeId}` })
  if (p > 0) back.set('position', String(p))
  return `/user/login?callback=${encodeURIComponent(`${VIEWER_LOGIN_SUCCESS}?${back}`)}`
}

/** A position from the `p` query parameter, or null when absent or not a number in 0..1. */
export function positionParam(search: string): number | null {
  const raw = new URLSearchParams(search).get(POSITION_PARAM)
  if (raw === null || !/^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(raw)) return null
  return Number(raw)
}

// ───────────────────────────── settings cookie (PAPER without a flash) ─────────────────────────────

/** The cookie holding the reader's settings, so the server renders the chosen mode (cookie names allow no ':'). */
export function settingsCookieName(key: string): string {
  return key.replace(/[^A-Za-z0-9_-]/g, '_')
}

/**
 * Whether a request carries a reader's viewer settings: its viewer pages are then rendered for that reader
 * (PAPER without a flash), never taken from or put in a cache shared by guests.
 */
export function hasSettingsCookie(cookieHeader: string | undefined): boolean {
  return /(?:^|;\s*)viewer-settings_[A-Za-z0-9_-]*=/.test(cookieHeader ?? '')
}

/** `document.cookie` assignment that remembers the settings for a year on this site. */
export function settingsCookie(key: string, settings: ViewerSettings): string {
  return `${settingsCookieName(key)}=${encodeURIComponent(JSON.stringify(settings))}; Path=/; Max-Age=31536000; SameSite=Lax`
}

/** `document.cookie` assignment that forgets the settings (the settings page's "clear reading settings"). */
export function forgetSettingsCookie(key: string): string {
  return `${settingsCookieName(key)}=; Path=/; Max-Age=0; SameSite=Lax`
}

/** Settings from the cookie's raw value (URL-encoded JSON, or already decoded), or null when there is none. */
export function settingsFromCookie(raw: string | undefined): ViewerSettings | null {
  if (!raw) return null
  let text = raw
  try {
    text = decodeURIComponent(raw)
  } catch {
    /* already decoded */
  }
  return parseSettings(text)
}

// ───────────────────────────── zoom and auto-scroll (SCROLL mode) ─────────────────────────────

/** Zoom levels of the strip: 1 fits the width; + / − step through them. */
const ZOOM_STEPS = [1, 1.25, 1.5, 2, 2.5, 3] as const

/** The zoom level one step in or out from `zoom` (a pinch may leave it between steps). */
export function zoomStep(zoom: number, dir: 1 | -1): number {
  if (dir === 1) return ZOOM_STEPS.find((z) => z > zoom + 1e-9) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1]!
  return [...ZOOM_STEPS].reverse().find((z) => z < zoom - 1e-9) ?? ZOOM_STEPS[0]
}

/** Auto-scroll speeds (CSS px per second), slow to fast. */
export const AUTO_SCROLL_SPEEDS = [30, 60, 100, 150, 220, 320] as const
export const DEFAULT_AUTO_SCROLL_SPEED = 100

/** The largest zoom level (pinch and + stop there). */
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1]!

/** The zoom a pinch gives: the zoom at its start scaled by the fingers' distance, to 0.05, within 1..MAX_ZOOM. */
export function pinchZoom(startZoom: number, startDistance: number, distance: number): number {
  return Math.min(MAX_ZOOM, Math.max(1, Math.round(startZoom * (distance / startDistance) * 20) / 20))
}

/** The scroll offset that keeps the point at the middle of the screen (`middle`, page px) in place across a zoom. */
export function zoomAnchor(middle: number, from: number, to: number, viewportHeight: number): number {
  return Math.max(0, middle * (to / from) - viewportHeight / 2)
}

/**
 * One auto-scroll frame: the whole CSS px to scroll now at `speed` px/s after `elapsedMs`, and the fraction
 * carried to the next frame (so slow speeds still move).
 */
export function autoScrollStep(carry: number, speed: number, elapsedMs: number): { px: number; carry: number } {
  const total = carry + (speed * elapsedMs) / 1000
  const px = Math.floor(total)
  return px > 0 ? { px, carry: total - px } : { px: 0, carry: total }
}

/**
 * Auto-scroll for a reader who asks for reduced motion (issue 19 point 4, WCAG 2.3.3): no glide; the page jumps
 * at once by 80 % of the screen (a fifth stays in view to keep one's place), as often as the chosen speed would
 * have taken to scroll that far, so the reading pace is the same.
 */
export function reducedAutoScrollJump(viewportHeight: number, speed: number): { px: number; everyMs: number } {
  const px = Math.max(1, Math.round(viewportHeight * 0.8))
  return { px, everyMs: Math.round((px / Math.max(1, speed)) * 1000) }
}

/** Whether the page is scrolled to its end (auto-scroll stops there). */
export function atPageEnd(viewportHeight: number, scrollY: number, scrollHeight: number): boolean {
  return viewportHeight + scrollY >= scrollHeight - 1
}

/** Index of `speed` in AUTO_SCROLL_SPEEDS (the slider's value), 0 when it is not one of them. */
export function speedIndex(speed: number): number {
  return Math.max(0, AUTO_SCROLL_SPEEDS.indexOf(speed as (typeof AUTO_SCROLL_SPEEDS)[number]))
}

/** The auto-scroll speed one step slower (-1) or faster (1), kept within AUTO_SCROLL_SPEEDS. */
export function nextSpeed(speed: number, dir: 1 | -1): number {
  const i = AUTO_SCROLL_SPEEDS.indexOf(speed as (typeof AUTO_SCROLL_SPEEDS)[number])
  return AUTO_SCROLL_SPEEDS[Math.min(AUTO_SCROLL_SPEEDS.length - 1, Math.max(0, i + dir))]!
}

// ───────────────────────────── offline reading (public/sw.js) ─────────────────────────────

/**
 * What the service worker caches for an episode saved offline: every width of every slice (`srcset`
 * candidates), then the site's built assets the page loaded (`resources`: performance entry names), once each.
 */
export function offlineUrls(srcsets: readonly string[], resources: readonly string[], origin: string): string[] {
  const sliceUrls = srcsets.flatMap((srcset) => srcset.split(', ').map((c) => c.split(' ')[0]!))
  const assets = resources.filter((n) => n.startsWith(`${origin}/_astro/`))
  return [...sliceUrls, ...new Set(assets)]
}
