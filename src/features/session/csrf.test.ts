import { describe, expect, it } from 'vitest'
import { deriveKeys } from '../auth/tokens.ts'
import { csrfFromCookie, csrfMatches, newCsrf } from './csrf.ts'

describe('session service CSRF double-submit (ASVS 3.5)', async () => {
  const { csrf: key } = await deriveKeys('csrf-test-session-secret-0123456789abcdef')
  const { csrf: otherKey } = await deriveKeys('another-csrf-secret-0123456789abcdefghij')

  it('accepts the token of its own cookie only', async () => {
    const { token, cookie } = await newCsrf(key)
    expect(await csrfFromCookie(key, cookie)).toBe(token)
    expect(await csrfMatches(key, cookie, token)).toBe(true)
    const other = await newCsrf(key)
    expect(await csrfMatches(key, cookie, other.token)).toBe(false)
    expect(await csrfMatches(key, cookie, undefined)).toBe(false)
    expect(await csrfMatches(key, cookie, [token])).toBe(false)
  })

  it('refuses a planted cookie (no MAC, wrong MAC, another key) even when the field matches it', async () => {
    const { token, cookie } = await newCsrf(key)
    expect(await csrfMatches(key, `${token}|`, token)).toBe(false)
    expect(await csrfMatches(key, `${token}|${'A'.repeat(43)}`, token)).toBe(false)
    expect(await csrfMatches(otherKey, cookie, token)).toBe(false)
    expect(await csrfMatches(key, `${cookie}|x`, token)).toBe(false)
    expect(await csrfMatches(key, undefined, token)).toBe(false)
  })
})
