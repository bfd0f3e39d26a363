import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  SignUpForm,
  VerifyOtpBody,
  generateOtp,
  isDeletionBlocking,
  isValidEmail,
  sameSiteCallback,
  signUpError,
  signInBucket,
} from './auth.ts'
import { normaliseEmail } from '../../lib/email.ts'
import { safeCallback } from '../../lib/redirect.ts'

const body = (over: Partial<Parameters<typeof signUpError>[0]> = {}) => ({
  email: 'new@example.com',
  password: 'Abcdef12',
  passwordConfirm: 'Abcdef12',
  agreeTerms: true,
  ...over,
})

/** The sign-up password rule, read from the form check (everything else valid): null or INVALID_PW_REGEX, nothing else. */
const isValidSignUpPassword = (password: string): boolean => {
  const error = signUpError(body({ password, passwordConfirm: password }))
  if (error === null) return true
  expect(error).toBe('INVALID_PW_REGEX')
  return false
}

describe('spec §5 sign-up rules', () => {
  it('accepts valid e-mails and refuses the rest', () => {
    for (const e of ['a@example.com', 'first.last+tag@sub.example.fr']) expect(isValidEmail(e), e).toBe(true)
    for (const e of ['', 'a', 'a@', '@b.c', 'a@b', 'a b@c.de', 'a@@b.de', `${'a'.repeat(250)}@b.de`]) expect(isValidEmail(e), e).toBe(false)
  })

  it('wants 8–20 characters with at least two of upper, lower, digit, special', () => {
    for (const p of ['abcdefg1', 'ABCDEFG1', 'abcdefgH', 'abcdefg!', 'Reader-2026!', '12345678!', 'aaaaaaaaaaaaaaaaaaa1'])
      expect(isValidSignUpPassword(p), p).toBe(true)
    for (const p of ['abcdefgh', 'ABCDEFGH', '12345678', '!!!!!!!!', 'Ab1!', 'Abcdefg', 'aaaaaaaaaaaaaaaaaaaa1'])
      expect(isValidSignUpPassword(p), p).toBe(false)
  })

  it('counts code points, not UTF-16 units', () => {
    expect(isValidSignUpPassword('😀😀😀😀😀😀😀a')).toBe(true) // 8 code points: lower + special
    expect(isValidSignUpPassword('😀'.repeat(10) + 'a'.repeat(11))).toBe(false) // 21
  })

  it('checks e-mail, password, confirmation, terms in that order', () => {
    expect(signUpError(body())).toBeNull()
    expect(signUpError(body({ email: 'bad', password: 'x' }))).toBe('INVALID_MAIL_FORM')
    expect(signUpError(body({ password: 'abcdefgh', passwordConfirm: 'abcdefgh' }))).toBe('INVALID_PW_REGEX')
    expect(signUpError(body({ passwordConfirm: 'Abcdef13' }))).toBe('INCORRECT_PASSWORD')
    expect(signUpError(body({ agreeTerms: false }))).toBe('INVALID_PARAMETER')
  })

  it('normalises the e-mail for storage and the sign-in bucket', () => {
    expect(normaliseEmail('  Reader@Example.COM ')).toBe('reader@example.com')
    expect(signInBucket('Reader@Example.com', '203.0.113.7')).toBe(signInBucket('reader@example.com', '203.0.113.7'))
    expect(signInBucket('reader@example.com', '203.0.113.7')).not.toBe(signInBucket('reader@example.com', '198.51.100.9'))
  })
})

describe('spec §4 withdrawal block', () => {
  const now = new Date('2026-06-30T12:00:00Z')
  it('blocks re-sign-up for 30 days after deletion, not after', () => {
    expect(isDeletionBlocking(null, now)).toBe(false)
    expect(isDeletionBlocking('2026-06-01T12:00:01Z', now)).toBe(true)
    expect(isDeletionBlocking('2026-05-31T12:00:00Z', now)).toBe(false)
  })
})

describe('spec §9 e-mail OTP', () => {
  it('is always six digits', () => {
    for (let i = 0; i < 500; i++) expect(generateOtp()).toMatch(/^\d{6}$/)
  })
})

describe('callback rule (open redirects)', () => {
  it('keeps own-site relative paths with query and hash', () => {
    expect(safeCallback('/gift')).toBe('/gift')
    expect(safeCallback('/history/use?cursor=a%20b#x')).toBe('/history/use?cursor=a%20b#x')
  })
  it('turns everything else into /', () => {
    for (const c of [
      undefined,
      null,
      '',
      'gift',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil',
      '/\tevil',
      '/\t/evil.example',
      'javascript:alert(1)',
      ' /gift',
    ])
      expect(safeCallback(c), String(c)).toBe('/')
    expect(safeCallback('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example') // stays an encoded path on this site
  })
  it('never leaves the site, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = safeCallback(s)
        expect(out.startsWith('/') && !out.startsWith('//') && !out.includes('\\')).toBe(true)
        expect(new URL(out, 'https://site.example').origin).toBe('https://site.example')
      }),
      { numRuns: 2000 },
    )
  })
})

describe('session service callbackUrl (no open redirect)', () => {
  const origin = 'https://fr.bomtoon.example'
  it('keeps own-origin absolute URLs and own-site paths, as paths', () => {
    expect(sameSiteCallback(`${origin}/gift?x=1#top`, origin)).toBe('/gift?x=1#top')
    expect(sameSiteCallback('/library/my', origin)).toBe('/library/my')
    expect(sameSiteCallback(undefined, origin)).toBe('/')
  })
  it('refuses other origins, schemes and tricks', () => {
    for (const bad of [
      'https://evil.example/gift',
      'http://fr.bomtoon.example/gift',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      `${origin}.evil.example/`,
      'not a url',
    ])
      expect(sameSiteCallback(bad, origin), bad).toBe('/')
  })
})

describe('OTP and sign-up form shapes', () => {
  it('takes exactly 6 digits', () => {
    expect(VerifyOtpBody.safeParse({ email: 'a@b.fr', code: '012345' }).success).toBe(true)
    for (const code of ['12345', '1234567', '12345a', ' 123456', '１２３４５６'])
      expect(VerifyOtpBody.safeParse({ email: 'a@b.fr', code }).success, code).toBe(false)
  })
  it('reads HTML checkboxes: present means checked', () => {
    const base = { email: 'a@b.fr', password: 'x', passwordConfirm: 'x' }
    expect(SignUpForm.parse({ ...base, agreeTerms: 'on' })).toMatchObject({ agreeTerms: true, agreeMail: false })
    expect(SignUpForm.parse(base)).toMatchObject({ agreeTerms: false, agreeMail: false })
  })
})
