import { describe, expect, it } from 'vitest'
import { ReaderLookup } from './reader-ops.ts'

describe('ReaderLookup (GET /api/ops/readers, npm run ops -- reader show)', () => {
  it('an e-mail or an id, exactly one', () => {
    expect(ReaderLookup.parse({ email: 'a@example.com' })).toEqual({ email: 'a@example.com' })
    expect(ReaderLookup.parse({ id: '42' })).toEqual({ id: 42 })
    for (const bad of [{}, { email: 'a@example.com', id: '1' }, { id: '0' }, { id: '1.5' }, { id: '-1' }, { email: 'nope' }]) {
      expect(ReaderLookup.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})
