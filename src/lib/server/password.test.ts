import { describe, it, expect } from 'vitest'
import { hashPassword, verifyPassword, needsRehash, timingSafeEqual, PBKDF2_ITERATIONS } from './password.ts'

const pepper = 'test-pepper'

describe('password hashing (PBKDF2-SHA256 + pepper)', () => {
  it('stores the scheme, iterations, salt and hash', async () => {
    const stored = await hashPassword('Reader-2026!', pepper)
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    expect(PBKDF2_ITERATIONS).toBe(100_000)
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
    for (const stored of [null, undefined, '', 'plain', 'bcrypt$10$abc$def', 'pbkdf2-sha256$100000$!!$??', 'pbkdf2-sha256$999999$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
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

  it('flags only foreign or weaker hashes for rehash', async () => {
    const stored = await hashPassword('pw', pepper)
    expect(needsRehash(stored)).toBe(false)
    expect(needsRehash('garbage')).toBe(true)
    expect(needsRehash(stored.replace('$100000$', '$1000$'))).toBe(true)
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
