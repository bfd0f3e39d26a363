import { describe, it, expect } from 'vitest'
import { argon2idAsync } from '@noble/hashes/argon2.js'
import { checkPassword, hashPassword, verifyPassword, timingSafeEqual } from './password.ts'
import { toB64url } from '../b64url.ts'

const pepper = 'test-pepper'
/** `hashPassword('Reader-2026!', 'test-pepper')` of the older scheme (PBKDF2-SHA256, 100,000 iterations). */
const LEGACY = 'pbkdf2-sha256$100000$zyJl1QaK9s5Rnj0cbc0ilw$wQuMomeiNbuTTD9_q-tIXIxzltRSZJyMrVU2yMpPEaE'

describe('password hashing (argon2id + pepper)', () => {
  it('stores the scheme, parameters (m 19 MiB, t 2, p 1), salt and hash', async () => {
    const stored = await hashPassword('Reader-2026!', pepper)
    expect(stored).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
  })

  it('verifies an older PBKDF2 hash and gives the argon2id hash that replaces it, for the right password only', async () => {
    const right = await checkPassword('Reader-2026!', LEGACY, pepper)
    expect(right.valid).toBe(true)
    expect(right.upgrade).toMatch(/^argon2id\$/)
    expect(await verifyPassword('Reader-2026!', right.upgrade, pepper)).toBe(true)
    expect(await checkPassword('Wrong-2026!', LEGACY, pepper)).toEqual({ valid: false, upgrade: null })
    expect(await checkPassword('Reader-2026!', right.upgrade, pepper)).toEqual({ valid: true, upgrade: null })
  })

  it('accepts the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('Reader-2026!', pepper)
    expect(await verifyPassword('Reader-2026!', stored, pepper)).toBe(true)
    expect(await verifyPassword('reader-2026!', stored, pepper)).toBe(false)
    expect(await verifyPassword('', stored, pepper)).toBe(false)
  })

  it('salts every hash: the same password hashes differently', async () => {
    const a = await hashPassword('same', pepper)
    const b = await hashPassword('same', pepper)
    expect(a).not.toBe(b)
    expect(await verifyPassword('same', a, pepper)).toBe(true)
    expect(await verifyPassword('same', b, pepper)).toBe(true)
  })

  it('depends on the pepper: a stolen table is useless without it', async () => {
    const stored = await hashPassword('Reader-2026!', pepper)
    expect(await verifyPassword('Reader-2026!', stored, 'other-pepper')).toBe(false)
  })

  it('answers false (never throws) for missing, malformed or foreign hashes', async () => {
    for (const stored of [
      null,
      undefined,
      '',
      'plain',
      'bcrypt$10$abc$def',
      'pbkdf2-sha256$100000$!!$??',
      'pbkdf2-sha256$999999$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'argon2id$v=19$m=999999,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'argon2id$v=19$m=19456,t=2,p=4$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      expect(await verifyPassword('x', stored, pepper)).toBe(false)
    }
  })

  it('detects a tampered hash', async () => {
    const stored = await hashPassword('Reader-2026!', pepper)
    // Change the first character of the hash: the last base64url character also carries ignored padding bits.
    const cut = stored.lastIndexOf('$') + 1
    const first = stored[cut] === 'A' ? 'B' : 'A'
    expect(await verifyPassword('Reader-2026!', stored.slice(0, cut) + first + stored.slice(cut + 1), pepper)).toBe(false)
  })

  it('replaces only older-scheme or weaker hashes at a right sign-in', async () => {
    const stored = await hashPassword('pw', pepper)
    expect(await checkPassword('pw', stored, pepper)).toEqual({ valid: true, upgrade: null })
    expect(await checkPassword('pw', 'garbage', pepper)).toEqual({ valid: false, upgrade: null })
    expect((await checkPassword('Reader-2026!', LEGACY, pepper)).upgrade).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1\$/)
    // an argon2id hash of 'pw' at weaker parameters (m 4 MiB), made from the keyed password the hasher is given
    let key: Uint8Array = new Uint8Array()
    await hashPassword('pw', pepper, { hash: async (k) => ((key = k), ''), check: async () => ({ valid: false, upgrade: null }) })
    const salt = new Uint8Array(16).fill(7)
    const weak = `argon2id$v=19$m=4096,t=2,p=1$${toB64url(salt)}$${toB64url(await argon2idAsync(key, salt, { m: 4096, t: 2, p: 1, dkLen: 32 }))}`
    const upgraded = await checkPassword('pw', weak, pepper)
    expect(upgraded.valid).toBe(true)
    expect(upgraded.upgrade).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await verifyPassword('pw', upgraded.upgrade, pepper)).toBe(true)
    expect(await checkPassword('other', weak, pepper)).toEqual({ valid: false, upgrade: null })
  })

  it('treats unicode passwords by their NFC form', async () => {
    const stored = await hashPassword('Caf\u00e9-2026', pepper)
    expect(await verifyPassword('Cafe\u0301-2026', stored, pepper)).toBe(true)
  })

  it('compares byte strings exactly', () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(timingSafeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false)
  })
})
