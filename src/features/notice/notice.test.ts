import { describe, expect, it } from 'vitest'
import { NOTICE_UNPUBLISHED_AT, NoticeEditRequest, NoticePublishRequest, noticeState, paragraphs, parsePage } from './notice.ts'

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

describe('operator notice requests (docs/API.md /api/ops/notices)', () => {
  const now = new Date('2026-11-27T10:00:00.000Z')
  it('says whether a notice is published, scheduled or taken down', () => {
    expect(noticeState('2026-11-27T10:00:00.000Z', now)).toBe('PUBLISHED')
    expect(noticeState('2026-11-27T10:00:00.001Z', now)).toBe('SCHEDULED')
    expect(noticeState(NOTICE_UNPUBLISHED_AT, now)).toBe('UNPUBLISHED')
  })
  it('cleans the text, defaults to a global NOTICE now, dates a bare day at its start (UTC), refuses the rest', () => {
    expect(NoticePublishRequest.parse({ title: ' T\u0007 ', body: 'a\r\nb', reason: ' r ' })).toEqual({
      title: 'T',
      body: 'a\nb',
      category: 'NOTICE',
      pinned: false,
      reason: 'r',
    })
    expect(NoticePublishRequest.parse({ title: 't', body: 'b', reason: 'r', publishedAt: '2026-12-01' }).publishedAt).toBe(
      '2026-12-01T00:00:00.000Z',
    )
    expect(NoticePublishRequest.parse({ title: 't', body: 'b', reason: 'r', publishedAt: '2026-12-01T09:00:00+01:00' }).publishedAt).toBe(
      '2026-12-01T08:00:00.000Z',
    )
    for (const bad of [
      { title: 't', body: 'b' },
      { title: 't', body: 'b', reason: 'r'.repeat(201) },
      { title: 't', body: ' ', reason: 'r' },
      { title: 't', body: 'b', reason: 'r', publishedAt: NOTICE_UNPUBLISHED_AT },
      { title: 't', body: 'b', reason: 'r', publishedAt: '1999-12-31' },
      { title: 't', body: 'b', reason: 'r', publishedAt: '2026-12-01T09:00:00' },
      { title: 't', body: 'b', reason: 'r', category: 'ALERT' },
      { title: 't', body: 'b', reason: 'r', seriesId: 1.5 },
    ]) {
      expect(NoticePublishRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
    expect(NoticeEditRequest.safeParse({ reason: 'r' }).success).toBe(false)
    expect(NoticeEditRequest.parse({ body: 'b', reason: 'r' })).toEqual({ body: 'b', reason: 'r' })
  })
})
