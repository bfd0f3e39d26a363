import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { AppError, ERROR_CODES, ERRORS, isErrorCode, type ErrorCode, type ErrorEntry } from './catalogue.ts'

/** What the client does after a message (spec §8). */
type FollowUp = ErrorEntry['followUp']

const EDITIONS = ['fr', 'de', 'th', 'tw', 'jp', 'kr', 'ar'] as const
const editionsDir = new URL('../../../editions/', import.meta.url)

function readErrors(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`${id}/messages/errors.json`, editionsDir), 'utf8')) as Record<string, unknown>
}

const FOLLOW_UPS: readonly FollowUp[] = [
  'none',
  'returnUrl',
  'reload',
  'back',
  'adultPopup',
  'logout',
  'toShop',
  'toLogin',
  'toGift',
  'home',
  'refreshAndRetry',
  'resend',
]

describe('error catalogue', () => {
  it.each(ERROR_CODES)('%s is a well-formed entry', (code) => {
    const entry = ERRORS[code]
    expect(entry.code).toBe(code)
    expect(entry.messageKey).toBe(`error.${code}`)
    expect(entry.status).toBeGreaterThanOrEqual(400)
    expect(entry.status).toBeLessThan(600)
    expect(FOLLOW_UPS).toContain(entry.followUp)
  })

  it('holds every code of spec §8 and of the API contract', () => {
    const required = [
      // Common
      'Unknown',
      'MALFORMED_JWT',
      'NOT_EXIST',
      'EMPTY_EMAIL',
      'NOT_LOGIN_USER',
      // Gift, Mileage
      'ALREADY_GIVEN_GIFT',
      'NOT_FOUND_GIFT',
      'NOT_FOUND_GIFT_INFO',
      'UN_MATCHED_GIFT_TARGET_TYPE',
      'MILEAGE_INSUFFICIENT',
      'EXCHANGE_MILEAGE_INSUFFICIENT',
      // Purchase, Detail
      'RENT_PURCHASE_IMPOSSIBLE',
      'POSSESSION_PURCHASE_IMPOSSIBLE',
      'EXIST_LIBRARY',
      'COIN_INSUFFICIENT',
      'ADULT_ONLY_CONTENTS',
      'UN_MATCHED_RENT_SALE_TYPE',
      'UN_MATCHED_POSSESSION_SALE_TYPE',
      'INVALID_CONTENTS',
      // Login
      'ALREADY_USED_EMAIL',
      'INVALID_PASSWORD',
      'INVALID_PW_REGEX',
      'INCORRECT_PASSWORD',
      'INVALID_MAIL_FORM',
      'Callback',
      'DUPLICATE_LOGIN',
      'WITHDRAWAL',
      'NOT_REGISTERED_USER',
      'NOT_REGISTERED_PHONE_USER',
      'ALREADY_USED_ANOTHER_PLATFORM',
      'EXCEED_AUTH_COUNT',
      // Refresh, Viewer
      'EXPIRED_REFRESH_TOKEN',
      'NOT_FOUND_REFRESH_TOKEN',
      'NEED_TO_REFRESH',
      'UNAUTHORIZED_CONTENTS',
      'NOT_FOUND_EPISODE',
      'NOT_FOUND_ACCESS_TOKEN',
      // Events, Theme
      'NOT_FOUND_EVENT',
      'NOT_EVENT_PERIOD',
      'UNAUTHORIZED_USER',
      'UNAUTHORIZED_ADULT',
      'UNAUTHORIZED_NON_ADULT',
      'NOT_EVENT_REMAIN_TICKET',
      'NOT_FOUND_THEME',
      // Coupon
      'NOT_FOUND_COUPON_USER',
      'INVALID_MINIMUM_AMOUNT_COUPON',
      'ALREADY_USED_COUPON',
      'NOT_FOUND_COUPON',
      'EXPIRED_COUPON',
      'ALREADY_RECEIVED_COUPON',
      'SOLD_OUT_COUPON',
      // Payment
      'ALREADY_PAID',
      'NOT_FOUND_PAYMENT_METHOD',
      'NOT_FOUND_COIN_PRODUCT',
      'LIMITED_COIN_PRODUCT',
      'LIMITED_COIN_PRODUCT_USER',
      // Password mail, QnA, Sign-up mail, OTP, Withdrawal, Change / Find password
      'FREQUENT_REQUEST',
      'NOT_FOUND_USER',
      'UNKNOWN',
      'LIMIT_QNA_COUNT',
      'INVALID_EMAIL',
      'DELETED_USER',
      'INVALID_PARAMETER',
      'EXPIRED_OTP',
      'TIMEOUT',
      'EQUAL_PASSWORD',
      'NOT_FOUND_SMS_USER',
      'ALREADY_SEND_SMS',
      'ALREADY_USE_SMS',
      // Also
      'POPUP_BLOCKED',
      'PAYMENT_CANCELLED',
      'SESSION_EXPIRED',
      'CARRIER_TAMPERED',
      // Auth service
      'CLIENT_FETCH_ERROR',
      'CLIENT_SESSION_ERROR',
      'MISSING_NEXTAUTH_API_ROUTE_ERROR',
      'NO_SECRET',
      'CALLBACK_CREDENTIALS_HANDLER_ERROR',
      'EMAIL_REQUIRES_ADAPTER_ERROR',
      'CALLBACK_CREDENTIALS_JWT_ERROR',
      'INVALID_CALLBACK_URL_ERROR',
      'OAuthCallbackError',
      'AccountNotLinkedError',
      'UnknownError',
      'SessionRequired',
      // API contract
      'IDEMPOTENCY_KEY_REUSED',
      'FORBIDDEN_ORIGIN',
      'PAYLOAD_TOO_LARGE',
      'METHOD_NOT_ALLOWED',
      'UNSUPPORTED_MEDIA_TYPE',
      'TOO_MANY_REQUESTS',
    ]
    const missing = required.filter((code) => !isErrorCode(code))
    expect(missing).toEqual([])
  })

  it('follows the statuses and follow-ups the spec and API contract name', () => {
    const expected: Partial<Record<ErrorCode, [number, FollowUp]>> = {
      NOT_LOGIN_USER: [401, 'toLogin'],
      COIN_INSUFFICIENT: [402, 'toShop'],
      ADULT_ONLY_CONTENTS: [403, 'adultPopup'],
      EXPIRED_REFRESH_TOKEN: [401, 'logout'],
      NEED_TO_REFRESH: [401, 'refreshAndRetry'],
      NOT_FOUND_ACCESS_TOKEN: [401, 'logout'],
      ALREADY_GIVEN_GIFT: [409, 'toGift'],
      NOT_FOUND_GIFT: [404, 'toGift'],
      NOT_FOUND_GIFT_INFO: [404, 'toGift'],
      UN_MATCHED_GIFT_TARGET_TYPE: [400, 'toGift'],
      TIMEOUT: [410, 'home'],
      EXPIRED_OTP: [410, 'resend'],
      IDEMPOTENCY_KEY_REUSED: [409, 'none'],
      INVALID_PARAMETER: [400, 'none'],
      FORBIDDEN_ORIGIN: [403, 'reload'],
      PAYLOAD_TOO_LARGE: [413, 'none'],
      METHOD_NOT_ALLOWED: [405, 'none'],
      UNSUPPORTED_MEDIA_TYPE: [415, 'none'],
      TOO_MANY_REQUESTS: [429, 'none'],
      UNKNOWN: [500, 'none'],
    }
    for (const [code, [status, followUp]] of Object.entries(expected)) {
      expect({ code, status: ERRORS[code as ErrorCode].status, followUp: ERRORS[code as ErrorCode].followUp }).toEqual({
        code,
        status,
        followUp,
      })
    }
    expect(ERRORS.NOT_EXIST.status).toBe(404)
    expect(ERRORS.MILEAGE_INSUFFICIENT.followUp).toBe('reload')
    expect(ERRORS.EXCHANGE_MILEAGE_INSUFFICIENT.followUp).toBe('reload')
    // docs/API.md: the two sign-in failures are indistinguishable by status.
    expect(ERRORS.INVALID_PASSWORD.status).toBe(ERRORS.NOT_REGISTERED_USER.status)
  })

  it('keeps 500 for truly unexpected failures only', () => {
    const fiveHundreds = ERROR_CODES.filter((code) => ERRORS[code].status === 500)
    for (const code of fiveHundreds) expect(code).toMatch(/Unknown|UNKNOWN|ERROR$|NO_SECRET/)
  })

  it('isErrorCode accepts catalogue codes only', () => {
    expect(isErrorCode('COIN_INSUFFICIENT')).toBe(true)
    expect(isErrorCode('SessionRequired')).toBe(true)
    expect(isErrorCode('coin_insufficient')).toBe(false)
    expect(isErrorCode('toString')).toBe(false)
    expect(isErrorCode('__proto__')).toBe(false)
    expect(isErrorCode('')).toBe(false)
  })

  it('AppError carries code, status and details', () => {
    const err = new AppError('COIN_INSUFFICIENT', { needed: 3 })
    expect(err).toBeInstanceOf(Error)
    expect(err).toBeInstanceOf(AppError)
    expect(err.name).toBe('AppError')
    expect(err.code).toBe('COIN_INSUFFICIENT')
    expect(err.status).toBe(402)
    expect(err.details).toEqual({ needed: 3 })
    expect(err.message).toBe('COIN_INSUFFICIENT')
    expect(new AppError('NOT_EXIST').details).toBeUndefined()
  })
})

describe('editions/<id>/messages/errors.json', () => {
  const catalogueKeys = ERROR_CODES.map((code) => ERRORS[code].messageKey).sort()

  it.each(EDITIONS)('%s has exactly the catalogue keys, each a non-empty string', (id) => {
    const messages = readErrors(id)
    expect(Object.keys(messages).sort()).toEqual(catalogueKeys)
    for (const [key, value] of Object.entries(messages)) {
      expect(typeof value, key).toBe('string')
      expect((value as string).trim(), key).not.toBe('')
    }
  })

  it.each(EDITIONS)('%s uses the same {{params}} as fr and no other placeholder syntax', (id) => {
    const fr = readErrors('fr')
    const messages = readErrors(id)
    // a parameter, with its named format if any (`{{resetsAt, date}}`, src/lib/i18n/i18n.ts `formatValue`)
    const PARAM = /\{\{\s*(\w+)(?:\s*,\s*(date))?\s*\}\}/g
    const params = (s: string) => [...s.matchAll(PARAM)].map((m) => `${m[1]} ${m[2] ?? ''}`).sort()
    for (const key of catalogueKeys) {
      const text = messages[key] as string
      expect(params(text), `${id} ${key}`).toEqual(params(fr[key] as string))
      expect(text.replace(PARAM, ''), `${id} ${key}`).not.toMatch(/[{}]|%s|\$\{/)
    }
  })

  it.each(EDITIONS)('%s quotes the spec numbers (5 minutes, max 5, 30 days)', (id) => {
    const messages = readErrors(id)
    expect(messages['error.FREQUENT_REQUEST']).toMatch(/5/)
    expect(messages['error.EXCEED_AUTH_COUNT']).toMatch(/5/)
    expect(messages['error.DELETED_USER']).toMatch(/30/)
  })

  it('fr (the source) says retry in 1 hour for DUPLICATE_LOGIN', () => {
    expect(readErrors('fr')['error.DUPLICATE_LOGIN']).toMatch(/1 heure/)
  })
})
