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

/** The calendar day `timeZone` shows at `at`, as YYYY-MM-DD. */
export function localDay(at: Date | number, timeZone: string): string {
  const { year, month, day } = wallClock(at, timeZone)
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}
