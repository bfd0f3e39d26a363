/** Time arithmetic in one place: durations in milliseconds and "a moment shifted by a duration" as ISO 8601. */
export const SECOND_MS = 1000
export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000

/** `from` shifted by `ms` (negative: earlier), as an ISO 8601 string. */
export function isoAfter(from: Date | string, ms: number): string {
  return new Date(new Date(from).getTime() + ms).toISOString()
}

/** The wall clock of a time zone at one instant: month 1–12, hour 0–23. */
export type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number }

const wallClocks = new Map<string, Intl.DateTimeFormat>()

/** What the clocks of `timeZone` (IANA) show at `at`. */
export function wallClock(at: Date | number, timeZone: string): WallClock {
  let f = wallClocks.get(timeZone)
  if (!f) {
    const n = 'numeric'
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: n, month: n, day: n, hour: n, minute: n, second: n })
    wallClocks.set(timeZone, f)
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, Number(x.value)]))
  return { year: p.year!, month: p.month!, day: p.day!, hour: p.hour!, minute: p.minute!, second: p.second! }
}

/** Days found, by zone and minute (a bound: cleared past 1,000; written here, not lib/bounded-map.ts: this module ships to
 * browsers, where that module would be a request more on the rent-or-buy page, past its byte budget). */
const days = new Map<string, string>()

/**
 * The calendar day `timeZone` shows at `at`, as YYYY-MM-DD. Kept by the minute: a zone's day begins on a whole minute,
 * so every instant of a minute has the same day (a formatter's answer costs about 70 µs in workerd: a rendered series
 * page asks for a few).
 */
export function localDay(at: Date | number, timeZone: string): string {
  const key = `${timeZone} ${Math.floor(Number(at) / MINUTE_MS)}`
  let found = days.get(key)
  if (found === undefined) {
    const { year, month, day } = wallClock(at, timeZone)
    found = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
    if (days.size >= 1000) days.clear()
    days.set(key, found)
  }
  return found
}

/** The weekday (0: Sunday) of calendar day `day` (YYYY-MM-DD). */
export const weekdayOf = (day: string): number => new Date(`${day}T00:00:00Z`).getUTCDay()

/** The instant at which the clocks of `timeZone` show midnight starting day `day` of `month` (1–12) of `year`. */
function localMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day)
  const offsetAt = (at: number) => {
    const w = wallClock(at, timeZone)
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(at / 1000) * 1000
  }
  // the zone's offset at the guess, then again at the instant found (a change of offset in between: summer time)
  const first = wall - offsetAt(wall)
  return new Date(wall - offsetAt(first))
}

/** The month last found per zone: every instant between its bounds is in it (five formatter calls saved; a sale asks). */
const months = new Map<string, { start: Date; next: Date }>()

/** The calendar month `timeZone` shows at `at`: the instants its first day and the next month's first day begin. */
export function localMonth(at: Date | number, timeZone: string): { start: Date; next: Date } {
  const t = +at
  const known = months.get(timeZone)
  if (known && +known.start <= t && t < +known.next) return known
  const { year, month } = wallClock(at, timeZone)
  const found = {
    start: localMidnight(year, month, 1, timeZone),
    next: month === 12 ? localMidnight(year + 1, 1, 1, timeZone) : localMidnight(year, month + 1, 1, timeZone),
  }
  months.set(timeZone, found)
  return found
}
