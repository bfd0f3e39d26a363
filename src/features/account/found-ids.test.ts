import { describe, expect, it } from 'vitest'
import { EncryptJWT } from 'jose'
import { deriveKeys } from '../auth/tokens.ts'
import { sealSession } from '../session/cookie.ts'
import { FOUND_IDS_TTL_SECONDS, openFoundIds, sealFoundIds } from './found-ids.ts'

const keys = await deriveKeys('x'.repeat(40))
const found = { ids: ['ab***@example.com', 'cd***@example.com'], total: 2 }
const now = new Date('2026-11-22T10:00:00Z')
const at = (s: number) => new Date(now.getTime() + s * 1000)

describe('find-ID result cookie', () => {
  it('opens to what the server sealed, for 10 minutes only', async () => {
    const value = await sealFoundIds(keys, found, now)
    expect(await openFoundIds(keys, value, at(FOUND_IDS_TTL_SECONDS - 1))).toEqual(found)
    expect(await openFoundIds(keys, value, at(FOUND_IDS_TTL_SECONDS + 1))).toBeNull()
  })

  it('refuses a tampered value, another key, a session cookie and a made-up value', async () => {
    const value = await sealFoundIds(keys, found, now)
    const flipped = value.slice(0, -3) + (value.endsWith('A') ? 'BBB' : 'AAA')
    expect(await openFoundIds(keys, flipped, now)).toBeNull()
    expect(await openFoundIds(await deriveKeys('y'.repeat(40)), value, now)).toBeNull()
    const session = await sealSession(keys, {
      accessToken: { value: 'a', expiredAt: at(900).toISOString() },
      refreshToken: { value: 'r', expiredAt: at(9000).toISOString() },
    })
    expect(await openFoundIds(keys, session, now)).toBeNull()
    const noSubject = await new EncryptJWT({ ids: ['evil@example.com'], total: 1 })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 600)
      .encrypt(keys.cookie)
    expect(await openFoundIds(keys, noSubject, now)).toBeNull()
    expect(await openFoundIds(keys, 'evil@example.com', now)).toBeNull()
    expect(await openFoundIds(keys, undefined, now)).toBeNull()
  })
})
