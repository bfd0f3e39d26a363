import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { parseId, RowId, RowIdText } from './ids.ts'

describe('row ids, one way everywhere', () => {
  it('parses a path segment strictly: digits only, no leading zero, within 2^53 - 1', () => {
    expect(parseId('12')).toBe(12)
    expect(parseId('99999999999')).toBe(99_999_999_999)
    expect(parseId(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER)
    for (const bad of [undefined, '', '0', '-1', '1.5', '01', 'abc', '1e3', ' 1', '0x10', '9007199254740992', '99999999999999999'])
      expect(parseId(bad), String(bad)).toBeNull()
  })

  it('takes a JSON number or a field of digits, never a boolean, a blank or a float', () => {
    expect(RowIdText.parse('7')).toBe(7)
    expect(RowIdText.parse(7)).toBe(7)
    for (const bad of [true, null, '', ' 7', '7 ', 7.5, 0, -3, '1e2']) expect(RowIdText.safeParse(bad).success, String(bad)).toBe(false)
    expect(RowId.safeParse('7').success).toBe(false)
  })

  it('agrees with itself: every id it writes it reads back', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => parseId(String(n)) === n))
  })
})
