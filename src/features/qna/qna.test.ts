import { describe, expect, it } from 'vitest'
import { dayStart, deviceOf, QnaBody, ReportBody } from './qna.ts'
import { cleanText } from '../../lib/text/clean.ts'

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

describe('episode reports (issue 37 point 4)', () => {
  it('needs a known problem, and a text for OTHER; an empty or blank text is none', () => {
    expect(ReportBody.parse({ episodeId: 3, problem: 'IMAGE', text: ' ' })).toEqual({ episodeId: 3, problem: 'IMAGE' })
    expect(ReportBody.parse({ episodeId: 3, problem: 'ORDER', text: '' })).toEqual({ episodeId: 3, problem: 'ORDER' })
    expect(ReportBody.parse({ episodeId: 3, problem: 'OTHER', text: ' bulle\r\nvide ' })).toEqual({
      episodeId: 3,
      problem: 'OTHER',
      text: 'bulle\nvide',
    })
    for (const bad of [
      { episodeId: 3, problem: 'OTHER' },
      { episodeId: 3, problem: 'OTHER', text: '\u0000 \u202e' },
      { episodeId: 3, problem: 'SPAM' },
      { episodeId: 0, problem: 'IMAGE' },
      { episodeId: 3, problem: 'TEXT', text: 'x'.repeat(2001) },
      { episodeId: 3, problem: 'TEXT', text: 42 },
    ])
      expect(ReportBody.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
  })
  it('keeps the device as one line of at most 300 characters', () => {
    expect(deviceOf(undefined)).toBeNull()
    expect(deviceOf(' \u0000 ')).toBeNull()
    expect(deviceOf('Mozilla/5.0\n(Linux;\u202e Android 14)')).toBe('Mozilla/5.0 (Linux; Android 14)')
    expect(deviceOf('x'.repeat(5000))).toHaveLength(300)
  })
})

describe('QnA images', () => {
  it('recognises images by their bytes and enforces count and size', async () => {
    const { checkImages, MAX_IMAGE_BYTES } = await import('./qna.ts')
    const { imageKind } = await import('../../lib/image-kind.ts')
    expect(imageKind(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpg')
    expect(imageKind(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp')
    expect(imageKind(new TextEncoder().encode('GIF89a..'))).toBe('gif')
    expect(imageKind(new TextEncoder().encode('<svg>'))).toBeNull()
    const jpg = { size: 10, bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]) }
    expect(checkImages([jpg, { size: 0, bytes: new Uint8Array() }])).toEqual({ ok: true, kinds: ['jpg'] })
    expect(checkImages([jpg, jpg, jpg, jpg]).ok).toBe(false)
    expect(checkImages([{ ...jpg, size: MAX_IMAGE_BYTES + 1 }]).ok).toBe(false)
  })
})
