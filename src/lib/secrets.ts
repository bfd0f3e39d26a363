/** Random tokens and their comparison, for every secret the site hands out or checks. */
import { toB64url } from './b64url.ts'

const encoder = new TextEncoder()

/** Random base64url string of `bytes` random bytes (ids, families, tokens). */
export function randomToken(bytes: number): string {
  return toB64url(crypto.getRandomValues(new Uint8Array(bytes)))
}

/** Constant-time comparison of two strings (length leaks only that they differ, as for any HMAC hex). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  let diff = x.length ^ y.length
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}
