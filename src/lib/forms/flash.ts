/**
 * The flash of a refused plain form (docs/API.md "Plain forms"): what the reader typed that is safe to show again
 * (never a password or a code), the field the refusal concerns and the number its message quotes, kept for one
 * minute in an httpOnly cookie scoped to the form's page, read once by that page. The redirect keeps only
 * `?error=CODE`, so no e-mail or nickname lands in a URL (and the logs). Pure: no I/O.
 */
import { z } from 'zod'

export const FLASH_COOKIE = 'form-flash'
export const FLASH_SECONDS = 60
/** A kept value is cut to this length (an e-mail is at most 254). */
const VALUE_MAX = 254

export const Flash = z.object({
  /** The catalogue code the flash belongs to: shown only with the same `?error=`. */
  code: z.string().max(64),
  /** The field the refusal concerns (its `name`), if any. */
  field: z.string().max(64).optional(),
  /** The kept fields by name; a ticked checkbox as its value ("on"). */
  values: z.record(z.string().max(64), z.string().max(VALUE_MAX)),
  /** Attempts left on a code after a wrong one. */
  attemptsLeft: z.number().int().min(0).max(99).optional(),
  /** The long values (a question's text) kept server-side for the same minute (draft.server.ts), by this random id. */
  draft: z.uuid().optional(),
})
export type Flash = z.infer<typeof Flash>

/** The flash a page may show: the cookie's, if it parses and belongs to the page's `?error=` code. */
export function readFlash(cookie: string | undefined, code: string | null): Flash | null {
  if (!cookie || !code) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(cookie)
  } catch {
    return null
  }
  const flash = Flash.safeParse(parsed)
  return flash.success && flash.data.code === code ? flash.data : null
}

/** The field a refusal concerns: the thrower's `details.field`, else the form's own map, else the first invalid field. */
function fieldOf(code: string, details: Record<string, unknown> | undefined, fields: Record<string, string> = {}): string | undefined {
  if (typeof details?.field === 'string') return details.field
  if (fields[code]) return fields[code]
  return typeof details?.fields === 'string' && details.fields !== '' ? details.fields.split(',')[0] : undefined
}

/** The flash of a refusal: only the `keep` fields (passwords and codes are never listed), each as posted. */
export function flashOf(
  code: string,
  raw: Record<string, unknown>,
  keep: readonly string[],
  details: Record<string, unknown> | undefined,
  fields?: Record<string, string>,
): Flash {
  const values: Record<string, string> = {}
  for (const name of keep) if (typeof raw[name] === 'string') values[name] = raw[name].slice(0, VALUE_MAX)
  const left = details?.attemptsLeft
  return { code, field: fieldOf(code, details, fields), values, ...(typeof left === 'number' ? { attemptsLeft: left } : {}) }
}
