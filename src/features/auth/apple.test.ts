import { describe, expect, it } from 'vitest'
import { SignJWT, createLocalJWKSet, errors, exportJWK, generateKeyPair } from 'jose'
import { decideMigrate, verifyAppleIdentityToken } from './apple.ts'

const ISSUER = 'https://appleid.apple.com'
const APP = 'com.example.beltoon'

describe('JP Apple migrate rules', () => {
  it('the web key decides first, then the app key, else a new account', () => {
    expect(decideMigrate({ webUserId: 7, appUserId: 9 })).toEqual({ kind: 'signin', userId: 7 })
    expect(decideMigrate({ webUserId: 7, appUserId: null })).toEqual({ kind: 'signin', userId: 7 })
    expect(decideMigrate({ webUserId: null, appUserId: 9 })).toEqual({ kind: 'migrate', userId: 9 })
    expect(decideMigrate({ webUserId: null, appUserId: null })).toEqual({ kind: 'create' })
  })

  it('an identity token gives its subject only when genuine, for the audience, unexpired', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256')
    const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] })
    const now = new Date('2026-11-22T12:00:00Z')
    const sign = (aud: string, exp: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setSubject('001234.abcd')
        .setIssuer(ISSUER)
        .setAudience(aud)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(privateKey)
    const inAnHour = Math.floor(now.getTime() / 1000) + 3600
    expect(await verifyAppleIdentityToken(await sign(APP, inAnHour), keys, { issuer: ISSUER, audience: APP, now })).toBe('001234.abcd')
    expect(await verifyAppleIdentityToken(await sign('com.example.web', inAnHour), keys, { issuer: ISSUER, audience: APP, now })).toBeNull()
    expect(
      await verifyAppleIdentityToken(await sign(APP, inAnHour), keys, { issuer: 'https://evil.example', audience: APP, now }),
    ).toBeNull()
    expect(
      await verifyAppleIdentityToken(await sign(APP, inAnHour), keys, {
        issuer: ISSUER,
        audience: APP,
        now: new Date(now.getTime() + 2 * 3600_000),
      }),
    ).toBeNull()
    expect(await verifyAppleIdentityToken('not.a.jwt', keys, { issuer: ISSUER, audience: APP, now })).toBeNull()
  })

  it('a key set out of reach is the provider failing, not a refused token', async () => {
    const { privateKey } = await generateKeyPair('ES256')
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('s')
      .setIssuer(ISSUER)
      .setAudience(APP)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey)
    const down = async () => {
      throw new TypeError('fetch failed')
    }
    await expect(verifyAppleIdentityToken(token, down, { issuer: ISSUER, audience: APP })).rejects.toThrow('fetch failed')
    const slow = async () => {
      throw new errors.JWKSTimeout()
    }
    await expect(verifyAppleIdentityToken(token, slow, { issuer: ISSUER, audience: APP })).rejects.toBeInstanceOf(errors.JWKSTimeout)
  })
})
