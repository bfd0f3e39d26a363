/**
 * Idempotency keys without I/O (docs/API.md: writes that move coins or ownership take an `Idempotency-Key`
 * header, 1–255 chars; same key + same body → the first response again; same key + other body → 409
 * IDEMPOTENCY_KEY_REUSED). docs/CONVENTIONS.md "Money": the outcome of a lookup is data, not an exception.
 */

/** docs/API.md: 1–255 characters. Visible ASCII only, so the key survives every proxy and log unchanged. */
const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/

/** True when `key` is a usable Idempotency-Key header value. */
export function isIdempotencyKey(key: string | undefined | null): key is string {
  return typeof key === 'string' && IDEMPOTENCY_KEY.test(key)
}

/**
 * A JSON document written with its object keys sorted, so the same body hashes the same however the client
 * ordered or spaced it. Text that is not JSON is taken as it is.
 */
function canonicalBody(text: string): string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text
  }
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/** SHA-256 (hex) of the route and the canonical body: what "same body" means for a key. */
export async function requestHash(scope: string, body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${scope}\n${canonicalBody(body)}`))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** A request's claim on a key: the row a successful write stores together with its money batch. */
export type IdempotencyClaim = { userId: number; key: string; scope: string; requestHash: string }

/** The stored first answer. */
export type StoredResponse = { status: number; body: string }

/** docs/CONVENTIONS.md "Money": `created` (key unused), `exists` (replay), `exists_with_different_body` (409). */
export type IdempotencyOutcome = { kind: 'created' } | { kind: 'exists'; response: StoredResponse } | { kind: 'exists_with_different_body' }

/** The outcome of a claim against the row already stored under its key (or none). */
export function idempotencyOutcome(
  claim: IdempotencyClaim,
  row: { scope: string; requestHash: string; status: number; body: string } | null,
): IdempotencyOutcome {
  if (!row) return { kind: 'created' }
  if (row.scope !== claim.scope || row.requestHash !== claim.requestHash) return { kind: 'exists_with_different_body' }
  return { kind: 'exists', response: { status: row.status, body: row.body } }
}
