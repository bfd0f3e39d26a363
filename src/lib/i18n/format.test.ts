import { describe, expect, it } from 'vitest'
import { formatDate, formatMoney } from './format.ts'
import { loadEdition } from '../edition/load.ts'

describe('formatting through Intl', () => {
  const fr = loadEdition('fr').edition
  it('writes dates as dd.MM.yyyy in the edition time zone', () => {
    expect(formatDate('2026-12-03T10:00:00Z', fr)).toBe('03.12.2026')
    // 23:30 UTC on 31 Dec is already 1 Jan in Paris and in Seoul
    expect(formatDate('2026-12-31T23:30:00Z', fr)).toBe('01.01.2027')
    expect(formatDate('2026-12-31T16:30:00Z', loadEdition('kr').edition)).toBe('01.01.2027')
  })
  it('puts the currency symbol where the edition says', () => {
    expect(formatMoney(499, fr)).toMatch(/^€4,99$/)
    expect(formatMoney(499, loadEdition('de').edition)).toMatch(/^4,99\u00a0€$/)
    expect(formatMoney(1200, loadEdition('kr').edition)).toMatch(/^1,200\u00a0₩$/)
  })
})
