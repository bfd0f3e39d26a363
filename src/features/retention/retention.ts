/**
 * How long bookkeeping rows are kept (issue 24 point 3, docs/SCALE.md "Retention"). Pure data: one rule per table,
 * the column an age is counted from, how long after that instant a row stays, and why; the sweep that applies
 * them in bounded batches is retention.server.ts (run by the cron of functions/worker.ts). The money record — the
 * coin ledger, coin lots, purchases and paid payments — has no rule and is never deleted.
 */
import type { Tables } from '../../lib/server/db-types.ts'
import { DAY_MS } from '../../lib/time.ts'
import { TIMED_KINDS } from '../ownership/holding.ts'
import { ALARM_KEEP_MS } from '../alarm/alarm.ts'
import { SERIES_READERS_DAYS } from '../catalogue/tally.ts'
import { MAX_REPORT_DAYS } from '../../lib/metrics/metrics.ts'

export type RetentionRule = {
  [T in keyof Tables]: {
    table: T
    /** The instant a row's age is counted from (an ISO 8601 column; rows where it is null are kept). */
    since: keyof Tables[T] & string
    /** How long after `since` a row is kept; it is deleted once `since` ≤ now − keepMs. */
    keepMs: number
    /** Only rows whose `column` is one of `values`. */
    only?: { column: keyof Tables[T] & string; values: readonly string[] }
    /** Only rows where this column is null. */
    unset?: keyof Tables[T] & string
    /** The primary key's columns of a WITHOUT ROWID table (others are found by rowid). */
    key?: readonly (keyof Tables[T] & string)[]
    /** Rows of another table that reference a deleted row (a foreign key): deleted first, in the same batch. */
    dependents?: { table: keyof Tables; column: string; key: keyof Tables[T] & string }
    /** Why this age: what still reads the row until then. */
    why: string
  }
}[keyof Tables]

/** Payment states of a checkout that never took money (spec §3; CANCELLED: given up or expired at the provider). */
const UNPAID_STATES = ['UNPAID', 'CANCELLED'] as const

export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    table: 'refresh_tokens',
    since: 'expires_at',
    keepMs: 0,
    why:
      "Since issue 38 sessions live in readers' objects (which drop a token at its expiry themselves); the rows left here are " +
      "those no reader's object took (revoked, or of a reader who made no call) and wait for their expiry (30 days from their " +
      'issue, REFRESH_TOKEN_TTL_SECONDS), past which they could not be used anyway.',
  },
  {
    table: 'library_marks',
    since: 'cleared_at',
    key: ['user_id', 'series_id'],
    keepMs: 7 * DAY_MS,
    why:
      "A shared copy's row that is neither favourite nor hidden any more (issue 38) is kept so a late delivery of an older state " +
      'cannot bring the mark back (the version decides only while the row exists); a week covers the ' +
      "queue's 15 minutes of retries and an operator's replay of dead letters.",
  },
  {
    table: 'series_readers',
    since: 'read_on',
    key: ['series_id', 'user_id'],
    keepMs: SERIES_READERS_DAYS * DAY_MS,
    why:
      "An operator's notice to a series' readers (`npm run ops -- alarm send --series`) reaches those who read it in the last 30 days (the readers waiting for its next episode) " +
      "(the UTC day of their latest read) and its favourites whatever their age. Since issue 38 the series' tally keeps them " +
      '(catalogue/tally.server.ts) and nothing writes here: the rule empties the rows written before.',
  },
  {
    table: 'idempotency_keys',
    since: 'created_at',
    keepMs: DAY_MS,
    why: 'A retry with the same key within 24 h gets the first answer again (as Stripe keeps its keys); later the key is new.',
  },
  {
    table: 'ownerships',
    since: 'expires_at',
    keepMs: 0,
    only: { column: 'kind', values: TIMED_KINDS },
    why:
      'An ended rental or wait-until-free unlock opens nothing (every reader of ownerships skips it); the purchase stays in ' +
      'purchases and the coin ledger, which the history pages read.',
  },
  {
    table: 'rate_limits',
    since: 'reset_at',
    keepMs: 0,
    why: 'A bucket past its window counts as empty (countAttempt starts it again at 1), exactly as a missing row.',
  },
  {
    table: 'one_time_codes',
    since: 'expires_at',
    keepMs: 7 * DAY_MS,
    why:
      'Used or not, a code past its expiry opens nothing; it is kept 7 days more so a reader coming back still reads ' +
      '"expired, send a new one" (EXPIRED_OTP, ALREADY_USE_SMS) rather than "unknown code".',
  },
  {
    table: 'carrier_requests',
    since: 'expires_at',
    keepMs: 0,
    why:
      'A carrier result past its 10 minutes is refused (TIMEOUT) before this row is read; the row holds a name, phone and ' +
      'birth date, so it goes as soon as it protects nothing.',
  },
  {
    table: 'payments',
    since: 'created_at',
    keepMs: 30 * DAY_MS,
    only: { column: 'state', values: UNPAID_STATES },
    dependents: { table: 'payment_events', column: 'payment_id', key: 'id' },
    why:
      'A checkout never paid: a delayed method (SEPA debit, up to 14 business days) and the provider’s 3 days of webhook ' +
      'retries end well within 30 days. Its webhook event rows go with it. PAID and REFUNDED payments are never deleted.',
  },
  {
    table: 'payment_readers',
    since: 'created_at',
    keepMs: 180 * DAY_MS,
    unset: 'credited_at',
    why:
      "The shared index of a checkout never credited (issue 38: the payment itself is in the reader's object, which drops it " +
      'at 30 days): a webhook for it finds no payment past then. A paid one whose shared part was cut off would be finished ' +
      'by a replay within the provider’s 3 days of retries; 180 days outlasts the 120 days a card dispute can take, so even ' +
      'that one can still be found. A credited payment’s row stays: refunds and disputes find their reader through it.',
  },
  {
    table: 'alarms',
    since: 'created_at',
    keepMs: ALARM_KEEP_MS,
    why: 'The alarm centre shows a month of alarms (spec §9); an older one is deleted, read or not.',
  },
  {
    table: 'alarm_deliveries',
    since: 'created_at',
    keepMs: ALARM_KEEP_MS,
    key: ['user_id', 'dedup_key'],
    why: "A delivery record only keeps the cron from giving a reader an event's alarm twice; the alarm itself is gone after a month.",
  },
  {
    table: 'ops_alerts',
    since: 'last_at',
    keepMs: 30 * DAY_MS,
    key: ['kind', 'hour'],
    why: 'An hour of trouble is listed by `npm run ops -- alerts` for a month (MAX_ALERT_DAYS); its mail went out long before.',
  },
  {
    table: 'local_metrics',
    since: 'day',
    keepMs: MAX_REPORT_DAYS * DAY_MS,
    key: ['day', 'name', 'key'],
    why: "A local run's daily sums are read by `npm run ops -- report`, which looks back at most MAX_REPORT_DAYS days.",
  },
  {
    table: 'coupon_readers',
    since: 'received_at',
    keepMs: 365 * DAY_MS,
    key: ['coupon_id', 'user_id'],
    why:
      "Who used a coupon (`coupon report --id`) answers a reader's or a partner's question about a campaign for a year; " +
      'the counts on the coupon stay.',
  },
  {
    table: 'alarm_broadcasts',
    since: 'created_at',
    keepMs: ALARM_KEEP_MS,
    why: "An operator's notice fans out within minutes; it and its reason are kept as long as the alarms it wrote.",
  },
  {
    table: 'deliveries',
    since: 'created_at',
    keepMs: 30 * DAY_MS,
    why:
      'The delivery log (no body, code or link) answers "I never got the mail" for a month; the dedupe key only matters ' +
      'within one request.',
  },
]

/** The instant (ISO 8601) at or before which a row of `rule` is deleted. */
export function retentionCutoff(rule: Pick<RetentionRule, 'keepMs'>, now: Date): string {
  return new Date(now.getTime() - rule.keepMs).toISOString()
}

/** Rows one sweep statement deletes at most (one short write lock; D1 answers readers between batches). */
export const RETENTION_BATCH = 500
