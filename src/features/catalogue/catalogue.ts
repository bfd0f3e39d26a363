/** Catalogue rules without I/O (spec §2, §3, §9): weekdays, image widths, who sees what. */

export const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const
export type Weekday = (typeof WEEKDAYS)[number]

/** Today's schedule group in the edition's time zone (the weekly tab opens on it). */
export function weekdayIn(timeZone: string, now = new Date()): Weekday {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(now).toUpperCase()
  return (WEEKDAYS as readonly string[]).includes(name) ? (name as Weekday) : 'SUNDAY'
}

/** Widths stored in R2 for covers and for episode slices (a subset of spec §9's loader widths). */
export const COVER_WIDTHS = [256, 384, 640] as const
export const SLICE_WIDTHS = [640, 828, 1080] as const

/** Spec §9 image loader: `url` + `w` → the stored object of the smallest stored width ≥ w. */
export function imageUrl(key: string, w: number, widths: readonly number[] = COVER_WIDTHS): string {
  const width = widths.find((x) => x >= w) ?? widths[widths.length - 1]
  return `/media/${key}/${width}.webp`
}

export function srcset(key: string, widths: readonly number[] = COVER_WIDTHS): string {
  return widths.map((w) => `/media/${key}/${w}.webp ${w}w`).join(', ')
}

/** Who may see adult and BL series (spec §5); guests see neither adult covers nor adult content. */
export type Audience = { showAdult: boolean; showBl: boolean }
export const GUEST: Audience = { showAdult: false, showBl: true }
