import { describe, expect, it } from 'vitest'
import { ReaderLookup } from './reader-ops.ts'

describe('ReaderLookup (GET /api/ops/readers, npm run ops -- reader show)', () => {
  it('an e-mail, an id, a nickname, a payment id or a phone number, exactly one', () => {
    expect(ReaderLookup.parse({ email: 'a@example.com' })).toEqual({ email: 'a@example.com' })
    expect(ReaderLookup.parse({ id: '42' })).toEqual({ id: 42 })
    expect(ReaderLookup.parse({ nickname: ' Lune ' })).toEqual({ nickname: 'Lune' })
    expect(ReaderLookup.parse({ payment: 'pay_abc_1' })).toEqual({ payment: 'pay_abc_1' })
    expect(ReaderLookup.parse({ phone: '06 12 34 56 78' })).toEqual({ phone: '06 12 34 56 78' })
    for (const bad of [
      {},
      { email: 'a@example.com', id: '1' },
      { nickname: 'Lune', phone: '0612345678' },
      { id: '0' },
      { id: '1.5' },
      { id: '-1' },
      { email: 'nope' },
      { nickname: ' ' },
      { nickname: 'x'.repeat(41) },
      { payment: 'ch_123' },
      { phone: 'call me' },
    ]) {
      expect(ReaderLookup.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})
