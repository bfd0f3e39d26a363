import { describe, expect, it } from 'vitest'
import { paragraphs, parsePage } from './notice.ts'

describe('notice list pages', () => {
  it('accepts page numbers 1..2000 only', () => {
    expect(parsePage(null)).toBe(1)
    expect(parsePage('3')).toBe(3)
    for (const bad of ['', '0', '-1', '01', '2.5', 'abc', '2001', '99999']) expect(parsePage(bad), bad).toBeNull()
  })
  it('splits a body into paragraphs of lines', () => {
    expect(paragraphs('a\nb\n\n\nc\r\n')).toEqual([['a', 'b'], ['c']])
  })
})
