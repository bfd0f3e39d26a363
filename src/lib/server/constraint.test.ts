import { describe, expect, it } from 'vitest'
import { isConstraint } from './constraint.ts'

describe('isConstraint', () => {
  const check = new Error('D1_ERROR: CHECK constraint failed: remaining >= 0: SQLITE_CONSTRAINT')
  const unique = new Error('D1_ERROR: UNIQUE constraint failed: idempotency_keys.user_id, idempotency_keys.key: SQLITE_CONSTRAINT')
  it('reads the kind and the columns of D1 errors', () => {
    expect(isConstraint(check)).toBe(true)
    expect(isConstraint(check, 'CHECK')).toBe(true)
    expect(isConstraint(check, 'UNIQUE')).toBe(false)
    expect(isConstraint(unique, 'UNIQUE', 'idempotency_keys.')).toBe(true)
    expect(isConstraint(unique, 'UNIQUE', 'payments.')).toBe(false)
    expect(isConstraint(unique)).toBe(true)
  })
  it('is false for anything else', () => {
    for (const e of [new Error('D1_ERROR: no such table: x'), 'network lost', null, undefined, { message: 42 }])
      expect(isConstraint(e)).toBe(false)
    expect(isConstraint({ message: 'CHECK constraint failed: x' }, 'CHECK')).toBe(true) // an error object from another realm
  })
})
