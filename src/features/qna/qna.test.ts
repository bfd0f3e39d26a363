import { describe, expect, it } from 'vitest'
import { cleanText, dayStart, QnaBody } from './qna.ts'

describe('QnA rules', () => {
  it('cleans texts and enforces the limits', () => {
    expect(cleanText('  a\r\nb\u0000 ')).toBe('a\nb')
    expect(QnaBody.parse({ category: 'ETC', title: ' t ', text: ' x ' })).toEqual({ category: 'ETC', title: 't', text: 'x' })
    expect(QnaBody.safeParse({ category: 'ETC', title: ' ', text: 'x' }).success).toBe(false)
    expect(QnaBody.safeParse({ category: 'NOPE', title: 't', text: 'x' }).success).toBe(false)
    expect(QnaBody.safeParse({ category: 'ETC', title: 't', text: 'x'.repeat(2001) }).success).toBe(false)
  })
  it('starts the day at midnight in the edition time zone', () => {
    const now = new Date('2026-03-10T02:30:00.000Z')
    expect(dayStart('UTC', now).toISOString()).toBe('2026-03-10T00:00:00.000Z')
    expect(dayStart('Europe/Paris', now).toISOString()).toBe('2026-03-09T23:00:00.000Z')
    expect(dayStart('Asia/Tokyo', now).toISOString()).toBe('2026-03-09T15:00:00.000Z')
    expect(dayStart('America/New_York', now).toISOString()).toBe('2026-03-09T04:00:00.000Z')
  })
})
