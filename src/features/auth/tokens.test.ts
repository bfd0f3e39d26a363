import { describe, expect, it } from 'vitest'
import { SignJWT, UnsecuredJWT, base64url } from 'jose'
import {
  deriveKeys,
  hashToken,
  isRefreshTokenShape,
  isWithinReuseGrace,
  needsRefresh,
  newRefreshToken,
  refreshTokenReader,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts'

/** An access token lives 15 minutes. */
const ACCESS_TOKEN_TTL_SECONDS = 15 * 60

const SECRET = 'unit-test-session-secret-0123456789abcdef'
const ISS = 'https://fr.bomtoon.example'
const now = new Date('2026-06-30T12:00:00Z')
const at = (s: number) => new Date(now.getTime() + s * 1000)

describe('access token (ASVS 9.1–9.2)', async () => {
  const keys = await deriveKeys(SECRET)

  it('is an HS256 at+jwt for 15 minutes with iss/aud = siteUrl', async () => {
    const token = await signAccessToken(keys, 42, ISS, now)
    const [header, payload] = token.value
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(new TextDecoder().decode(base64url.decode(p))))
    expect(header).toEqual({ alg: 'HS256', typ: 'at+jwt' })
    expect(payload).toMatchObject({ iss: ISS, aud: ISS, sub: '42' })
    expect(payload.exp - payload.iat).toBe(ACCESS_TOKEN_TTL_SECONDS)
    expect(token.expiredAt).toBe(at(ACCESS_TOKEN_TTL_SECONDS).toISOString())
    expect(await verifyAccessToken(keys, token.value, ISS, at(60))).toMatchObject({ ok: true, userId: 42 })
  })

  it('carries the session version it was issued at (claim sv; absent counts as 0, not a number is refused)', async () => {
    expect(await verifyAccessToken(keys, (await signAccessToken(keys, 42, ISS, now, 3)).value, ISS, at(60))).toMatchObject({
      ok: true,
      sessionVersion: 3,
    })
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setIssuer(ISS)
        .setAudience(ISS)
        .setSubject('42')
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(at(900))
        .sign(keys.access)
    expect(await verifyAccessToken(keys, await sign({}), ISS, at(60))).toMatchObject({ ok: true, sessionVersion: 0 })
    expect(await verifyAccessToken(keys, await sign({ sv: '3' }), ISS, at(60))).toEqual({ ok: false, reason: 'invalid' })
  })

  it('names its session (claim sid; absent is the empty id of no session, not a string is refused)', async () => {
    expect(await verifyAccessToken(keys, (await signAccessToken(keys, 42, ISS, now, 0, 'family-1')).value, ISS, at(60))).toMatchObject({
      ok: true,
      sessionId: 'family-1',
    })
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setIssuer(ISS)
        .setAudience(ISS)
        .setSubject('42')
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(at(900))
        .sign(keys.access)
    expect(await verifyAccessToken(keys, await sign({}), ISS, at(60))).toMatchObject({ ok: true, sessionId: '' })
    expect(await verifyAccessToken(keys, await sign({ sid: 7 }), ISS, at(60))).toEqual({ ok: false, reason: 'invalid' })
  })

  it('is expired after 15 minutes and not valid before nbf, also once it was found good', async () => {
    const token = await signAccessToken(keys, 42, ISS, now)
    expect(await verifyAccessToken(keys, token.value, ISS, at(ACCESS_TOKEN_TTL_SECONDS - 1))).toMatchObject({ ok: true })
    expect(await verifyAccessToken(keys, token.value, ISS, at(ACCESS_TOKEN_TTL_SECONDS + 1))).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyAccessToken(keys, token.value, ISS, at(-120))).toEqual({ ok: false, reason: 'invalid' })
  })

  it('refuses alg=none, another key, another edition and another typ', async () => {
    const none = new UnsecuredJWT({ sub: '42' })
      .setIssuer(ISS)
      .setAudience(ISS)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(at(900))
      .encode()
    expect((await verifyAccessToken(keys, none, ISS, now)).ok).toBe(false)
    // found good under its own key and edition first: not taken as good under another
    const otherKeys = await deriveKeys('another-secret-of-enough-length-0123456')
    const other = await signAccessToken(otherKeys, 42, ISS, now)
    expect((await verifyAccessToken(otherKeys, other.value, ISS, now)).ok).toBe(true)
    expect((await verifyAccessToken(keys, other.value, ISS, now)).ok).toBe(false)
    const mine = await signAccessToken(keys, 42, ISS, now)
    expect((await verifyAccessToken(keys, mine.value, ISS, now)).ok).toBe(true)
    expect((await verifyAccessToken(keys, mine.value, 'https://jp.bomtoon.example', now)).ok).toBe(false)
    const idToken = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISS)
      .setAudience(ISS)
      .setSubject('42')
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(at(900))
      .sign(keys.access)
    expect((await verifyAccessToken(keys, idToken, ISS, now)).ok).toBe(false)
    const hs512 = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS512', typ: 'at+jwt' })
      .setIssuer(ISS)
      .setAudience(ISS)
      .setSubject('42')
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(at(900))
      .sign(new Uint8Array(64).fill(1))
    expect((await verifyAccessToken(keys, hs512, ISS, now)).ok).toBe(false)
    for (const junk of ['', 'a.b.c', 'x'.repeat(5000)]) expect((await verifyAccessToken(keys, junk, ISS, now)).ok).toBe(false)
  })

  it('signs with a key that is not the cookie key', () => {
    expect(Buffer.from(keys.access).equals(Buffer.from(keys.cookie))).toBe(false)
    expect(Buffer.from(keys.csrf).equals(Buffer.from(keys.cookie))).toBe(false)
    expect(Buffer.from(keys.csrf).equals(Buffer.from(keys.access))).toBe(false)
  })
})

describe('spec §4 refresh window', () => {
  it('refreshes at 5 minutes or less, not before', () => {
    expect(needsRefresh(at(301), now)).toBe(false)
    expect(needsRefresh(at(300), now)).toBe(true)
    expect(needsRefresh(at(-1), now)).toBe(true)
  })
})

describe('refresh token', () => {
  it('is the reader id and 256 random bits, 30 days, stored only as its SHA-256', async () => {
    const a = newRefreshToken(7, now)
    const b = newRefreshToken(7, now)
    expect(a.value).not.toBe(b.value)
    expect(a.value).toMatch(/^7\.[A-Za-z0-9_-]{43}$/)
    expect(isRefreshTokenShape(a.value)).toBe(true)
    expect(refreshTokenReader(a.value)).toBe(7)
    // a token issued before tokens named their reader keeps its shape, naming no one
    const old = a.value.slice(2)
    expect(isRefreshTokenShape(old)).toBe(true)
    expect(refreshTokenReader(old)).toBeNull()
    for (const bad of ['0.' + old, '-1.' + old, '1.' + old + 'x', '1e3.' + old, '1234567890123456.' + old, old.slice(1)])
      expect([bad, isRefreshTokenShape(bad), refreshTokenReader(bad)]).toEqual([bad, false, null])
    expect(a.expiredAt).toBe(at(30 * 86400).toISOString())
    const h = await hashToken(a.value)
    expect(h).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(h).not.toContain(a.value)
    expect(await hashToken(a.value)).toBe(h)
  })

  it('reuse within 30 s of its rotation is a concurrent tab (grace), later reuse a replay', () => {
    expect(isWithinReuseGrace(now, now)).toBe(true)
    expect(isWithinReuseGrace(at(-29.999), now)).toBe(true)
    expect(isWithinReuseGrace(at(-30), now)).toBe(false)
    expect(isWithinReuseGrace(at(-3600), now)).toBe(false)
    // a rotation time in the future (clock skew, forged row) never buys grace
    expect(isWithinReuseGrace(at(5), now)).toBe(false)
  })
})
