/**
 * Ranking rules without I/O (issue 5 "rankings computed from real reads and purchases"): the window of
 * activity counted and the weight of each signal.
 */
import { DAY_MS, isoAfter } from '../../lib/time.ts'

/** Activity older than this does not count: the ranking follows what people read now. */
const RANKING_WINDOW_DAYS = 30
/**
 * Activity in the window decides (a purchase counts twice a reader); the lifetime view counter only
 * orders series with the same activity. Packed in one integer so one indexed column orders every list.
 */
export const RANKING_WEIGHTS = { reader: 1, purchase: 2 } as const
/** Views beyond this only tie-break among themselves (keeps the packed score a safe integer). */
export const VIEWS_CAP = 999_999
export const ACTIVITY_UNIT = VIEWS_CAP + 1

/**
 * First UTC day of the counting window, `YYYY-MM-DD`: the window is the last 30 UTC days, today included (the
 * daily counters of migration 0015 series_daily; timestamps are stored as ISO 8601 UTC text, so a row's day is
 * its first 10 characters and `ts >= day` compares correctly).
 */
export function rankingFirstDay(now: Date, days = RANKING_WINDOW_DAYS): string {
  return isoAfter(now, -(days - 1) * DAY_MS).slice(0, 10)
}
