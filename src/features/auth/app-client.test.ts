import { describe, expect, it } from 'vitest'
import { clientPlatform, platformClaim } from './app-client.ts'

const vars = {
  APP_IOS_APP_CLIENT_ID: 'ios',
  APP_IOS_APP_CLIENT_SECRET: 'ios-secret-0123456789',
  APP_AND_PLAY_CLIENT_ID: 'play',
  APP_AND_PLAY_CLIENT_SECRET: 'short',
}

describe("clientPlatform (issue 20: the platform is not the client's word)", () => {
  it("an app platform only with that app's id and secret", () => {
    expect(clientPlatform('ios', 'ios-secret-0123456789', vars)).toBe('IOS_APP')
    expect(clientPlatform('ios', 'ios-secret-wrong', vars)).toBe('WEB')
    expect(clientPlatform('play', 'ios-secret-0123456789', vars)).toBe('WEB')
    expect(clientPlatform(undefined, undefined, vars)).toBe('WEB')
  })
  it('an app whose secret is missing or too short (under 16 characters) is never matched', () => {
    expect(clientPlatform('play', 'short', vars)).toBe('WEB')
    expect(clientPlatform('ios', 'ios-secret-0123456789', {})).toBe('WEB')
  })
  it('reads the token claim: known platforms only', () => {
    expect(platformClaim('AND_PLUS')).toBe('AND_PLUS')
    expect(platformClaim('TV')).toBe('WEB')
    expect(platformClaim(undefined)).toBe('WEB')
  })
})
