/**
 * A database row id, parsed one way everywhere (docs/CONVENTIONS.md "Writing a route"): a positive integer JavaScript holds
 * exactly (≤ 2^53 − 1). `RowId` for JSON bodies, `RowIdText` for form fields, query strings and path segments (digits
 * only, no sign, exponent, space or leading zero), `parseId` for a path segment read by hand (null: one 404 for
 * malformed and unknown ids alike).
 */
import { z } from 'zod'

export const RowId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)

/** Also any other positive whole number a field or a query carries (a page size, a number of days, a cursor). */
export const RowIdText = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ])
  .pipe(RowId)

export function parseId(raw: string | undefined): number | null {
  const id = RowIdText.safeParse(raw)
  return id.success ? id.data : null
}
