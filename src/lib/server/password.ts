/**
 * Password hashing that runs unchanged in Node 22 and in workerd, on WebCrypto alone
 * (ARCHITECTURE.md "Auth and sessions": PBKDF2-SHA256 at workerd's maximum iterations plus a secret pepper).
 *
 * Stored form: `pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>`.
 * The password is first keyed with the pepper, HMAC-SHA256(pepper, password), so a leaked table alone
 * cannot be attacked offline without the pepper (a Worker secret).
 */

/** workerd refuses PBKDF2 above 100 000 iterations. */
export const PBKDF2_ITERATIONS = 100_000
const SALT_BYTES = 16
const HASH_BITS = 256
const PREFIX = 'pbkdf2-sha256'

const encoder = new TextEncoder()

/** Hashes a password for storage; a fresh random salt every time. */
export async function hashPassword(password: string, pepper: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))
  const hash = await derive(password, pepper, salt, PBKDF2_ITERATIONS)
  return `${PREFIX}$${PBKDF2_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`
}

/**
 * True when `password` matches `stored`. Compares in constant time. With `stored` null, malformed or
 * of an unknown scheme it still spends one full derivation and answers false, so "unknown account" and
 * "wrong password" take the same time (ASVS 6.3.8).
 */
export async function verifyPassword(password: string, stored: string | null | undefined, pepper: string): Promise<boolean> {
  const parsed = stored ? parse(stored) : null
  if (!parsed) {
    await derive(password, pepper, DUMMY_SALT, PBKDF2_ITERATIONS)
    return false
  }
  const actual = await derive(password, pepper, parsed.salt, parsed.iterations)
  return timingSafeEqual(actual, parsed.hash)
}

/** True when a stored hash uses fewer iterations than today's setting and should be re-hashed at login. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored)
  return !parsed || parsed.iterations < PBKDF2_ITERATIONS
}

const DUMMY_SALT = new Uint8Array(SALT_BYTES)

function parse(stored: string): { iterations: number; salt: Uint8Array; hash: Uint8Array } | null {
  const parts = stored.split('$')
  if (parts.length !== 4 || parts[0] !== PREFIX) return null
  const iterations = Number(parts[1])
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return null
  const salt = fromBase64Url(parts[2]!)
  const hash = fromBase64Url(parts[3]!)
  if (!salt || !hash || salt.length < 8 || hash.length !== HASH_BITS / 8) return null
  return { iterations, salt, hash }
}

async function derive(password: string, pepper: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const pepperKey = await crypto.subtle.importKey('raw', encoder.encode(pepper), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const peppered = await crypto.subtle.sign('HMAC', pepperKey, encoder.encode(password.normalize('NFC')))
  const baseKey = await crypto.subtle.importKey('raw', peppered, 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }, baseKey, HASH_BITS)
  return new Uint8Array(bits)
}

/** Constant-time equality of two byte strings (length is not secret: both are 32 bytes). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4))
    return Uint8Array.from(binary, (c) => c.charCodeAt(0))
  } catch {
    return null
  }
}
