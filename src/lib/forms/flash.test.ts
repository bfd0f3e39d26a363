import { describe, expect, it } from 'vitest'
import { flashOf, readFlash } from './flash.ts'

/** The field a refusal's flash names (`flashOf`, nothing kept). */
const fieldOf = (code: string, details: Record<string, unknown> | undefined, fields?: Record<string, string>) =>
  flashOf(code, {}, [], details, fields).field

describe('form flash', () => {
  it('keeps only the listed fields, cut to 254 characters; a ticked box as posted', () => {
    const raw = { email: 'a'.repeat(300), password: 'Secret-1', agreeTerms: 'on', tags: ['x', 'y'] }
    const flash = flashOf('INCORRECT_PASSWORD', raw, ['email', 'agreeTerms', 'agreeMail', 'tags'], { field: 'passwordConfirm' })
    expect(flash).toEqual({ code: 'INCORRECT_PASSWORD', field: 'passwordConfirm', values: { email: 'a'.repeat(254), agreeTerms: 'on' } })
  })

  it('names the field: the thrower’s, else the form’s map, else the first invalid one', () => {
    expect(fieldOf('INCORRECT_PASSWORD', { field: 'oldPassword' }, { INCORRECT_PASSWORD: 'newPasswordConfirm' })).toBe('oldPassword')
    expect(fieldOf('INCORRECT_PASSWORD', undefined, { INCORRECT_PASSWORD: 'newPasswordConfirm' })).toBe('newPasswordConfirm')
    expect(fieldOf('INVALID_PARAMETER', { fields: 'code,email' })).toBe('code')
    expect(fieldOf('UNKNOWN', {})).toBeUndefined()
  })

  it('is read only with its own ?error= code, and never when malformed', () => {
    const cookie = JSON.stringify(flashOf('INVALID_PARAMETER', {}, [], { field: 'code', attemptsLeft: 3 }))
    expect(readFlash(cookie, 'INVALID_PARAMETER')).toEqual({ code: 'INVALID_PARAMETER', field: 'code', values: {}, attemptsLeft: 3 })
    expect(readFlash(cookie, 'EXPIRED_OTP')).toBeNull()
    expect(readFlash(cookie, null)).toBeNull()
    expect(readFlash('{not json', 'INVALID_PARAMETER')).toBeNull()
    expect(readFlash(JSON.stringify({ code: 'INVALID_PARAMETER', values: { email: 1 } }), 'INVALID_PARAMETER')).toBeNull()
    // a server-side draft is named by a random id only
    const draft = crypto.randomUUID()
    expect(readFlash(JSON.stringify({ code: 'INVALID_PARAMETER', values: {}, draft }), 'INVALID_PARAMETER')?.draft).toBe(draft)
    expect(readFlash(JSON.stringify({ code: 'INVALID_PARAMETER', values: {}, draft: '../x' }), 'INVALID_PARAMETER')).toBeNull()
  })
})
