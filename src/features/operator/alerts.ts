/**
 * Alerts to the operator (issue 39 point 4; migration 0036): the kinds of trouble a deployed edition mails its operator
 * about, at most once per kind per UTC hour, and how many occurrences in an hour make one worth a mail.
 */
import { z } from 'zod'
import type { OpsAlertsRow } from '../../lib/server/db-types.ts'
import { RowIdText } from '../../lib/ids.ts'

export const ALERT_KINDS = {
  /** A payment provider's webhook refused (bad signature) or failed while it was applied. */
  webhook: { threshold: 1, says: 'a payment webhook was refused or failed' },
  /** A queue message failed its last retry: the queue hands it to its dead-letter queue. */
  'dead-letter': { threshold: 1, says: 'a queue message was dead-lettered after its last retry' },
  /** A sweep of the cron failed. */
  cron: { threshold: 1, says: 'a cron sweep failed' },
  /** Requests answered with a server error (5xx). */
  errors: { threshold: 20, says: 'requests were answered with a server error (5xx)' },
} as const satisfies Record<OpsAlertsRow['kind'], { threshold: number; says: string }>

export type AlertKind = keyof typeof ALERT_KINDS

/** The UTC hour an occurrence counts in (`2026-12-02T09`). */
export const alertHour = (at: Date) => at.toISOString().slice(0, 13)

/** Days `GET /api/ops/alerts` looks back at most (as long as the rows are kept). */
export const MAX_ALERT_DAYS = 30

/** Hours with trouble one answer of `GET /api/ops/alerts` lists at most (4 kinds a day over 30 days fit in 2,880). */
export const ALERTS_MAX = 200

/** `GET /api/ops/alerts?days=`: the hours with trouble of the last `days` days (default 7), newest first. */
export const AlertsQuery = z.object({ days: RowIdText.refine((n) => n <= MAX_ALERT_DAYS).default(7) })
export type AlertsQuery = z.infer<typeof AlertsQuery>

/** One hour of one kind of trouble, as `GET /api/ops/alerts` lists it. */
export type OpsAlert = {
  kind: AlertKind
  hour: string
  count: number
  firstDetail: string
  lastDetail: string
  lastAt: string
  mailedAt: string | null
}
