import { describe, expect, it } from 'vitest'
import { AuditQuery, OperatorAddRequest, changedFields, isOperatorToken, newOperatorToken } from './operator.ts'

describe('operators and the audit trail (issue 39 point 5)', () => {
  it('a named token is wto_ and 43 base64url characters of 32 random bytes, told apart from anything else', () => {
    const token = newOperatorToken(new Uint8Array(32).fill(255))
    expect(token).toBe(`wto_${'_'.repeat(42)}8`)
    expect(isOperatorToken(token)).toBe(true)
    expect(isOperatorToken(newOperatorToken(crypto.getRandomValues(new Uint8Array(32))))).toBe(true)
    for (const other of ['test-ops-token', `wto_${'a'.repeat(42)}`, `wto_${'a'.repeat(44)}`, `wto_${'a'.repeat(42)}=`])
      expect(isOperatorToken(other)).toBe(false)
  })

  it('operator names: 2 to 32 of a-z, 0-9, - and _, a letter first, never root', () => {
    const valid = (name: string) => OperatorAddRequest.safeParse({ name, reason: 'r' }).success
    for (const name of ['al', 'alice', 'support-2', 'a_b', 'a'.repeat(32)]) expect(valid(name), name).toBe(true)
    for (const name of ['root', 'a', 'Alice', '2nd', '-a', 'a b', 'a'.repeat(33), 'émile']) expect(valid(name), name).toBe(false)
  })

  it('the audit query: optional filters, root as an operator, bounded numbers', () => {
    expect(AuditQuery.parse({})).toEqual({ limit: 50 })
    expect(AuditQuery.parse({ days: '7', target: 'payment:pay_ab1', operator: 'root', limit: '200', cursor: '12' })).toEqual({
      days: 7,
      target: 'payment:pay_ab1',
      operator: 'root',
      limit: 200,
      cursor: 12,
    })
    for (const bad of [{ days: '0' }, { days: '367' }, { target: 'notice' }, { target: 'Notice:5' }, { limit: '201' }, { cursor: '0' }])
      expect(AuditQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
  })

  it('changedFields: the fields that differ, before → after, in the after order then the ones it lost', () => {
    expect(changedFields({ id: 5, title: 'a', pinned: 0 }, { id: 5, title: 'b', pinned: 0 })).toEqual([['title', 'a', 'b']])
    expect(changedFields(null, { id: 5 })).toEqual([['', null, { id: 5 }]])
    expect(changedFields({ id: 5, gone: 1 }, null)).toEqual([['', { id: 5, gone: 1 }, null]])
    expect(changedFields({ a: 1, gone: 2 }, { b: 3, a: 1 })).toEqual([
      ['b', undefined, 3],
      ['gone', 2, undefined],
    ])
    expect(changedFields({ days: ['MONDAY'] }, { days: ['MONDAY'] })).toEqual([])
    expect(changedFields(null, null)).toEqual([])
  })
})
