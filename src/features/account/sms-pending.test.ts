import { describe, expect, it } from 'vitest'
import { readSmsPending, smsPendingValue } from './sms-pending.ts'

describe('the pending SMS cookie', () => {
  it('carries the phone and ID of its own purpose only, trimmed', () => {
    const value = smsPendingValue({ purpose: 'FIND_PASSWORD', phone: ' +33612345678 ', id: ' a@example.com ' })
    expect(readSmsPending(value, 'FIND_PASSWORD')).toEqual({ purpose: 'FIND_PASSWORD', phone: '+33612345678', id: 'a@example.com' })
    expect(readSmsPending(value, 'PHONE')).toBeNull()
    expect(readSmsPending(smsPendingValue({ purpose: 'PHONE', phone: '+33612345678', id: '' }), 'PHONE')).toEqual({
      purpose: 'PHONE',
      phone: '+33612345678',
    })
  })

  it('is ignored when absent or malformed', () => {
    expect(readSmsPending(undefined, 'PHONE')).toBeNull()
    expect(readSmsPending('{not json', 'PHONE')).toBeNull()
    expect(readSmsPending(JSON.stringify({ purpose: 'PHONE', phone: 1 }), 'PHONE')).toBeNull()
  })
})
