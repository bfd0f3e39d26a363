import { describe, expect, it } from 'vitest'
import { deriveKeys, newRefreshToken, signAccessToken } from '../auth/tokens.ts'
import { openSession, sealSession, sessionCookieOptions } from './cookie.ts'

describe('web session cookie (ASVS 3.3)', async () => {
  const keys = await deriveKeys('cookie-test-session-secret-0123456789abcd')
  const session = { accessToken: await signAccessToken(keys, 7, 'https://fr.bomtoon.example'), refreshToken: newRefreshToken(7) }

  it('round-trips the tokens and hides them', async () => {
    const sealed = await sealSession(keys, session)
    expect(sealed.split('.')).toHaveLength(5) // JWE compact
    expect(sealed).not.toContain(session.refreshToken.value)
    expect(await openSession(keys, sealed)).toEqual(session)
  })

  it('refuses a tampered, foreign or absent cookie', async () => {
    const sealed = await sealSession(keys, session)
    const parts = sealed.split('.')
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA')
    expect(await openSession(keys, parts.join('.'))).toBeNull()
    expect(await openSession(await deriveKeys('another-cookie-secret-0123456789abcdefg'), sealed)).toBeNull()
    expect(await openSession(keys, undefined)).toBeNull()
    expect(await openSession(keys, 'garbage')).toBeNull()
  })

  it('is HttpOnly, SameSite=Lax, Path=/ and Secure on https only', () => {
    expect(sessionCookieOptions('https://fr.example/x')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', secure: true })
    expect(sessionCookieOptions('http://localhost:8787/x').secure).toBe(false)
  })
})
