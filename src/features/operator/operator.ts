/**
 * Operators and their audit trail (issue 39 point 5; docs/API.md "Operator API"): named operator tokens beside the
 * bootstrap OPS_TOKEN ("root"), and the requests of `GET /api/ops/audit` and `POST /api/ops/operators`. Pure: the
 * SQL is in operator.server.ts and audit.server.ts.
 */
import { z } from 'zod'
import { RowIdText } from '../../lib/ids.ts'
import { OpsListQuery, OpsReason } from '../../lib/ops.ts'

/** The operator of OPS_TOKEN, the edition's bootstrap token: never a row of `operators`, never revoked. */
export const ROOT_OPERATOR = 'root'

/** An operator's name: 2 to 32 of lower-case letters, digits, `-` and `_`, a letter first; never `root`. */
const OperatorName = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{1,31}$/)
  .refine((name) => name !== ROOT_OPERATOR)

/** `POST /api/ops/operators`: a new named token. */
export const OperatorAddRequest = z.object({ name: OperatorName, reason: OpsReason })
export type OperatorAddRequest = z.infer<typeof OperatorAddRequest>

export const OperatorParam = z.object({ name: OperatorName })

/** Prefix of a named operator token (`wto_` + 43 base64url characters: 256 random bits), told apart from OPS_TOKEN by it. */
const OPERATOR_TOKEN_PREFIX = 'wto_'

/** True when `token` has the shape of a named operator token (anything else is never looked up). */
export function isOperatorToken(token: string): boolean {
  return /^wto_[A-Za-z0-9_-]{43}$/.test(token)
}

/** A new named operator token from 32 random bytes. */
export function newOperatorToken(random: Uint8Array): string {
  const base64 = btoa(String.fromCharCode(...random))
  return OPERATOR_TOKEN_PREFIX + base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** What an audit row names as its target: `<kind>:<id>` (`notice:5`, `user:12`, `payment:pay_ab`, `operator:alice`). */
const AuditTargetText = z.string().regex(/^[a-z_]{1,20}:[A-Za-z0-9_.-]{1,80}$/)

/** Days an audit query looks back at most (a year and a day: one leap year). */
export const MAX_AUDIT_DAYS = 366

/**
 * `GET /api/ops/audit`: the entries of the last `days` days (default: every one), of one target or one operator,
 * newest first, `limit` a page after `cursor` (an entry id).
 */
export const AuditQuery = OpsListQuery.extend({
  days: RowIdText.refine((n) => n <= MAX_AUDIT_DAYS).optional(),
  target: AuditTargetText.optional(),
  operator: z.union([OperatorName, z.literal(ROOT_OPERATOR)]).optional(),
})
export type AuditQuery = z.infer<typeof AuditQuery>

/** One audit entry as `GET /api/ops/audit` answers it. */
export type AuditEntry = {
  id: number
  at: string
  operator: string
  action: string
  route: string
  target: string | null
  reason: string | null
  before: unknown
  after: unknown
  detail: unknown
  requestId: string | null
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/**
 * The top-level fields whose value differs between two snapshots (`before`, `after`): `[field, before, after]`, in
 * the after's order then the fields it lost. A snapshot that is not an object is compared as one value (`''`).
 */
export function changedFields(before: unknown, after: unknown): [string, unknown, unknown][] {
  const isRecord = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v)
  if (!isRecord(before) || !isRecord(after)) return JSON.stringify(before) === JSON.stringify(after) ? [] : [['', before, after]]
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])]
  return keys.flatMap((k) =>
    JSON.stringify(before[k]) === JSON.stringify(after[k]) ? [] : [[k, before[k], after[k]] as [string, unknown, unknown]],
  )
}
