/**
 * The one reading of a broken database constraint (docs/CONVENTIONS.md): D1 (SQLite) reports it only as text,
 * "CHECK constraint failed: …" or "UNIQUE constraint failed: table.column, …". Money batches rely on it (a guarded
 * statement refused by a CHECK means "changed meanwhile, nothing happened"), so it is read here and nowhere else.
 */
const BROKEN = /\b(CHECK|UNIQUE) constraint failed(?::\s*([^\n]*))?/

/**
 * Whether `e` is a broken constraint: of `kind` when given (else CHECK or UNIQUE), and on columns starting with `on`
 * when given (`'users.nickname_key'`, or a table: `'idempotency_keys.'`).
 */
export function isConstraint(e: unknown, kind?: 'CHECK' | 'UNIQUE', on?: string): boolean {
  const message = (e as { message?: unknown } | null | undefined)?.message
  const m = BROKEN.exec(typeof message === 'string' ? message : String(e))
  if (!m || (kind && m[1] !== kind)) return false
  return on === undefined || (m[2] ?? '').startsWith(on)
}
