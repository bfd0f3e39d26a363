/**
 * Password hashing away from the isolates that answer pages (issue 34 point 5; docs/ARCHITECTURE.md "Password
 * hashing"): a `Hasher` Durable Object hashes and checks keyed passwords (src/lib/server/password.ts `hashHere`), and
 * the worker asks one of `HASHERS` of them, chosen at random, per hash. Deployed, an object runs in an isolate of its
 * own, so ~0.3 s of argon2id holds no page request; each object hashes one at a time. It keeps nothing (its SQLite
 * store stays empty). Locally workerd runs it on the worker's one thread, where its slices give way to page requests
 * (src/lib/server/turns.ts).
 */
import { DurableObject, env } from 'cloudflare:workers'
import { hashHere, type PasswordCheck, type PasswordHasher } from '../../lib/server/password.ts'

/**
 * Objects hashing side by side for an edition: each hashes ~3 passwords a second (~0.3 s of CPU each), so 16 take ~50
 * a second, five times the edition's sign-in allowance before it slows them (`LIMIT_EDITION_ATTEMPT`, 600 a minute).
 */
const HASHERS = 16

export class Hasher extends DurableObject<Cloudflare.Env> {
  hash(key: Uint8Array): Promise<string> {
    return hashHere.hash(key)
  }

  check(key: Uint8Array, stored: string | null): Promise<PasswordCheck> {
    return hashHere.check(key, stored)
  }
}

/** One of the edition's hashers, at random (what `hashPassword`/`checkPassword` take). */
export function hasher(): PasswordHasher {
  return env.HASHER.getByName(`hasher-${Math.floor(Math.random() * HASHERS)}`)
}
