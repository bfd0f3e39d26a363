/** Catalogue rules without I/O (spec §2, §3, §9): weekdays, image widths, who sees what. */
import { audienceSees } from '../age/age.ts'
import { HOUR_MS, localDay, weekdayOf } from '../../lib/time.ts'
import { b64urlToText, textToB64url } from '../../lib/b64url.ts'

export const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** Spec §3 genres, as the CHECK of `series.genre` lists them; each has a label `genre.<GENRE>`. */
export const GENRES = ['ROMANCE', 'ACTION', 'DRAMA', 'FANTASY', 'COMEDY', 'BL', 'THRILLER', 'HORROR', 'SLICE_OF_LIFE'] as const
export type Genre = (typeof GENRES)[number]
/** Creator roles (spec §3), as the CHECK of `series_creators.role` lists them; each has a label `creator.<ROLE>`. */
export const CREATOR_ROLES = ['AUTHOR', 'WRITER', 'ARTIST', 'ORIGINAL', 'ADAPTER'] as const
export type CreatorRole = (typeof CREATOR_ROLES)[number]

/** Today's schedule group in the edition's time zone (the weekly tab opens on it). */
function weekdayIn(timeZone: string, now = new Date()): Weekday {
  return WEEKDAYS[weekdayOf(localDay(now, timeZone))]!
}

/** Spec §9 "weekly-home extra time 2": the weekly home's "today" rolls over 2 hours after midnight. */
const WEEKLY_EXTRA_HOURS = 2

/** The weekly home's "today": late-night readers (before 02:00) still get the evening's updates. */
export function homeToday(timeZone: string, now = new Date(), extraHours = WEEKLY_EXTRA_HOURS): Weekday {
  return weekdayIn(timeZone, new Date(now.getTime() - extraHours * HOUR_MS))
}

/** Widths stored in R2 and the spec §9 image loader (images.ts). */
export { COVER_WIDTHS, SLICE_WIDTHS, imageUrl, srcset } from './images.ts'
/**
 * A cover's link-card rendition (`og:image`, issue 14: at least 1200 px wide), stored beside COVER_WIDTHS by
 * the seed and the import but never offered in a srcset.
 */
export const CARD_IMAGE_WIDTH = 1200
/** Size of each edition's own card image (public/social/<edition>.png, drawn by scripts/social-images.ts). */
export const SITE_CARD_SIZE = { width: 1200, height: 630 } as const

/** Who may see adult and BL series (spec §5), from the request's audience class (age.ts). */
export type Audience = ReturnType<typeof audienceSees>

// ───────────────────────────── who sees what (spec §5) ─────────────────────────────

/** Spec §4/§5 (jp): the cookie a guest gets by answering "yes" to the age popup; "Y" shows adult series. */
export { NOT_LOGGED_IN_ADULT_COOKIE } from '../age/age.ts'

// ───────────────────────────── home tabs and the contents list (spec §3) ─────────────────────────────

/** The home tab a series' breadcrumb leads to: its genre's tab where there is one, else the ranking. */
export function homeTabOfGenre(genre: string | undefined): 'action' | 'romance' | 'bl' | 'ranking' {
  return genre === 'ACTION' ? 'action' : genre === 'ROMANCE' ? 'romance' : genre === 'BL' ? 'bl' : 'ranking'
}

/** Spec §3 home tabs served by `GET /api/v1/contents` (SCHEDULE takes a `day`). */
const HOME_TABS = ['SCHEDULE', 'RANKING', 'FREE', 'BL', 'NEWEST', 'MATURE', 'ACTION', 'ROMANCE', 'FREETIME'] as const
export type HomeTab = (typeof HOME_TABS)[number]
/** Schedule groups: the weekdays plus TEN (every ten days). */
export const SCHEDULE_DAYS = [...WEEKDAYS, 'TEN'] as const
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number]

/** Spec §3 also names SCHEDULE_ALL / WEEKLY and the weekdays themselves as tabs: accepted as aliases. */
const TAB_ALIASES: Record<string, { tab: HomeTab; day?: ScheduleDay }> = {
  SCHEDULE_ALL: { tab: 'SCHEDULE' },
  WEEKLY: { tab: 'SCHEDULE' },
  ...Object.fromEntries(SCHEDULE_DAYS.map((d) => [d, { tab: 'SCHEDULE' as HomeTab, day: d }])),
}

/** What a tab lists: the filter and the order, as data (the server turns it into SQL). */
export type TabFilter =
  | { kind: 'schedule'; day: ScheduleDay }
  | { kind: 'all' }
  | { kind: 'free' }
  | { kind: 'bl' }
  | { kind: 'adult' }
  | { kind: 'genre'; genre: 'ACTION' | 'ROMANCE' }
  | { kind: 'wuf' }
export type TabOrder = 'schedule' | 'rank' | 'newest'

const ORDER_OF: Record<HomeTab, TabOrder> = {
  SCHEDULE: 'schedule',
  RANKING: 'rank',
  FREE: 'rank',
  BL: 'rank',
  NEWEST: 'newest',
  MATURE: 'rank',
  ACTION: 'rank',
  ROMANCE: 'rank',
  FREETIME: 'rank',
}

/** Page size of every list: bounded (docs/QUALITY.md: every list paginated). */
const PAGE_SIZE = { default: 24, max: 50 } as const
/** Longest cursor accepted (a cursor is a few dozen characters). */
export const MAX_CURSOR_LENGTH = 200

/** A keyset cursor: the last item's order key and id. */
export type Cursor = { k: number | string; id: number }

/** A cursor is base64url of `[key, id]` (ASCII only: numbers and ISO dates). */
export function encodeCursor(c: Cursor): string {
  return textToB64url(JSON.stringify([c.k, c.id]))
}

/** Decodes a cursor for `order`; null when it is malformed (the caller answers INVALID_PARAMETER). */
export function decodeCursor(raw: string, order: TabOrder): Cursor | null {
  if (raw.length === 0 || raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) return null
  let value: unknown
  try {
    value = JSON.parse(b64urlToText(raw) ?? '')
  } catch {
    return null
  }
  if (!Array.isArray(value) || value.length !== 2) return null
  const [k, id] = value as [unknown, unknown]
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null
  if (order === 'newest') {
    if (typeof k !== 'string' || k.length > 40 || !/^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)?$/.test(k)) return null
  } else if (typeof k !== 'number' || !Number.isSafeInteger(k)) return null
  return { k, id }
}

/** Raw query of `GET /api/v1/contents` and the home tab pages. */
export type ContentsParams = { tab?: string | undefined; day?: string | undefined; cursor?: string | undefined; size?: string | undefined }

/** A validated list request. */
export type ContentsRequest = { tab: HomeTab; filter: TabFilter; order: TabOrder; cursor: Cursor | null; size: number }

/** The outcome of checking a list request: a request, or the catalogue code to answer with. */
export type Resolved =
  { ok: true; request: ContentsRequest } | { ok: false; code: 'INVALID_PARAMETER' | 'ADULT_ONLY_CONTENTS'; field?: string }

/**
 * Checks `tab`, `day`, `cursor` and `size` (spec §3 home tabs). SCHEDULE without a day opens on
 * `today`; a day on another tab, an unknown tab or day, a malformed cursor or size is INVALID_PARAMETER.
 * MATURE for an audience that may not see adult series is ADULT_ONLY_CONTENTS (the client opens the
 * age popup, spec §8), never a list.
 */
export function resolveContents(params: ContentsParams, audience: Audience, today: Weekday): Resolved {
  const rawTab = (params.tab ?? 'SCHEDULE').toUpperCase()
  const alias = TAB_ALIASES[rawTab]
  const tab = alias?.tab ?? ((HOME_TABS as readonly string[]).includes(rawTab) ? (rawTab as HomeTab) : null)
  if (!tab) return { ok: false, code: 'INVALID_PARAMETER', field: 'tab' }
  let day: ScheduleDay | undefined = alias?.day
  if (params.day !== undefined) {
    const d = params.day.toUpperCase()
    if (tab !== 'SCHEDULE' || !(SCHEDULE_DAYS as readonly string[]).includes(d) || (day && day !== d))
      return { ok: false, code: 'INVALID_PARAMETER', field: 'day' }
    day = d as ScheduleDay
  }
  let size: number = PAGE_SIZE.default
  if (params.size !== undefined) {
    if (!/^\d{1,3}$/.test(params.size) || Number(params.size) < 1 || Number(params.size) > PAGE_SIZE.max)
      return { ok: false, code: 'INVALID_PARAMETER', field: 'size' }
    size = Number(params.size)
  }
  const order = ORDER_OF[tab]
  let cursor: Cursor | null = null
  if (params.cursor !== undefined) {
    cursor = decodeCursor(params.cursor, order)
    if (!cursor) return { ok: false, code: 'INVALID_PARAMETER', field: 'cursor' }
  }
  if (tab === 'MATURE' && !audience.showAdult) return { ok: false, code: 'ADULT_ONLY_CONTENTS' }
  const filter = filterOf(tab, day ?? today)
  return { ok: true, request: { tab, filter, order, cursor, size } }
}

function filterOf(tab: HomeTab, day: ScheduleDay): TabFilter {
  switch (tab) {
    case 'SCHEDULE':
      return { kind: 'schedule', day }
    case 'RANKING':
    case 'NEWEST':
      return { kind: 'all' }
    case 'FREE':
      return { kind: 'free' }
    case 'BL':
      return { kind: 'bl' }
    case 'MATURE':
      return { kind: 'adult' }
    case 'ACTION':
      return { kind: 'genre', genre: 'ACTION' }
    case 'ROMANCE':
      return { kind: 'genre', genre: 'ROMANCE' }
    case 'FREETIME':
      return { kind: 'wuf' }
  }
}

/** Home tab pages (spec §2 /home/*) and the list tab each shows. `pick` shows themes instead. */
export const HOME_PAGES = ['weekly', 'free', 'ranking', 'bl', 'mature', 'romance', 'action', 'pick'] as const
export type HomePage = (typeof HOME_PAGES)[number]
export const PAGE_TAB: Record<Exclude<HomePage, 'pick'>, HomeTab> = {
  weekly: 'SCHEDULE',
  free: 'FREE',
  ranking: 'RANKING',
  bl: 'BL',
  mature: 'MATURE',
  romance: 'ROMANCE',
  action: 'ACTION',
}

export function isHomePage(x: string): x is HomePage {
  return (HOME_PAGES as readonly string[]).includes(x)
}

// ───────────────────────────── banners (spec §3 banner display, §9 auto-slide) ─────────────────────────────

/** Spec §3 banner display kinds. */
export const BANNER_DISPLAYS = ['ONLY_ICON', 'ONLY_TEXT', 'ICON_TEXT', 'TEXT_ICON'] as const
export type BannerDisplay = (typeof BANNER_DISPLAYS)[number]
/** Spec §9: banners slide every 5000 ms (paused by the reader, on hover/focus, and under reduced motion). */
export const BANNER_SLIDE_MS = 5000

/** What a banner shows and in which order: image only, text only, image then text, text then image. */
export function bannerLayout(display: BannerDisplay): { image: boolean; text: boolean; imageFirst: boolean } {
  switch (display) {
    case 'ONLY_ICON':
      return { image: true, text: false, imageFirst: true }
    case 'ONLY_TEXT':
      return { image: false, text: true, imageFirst: false }
    case 'ICON_TEXT':
      return { image: true, text: true, imageFirst: true }
    case 'TEXT_ICON':
      return { image: true, text: true, imageFirst: false }
  }
}

/** Stored widths of a banner picture: icons (≤ 256 CSS px) at 64/128/256, wide banners at 640/828/1080. */
const BANNER_WIDTHS = [640, 828, 1080] as const
const ICON_WIDTHS = [64, 128, 256] as const
export function bannerImageWidths(cssWidth: number): readonly number[] {
  return cssWidth <= 256 ? ICON_WIDTHS : BANNER_WIDTHS
}

/** A banner's link as an `href`: own-site paths (not `//host`) and http(s) URLs only; anything else is dropped. */
export function bannerHref(link: string): string | null {
  if (/^\/(?![/\\])/.test(link)) return link
  try {
    const u = new URL(link)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null
  } catch {
    return null
  }
}

// ───────────────────────────── ten-day list (spec §9 "ten-day list sizes 5, 15, 25") ─────────────────────────────

/** Spec §9: the TEN (every ten days) schedule list grows 5, then 15, then 25 per page. */
export const TEN_LIST_SIZES = [5, 15, 25] as const

/** Size of the TEN list's page after one of `size` items: 5 → 15 → 25, then 25 for every further page. */
export function nextTenSize(size: number): number {
  return TEN_LIST_SIZES.find((x) => x > size) ?? TEN_LIST_SIZES[TEN_LIST_SIZES.length - 1]
}

// ───────────────────────────── schedule on the detail page (spec §3 schedule groups) ─────────────────────────────

/** Schedule groups in week order (SUNDAY … SATURDAY, then TEN); unknown values are dropped. */
export function sortSchedule(days: readonly string[]): ScheduleDay[] {
  return SCHEDULE_DAYS.filter((d) => days.includes(d))
}

/**
 * The next day (YYYY-MM-DD, in the edition's time zone) the series' weekly schedule plans an episode: today when
 * today is one of its weekdays and today's episode is not out yet (`lastPublishedAt` is before today), else the
 * first scheduled weekday after today. Null without weekdays (TEN alone has no weekday).
 */
function nextScheduledDay(days: readonly ScheduleDay[], timeZone: string, now: Date, lastPublishedAt: string | null = null): string | null {
  const today = localDay(now, timeZone)
  const todayIndex = WEEKDAYS.indexOf(weekdayIn(timeZone, now))
  const outToday = lastPublishedAt !== null && localDay(new Date(lastPublishedAt), timeZone) >= today
  for (let k = outToday ? 1 : 0; k <= 7; k++) {
    if (days.includes(WEEKDAYS[(todayIndex + k) % 7]!))
      return new Date(Date.parse(`${today}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10)
  }
  return null
}

/**
 * What the detail page says about updates: the weekdays (or TEN), and the next update day (YYYY-MM-DD in the
 * edition's time zone): computed from the weekdays (`nextScheduledDay`), or for a TEN-only series the planned
 * date when it is still ahead. A completed or paused series shows no schedule.
 */
export function scheduleSummary(
  s: { status: string; schedule: readonly ScheduleDay[]; nextUpdateAt: string | null; lastPublishedAt?: string | null },
  timeZone: string,
  now: Date,
): { days: ScheduleDay[]; next: string | null } | null {
  if (s.status !== 'SCHEDULED') return null
  const planned = s.nextUpdateAt !== null && s.nextUpdateAt > now.toISOString() ? localDay(new Date(s.nextUpdateAt), timeZone) : null
  const next = nextScheduledDay(s.schedule, timeZone, now, s.lastPublishedAt ?? null) ?? planned
  if (s.schedule.length === 0 && next === null) return null
  return { days: [...s.schedule], next }
}
