import { describe, expect, it } from 'vitest'
import { isOutboxPageEnabled } from './outbox.ts'

describe('dev outbox page switch', () => {
  it('is on in astro dev or with DEV_OUTBOX=1 only', () => {
    expect(isOutboxPageEnabled(true, undefined)).toBe(true)
    expect(isOutboxPageEnabled(false, '1')).toBe(true)
    for (const v of [undefined, '', '0', 'true', 1, 'yes']) expect(isOutboxPageEnabled(false, v), String(v)).toBe(false)
  })
})
