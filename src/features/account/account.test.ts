import { describe, expect, it } from 'vitest'
import { changePasswordError, maskEmail, maskPhone, normalisePhone, resetPasswordError, toResetResult, withdrawalError } from './account.ts'
import { formatCountdown, secondsLeft } from './countdown.ts'

/** Whether a password passes a rule, read from the form check: null (accepted) or INVALID_PW_REGEX, nothing else. */
const passes = (error: string | null): boolean => {
  if (error === null) return true
  expect(error).toBe('INVALID_PW_REGEX')
  return false
}
/** The change-password rule (the current password is none of those tried). */
const isValidChangePassword = (p: string) => passes(changePasswordError({ oldPassword: 'current-password-0', newPassword: p }))
/** The reset-password rule. */
const isValidResetPassword = (p: string) => passes(resetPasswordError({ userId: 1, uuid: 'u', newPassword: p }))

describe('change password rules (spec §5)', () => {
  it('needs at least 6 characters mixing letters and digits', () => {
    expect(isValidChangePassword('abc12')).toBe(false)
    expect(isValidChangePassword('abc123')).toBe(true)
    expect(isValidChangePassword('abcdef')).toBe(false)
    expect(isValidChangePassword('123456')).toBe(false)
    expect(isValidChangePassword('été2026')).toBe(true)
    expect(isValidChangePassword('abc 123')).toBe(false)
  })
  it('checks confirmation, rule, then difference from the current password', () => {
    expect(changePasswordError({ oldPassword: 'old123', newPassword: 'new123', newPasswordConfirm: 'new124' })).toBe('INCORRECT_PASSWORD')
    expect(changePasswordError({ oldPassword: 'old123', newPassword: 'new', newPasswordConfirm: 'new' })).toBe('INVALID_PW_REGEX')
    expect(changePasswordError({ oldPassword: 'same123', newPassword: 'same123' })).toBe('EQUAL_PASSWORD')
    expect(changePasswordError({ oldPassword: 'old123', newPassword: 'new123' })).toBeNull()
  })
})

describe('reset password rules (spec §5/§9: 8 to 20)', () => {
  it('counts code points and needs letters and digits', () => {
    expect(isValidResetPassword('abcd123')).toBe(false)
    expect(isValidResetPassword('abcd1234')).toBe(true)
    expect(isValidResetPassword('a1'.repeat(10))).toBe(true)
    expect(isValidResetPassword('a1'.repeat(10) + 'x')).toBe(false)
    expect(isValidResetPassword('Mot-de-passe!')).toBe(false)
  })
  it('confirmation first', () => {
    expect(resetPasswordError({ userId: 1, uuid: 'u', newPassword: 'abcd1234', newPasswordConfirm: 'abcd1235' })).toBe('INCORRECT_PASSWORD')
    expect(resetPasswordError({ userId: 1, uuid: 'u', newPassword: 'abcd1234' })).toBeNull()
  })
  it('maps anything unknown on the result page to UNKNOWN', () => {
    expect(toResetResult('SUCCESS')).toBe('SUCCESS')
    expect(toResetResult('<script>')).toBe('UNKNOWN')
    expect(toResetResult(null)).toBe('UNKNOWN')
  })
})

describe('phones and masks', () => {
  it('normalises phone numbers and refuses what cannot be one', () => {
    // one number, one form: E.164, whatever the prefix the reader typed (the edition's country by default)
    for (const typed of [' +33 6 12-34.56 (78) ', '0612345678', '0033612345678', '33612345678', '+33612345678'])
      expect(normalisePhone(typed, 'FR'), typed).toBe('+33612345678')
    expect(normalisePhone('010-1234-5678', 'KR')).toBe('+821012345678')
    expect(normalisePhone('+821012345678', 'FR')).toBe('+821012345678')
    // not a mobile number: landline, premium, too short or long, letters
    for (const typed of ['0142345678', '0899123456', '1234', '+33 6 12 34 56 78 90 12 34', '06-CALL-ME', ''])
      expect(normalisePhone(typed, 'FR'), typed).toBeNull()
  })
  it('masks IDs as readers expect: two characters, stars, the domain', () => {
    expect(maskEmail('reader@example.com')).toBe('re****@example.com')
    expect(maskEmail('abc@x.fr')).toBe('ab***@x.fr')
    expect(maskEmail('ab@x.fr')).toBe('a***@x.fr')
    expect(maskPhone('+33612345678')).toBe('********5678')
  })
})

describe('SMS countdown (spec §2, §9 10 minutes)', () => {
  it('counts whole seconds down to zero', () => {
    const now = new Date('2026-11-22T10:00:00.000Z')
    expect(secondsLeft('2026-11-22T10:10:00.000Z', now)).toBe(600)
    expect(secondsLeft('2026-11-22T09:59:00.000Z', now)).toBe(0)
    expect(formatCountdown(600)).toBe('10:00')
    expect(formatCountdown(61)).toBe('1:01')
    expect(formatCountdown(-3)).toBe('0:00')
  })
})

describe('withdrawal (spec §5)', () => {
  it('needs agreement, a reason, and a detail for OTHER', () => {
    expect(withdrawalError({ reasons: ['PRIVACY'], agree: false })).toBe('INVALID_PARAMETER')
    expect(withdrawalError({ reasons: [], agree: true })).toBe('INVALID_PARAMETER')
    expect(withdrawalError({ reasons: ['OTHER'], detail: '  ', agree: true })).toBe('INVALID_PARAMETER')
    expect(withdrawalError({ reasons: ['OTHER'], detail: 'Trop de publicités', agree: true })).toBeNull()
  })
})

describe('my-page entries (spec §2 login/web/app flags)', () => {
  it('coupon is web-only, Tapjoy app-only, settings need login', async () => {
    const { myEntries } = await import('./account.ts')
    const web = myEntries('web').map((e) => e.key)
    const app = myEntries('app').map((e) => e.key)
    expect(web).toContain('coupon')
    expect(app).not.toContain('coupon')
    expect(app).toContain('tapjoy')
    expect(web).not.toContain('tapjoy')
    for (const entries of [myEntries('web'), myEntries('app')]) {
      expect(entries.find((e) => e.key === 'setting')?.login).toBe(true)
      expect(entries.find((e) => e.key === 'notice')?.login).toBe(false)
    }
  })
})
