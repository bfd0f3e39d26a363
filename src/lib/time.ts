/** Time arithmetic in one place: durations in milliseconds and "a moment shifted by a duration" as ISO 8601. */
export const SECOND_MS = 1000
export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000

/** `from` shifted by `ms` (negative: earlier), as an ISO 8601 string. */
export function isoAfter(from: Date | string, ms: number): string {
  return new Date(new Date(from).getTime() + ms).toISOString()
}
