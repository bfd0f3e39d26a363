/**
 * The SMS code's countdown (spec §2 "SMS code with countdown"), shared by the page and its script: no other import,
 * so the browser loads it without the account rules' schemas (issue 43 point 4).
 */
/** Seconds left until `expiresAt` (never negative): the SMS countdown (spec §2 "SMS code with countdown"). */
export function secondsLeft(expiresAt: string | Date, now: Date): number {
  return Math.max(0, Math.ceil((new Date(expiresAt).getTime() - now.getTime()) / 1000))
}

/** `m:ss` for a countdown. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
