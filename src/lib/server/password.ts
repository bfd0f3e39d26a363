/**
 * Password hashing that runs unchanged in Node 22 and in workerd (issue 26 point 8): argon2id at OWASP's
 * minimum (m = 19 MiB, t = 2, p = 1) through @noble/hashes, pure JavaScript (workerd refuses to compile
 * WebAssembly at run time, so the WebAssembly implementations cannot run there). About 160–200 ms of CPU per
 * hash in workerd on the development machine: a Worker needs the paid plan's CPU limit, not the free 10 ms.
 *
 * Stored form: `argon2id$v=19$m=19456,t=2,p=1$<salt b64url>$<hash b64url>`. The older
 * `pbkdf2-sha256$<iterations>$<salt>$<hash>` (100,000 iterations, workerd's cap) is still verified and is
 * replaced by an argon2id hash at the reader's next successful sign-in (`checkPassword` gives it).
 * The password is first keyed with the pepper, HMAC-SHA256(pepper, NFC password), so a leaked table alone
 * cannot be attacked offline without the pepper (a Worker secret).
 *
 * Where a hash runs (issue 34 point 5): the caller passes a `PasswordHasher`. A deployed worker passes the `Hasher`
 * Durable Object (src/features/auth/hasher.server.ts), so ~0.3 s of hashing never holds the isolate answering pages;
 * scripts and tests hash here (`hashHere`). The pepper is applied before, by the caller's isolate: a hasher sees a
 * keyed password, never the password or the pepper. In one isolate, hashes run one at a time in slices that give way
 * to page requests (src/lib/server/turns.ts). Work factor and equal timing are the same on either side.
 */
import { argon2idAsync } from '@noble/hashes/argon2.js'
import { fromB64url, toB64url } from '../b64url.ts'
import { hashInTurn } from './turns.ts'

/** Today's argon2id parameters: memory in KiB, passes, lanes. */
const ARGON2 = { m: 19 * 1024, t: 2, p: 1 } as const
/** The older scheme's iterations (workerd refuses PBKDF2 above 100 000). */
const PBKDF2_ITERATIONS = 100_000
const SALT_BYTES = 16
const HASH_BYTES = 32
const PBKDF2_PREFIX = 'pbkdf2-sha256'
const ARGON2_PREFIX = 'argon2id'

const encoder = new TextEncoder()

type Argon2Params = { m: number; t: number; p: number }
type Parsed =
  | { scheme: 'argon2id'; params: Argon2Params; salt: Uint8Array; hash: Uint8Array }
  | { scheme: 'pbkdf2'; iterations: number; salt: Uint8Array; hash: Uint8Array }

/**
 * Longest stretch of hashing between two turns of the event loop where the clock moves while code runs (local
 * workerd, Node). Measured (`npm run bench`, fr, 200 sign-ins 20 at a time beside `GET /`, slices giving way to page
 * requests): 1 ms kept `GET /` at p50 20 / p99 59 ms against 27 / 63 ms with 4 ms slices (idle 17 / 29).
 */
const HASH_SLICE_MS = 1

/** Verdict on a password: `upgrade` is the argon2id hash to store instead, for a right password under an older scheme. */
export type PasswordCheck = { valid: boolean; upgrade: string | null }

/** Where keyed passwords are hashed and checked: here (`hashHere`) or in a `Hasher` object (same methods, over RPC). */
export type PasswordHasher = {
  hash(key: Uint8Array): Promise<string>
  check(key: Uint8Array, stored: string | null): Promise<PasswordCheck>
}

/** Hashes a password for storage (argon2id, today's parameters); a fresh random salt every time. */
export async function hashPassword(password: string, pepper: string, hasher: PasswordHasher = hashHere): Promise<string> {
  return hasher.hash(await peppered(password, pepper))
}

/**
 * Checks `password` against `stored` in constant time. `upgrade`: for a right password under an older scheme
 * or weaker parameters, the argon2id hash to store instead. Every path spends the same work — one argon2id at
 * today's parameters and one PBKDF2 — whether the hash is argon2id, PBKDF2, missing, malformed or of an unknown
 * scheme, so "unknown account" and "wrong password" take the same time (ASVS 6.3.8).
 */
export async function checkPassword(
  password: string,
  stored: string | null | undefined,
  pepper: string,
  hasher: PasswordHasher = hashHere,
): Promise<PasswordCheck> {
  return hasher.check(await peppered(password, pepper), stored ?? null)
}

/** `checkPassword` past the pepper: what a hasher runs. */
async function checkKey(key: Uint8Array, stored: string | null): Promise<PasswordCheck> {
  const parsed = stored ? parse(stored) : null
  if (parsed?.scheme === 'pbkdf2') {
    const valid = timingSafeEqual(await pbkdf2(key, parsed.salt, parsed.iterations), parsed.hash)
    const fresh = await argon2Hash(key)
    return { valid, upgrade: valid ? fresh : null }
  }
  await pbkdf2(key, DUMMY_SALT, PBKDF2_ITERATIONS)
  if (parsed?.scheme === 'argon2id') {
    const valid = timingSafeEqual(await argon2(key, parsed.salt, parsed.params), parsed.hash)
    return { valid, upgrade: valid && isWeaker(parsed.params) ? await argon2Hash(key) : null }
  }
  await argon2(key, DUMMY_SALT, ARGON2)
  return { valid: false, upgrade: null }
}

/** True when `password` matches `stored` (see `checkPassword`). */
export async function verifyPassword(
  password: string,
  stored: string | null | undefined,
  pepper: string,
  hasher: PasswordHasher = hashHere,
): Promise<boolean> {
  return (await checkPassword(password, stored, pepper, hasher)).valid
}

const DUMMY_SALT = new Uint8Array(SALT_BYTES)
const isWeaker = (p: Argon2Params) => p.m < ARGON2.m || p.t < ARGON2.t

/** Hashing in this isolate, one hash at a time (scripts, tests, and the `Hasher` object itself). */
export const hashHere: PasswordHasher = { hash: argon2Hash, check: checkKey }

async function argon2Hash(key: Uint8Array): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))
  const { m, t, p } = ARGON2
  return `${ARGON2_PREFIX}$v=19$m=${m},t=${t},p=${p}$${toB64url(salt)}$${toB64url(await argon2(key, salt, ARGON2))}`
}

function argon2(key: Uint8Array, salt: Uint8Array, { m, t, p }: Argon2Params): Promise<Uint8Array> {
  return hashInTurn(() => argon2idAsync(key, salt, { m, t, p, dkLen: HASH_BYTES, asyncTick: HASH_SLICE_MS }))
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$')
  if (parts[0] === ARGON2_PREFIX && parts.length === 5 && parts[1] === 'v=19') {
    const params = /^m=(\d{1,6}),t=(\d{1,2}),p=1$/.exec(parts[2]!)
    if (!params) return null
    const m = Number(params[1])
    const t = Number(params[2])
    // bounded, so a planted hash cannot make a sign-in allocate or compute without limit
    if (m < 8 || m > 64 * 1024 || t < 1 || t > 10) return null
    const salt = fromB64url(parts[3]!)
    const hash = fromB64url(parts[4]!)
    if (!salt || !hash || salt.length < 8 || hash.length !== HASH_BYTES) return null
    return { scheme: 'argon2id', params: { m, t, p: 1 }, salt, hash }
  }
  if (parts[0] === PBKDF2_PREFIX && parts.length === 4) {
    const iterations = Number(parts[1])
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return null
    const salt = fromB64url(parts[2]!)
    const hash = fromB64url(parts[3]!)
    if (!salt || !hash || salt.length < 8 || hash.length !== HASH_BYTES) return null
    return { scheme: 'pbkdf2', iterations, salt, hash }
  }
  return null
}

async function peppered(password: string, pepper: string): Promise<Uint8Array> {
  const pepperKey = await crypto.subtle.importKey('raw', encoder.encode(pepper), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', pepperKey, encoder.encode(password.normalize('NFC'))))
}

/** PBKDF2 is one native call (~15 ms): in turn with the argon2id hashes, as one slice. */
function pbkdf2(key: Uint8Array, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  return hashInTurn(async () => {
    const baseKey = await crypto.subtle.importKey('raw', key as BufferSource, 'PBKDF2', false, ['deriveBits'])
    const bits = { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }
    return new Uint8Array(await crypto.subtle.deriveBits(bits, baseKey, HASH_BYTES * 8))
  })
}

/** Constant-time equality of two byte strings (length is not secret: both are 32 bytes). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}
