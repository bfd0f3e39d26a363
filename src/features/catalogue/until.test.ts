import { describe, expect, it } from 'vitest'
import { formatUntil } from './until.ts'

describe('formatUntil', () => {
  it('writes dd.MM.yyyy HH:mm in the edition time zone (24 h)', () => {
    expect(formatUntil('2026-03-04T23:05:00.000Z', 'Europe/Paris')).toBe('05.03.2026 00:05')
    expect(formatUntil('2026-03-04T23:05:00.000Z', 'Asia/Seoul')).toBe('05.03.2026 08:05')
    expect(formatUntil('2026-12-31T00:00:00.000Z', 'UTC')).toBe('31.12.2026 00:00')
  })

  it('gives nothing for a bad date', () => {
    expect(formatUntil('soon', 'UTC')).toBe('')
  })
})
