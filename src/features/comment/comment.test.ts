import { describe, expect, it } from 'vitest'
import { authorName, checkText, decodeCursor, encodeCursor, MAX_COMMENT_LENGTH, PostBody, shownText } from './comment.ts'

describe('checkText (spec §5)', () => {
  it('normalises and accepts up to 500 characters', () => {
    expect(checkText('  Bonjour\r\n\r\n\r\n\r\nà tous \u200b ', [])).toEqual({ ok: true, text: 'Bonjour\n\nà tous' })
    expect(checkText('😀'.repeat(MAX_COMMENT_LENGTH), [])).toMatchObject({ ok: true })
    expect(checkText('a'.repeat(MAX_COMMENT_LENGTH + 1), [])).toEqual({ ok: false, reason: 'TOO_LONG' })
  })
  it('refuses empty texts and prohibited words (case-insensitive, inside words)', () => {
    for (const raw of ['', '   ', '\n\t\u0000', '\u202e']) expect(checkText(raw, [])).toEqual({ ok: false, reason: 'EMPTY' })
    expect(checkText('Un VRAI crétin', ['crétin'])).toEqual({ ok: false, reason: 'BANNED', word: 'crétin' })
    expect(checkText('crétinerie', ['Crétin'])).toEqual({ ok: false, reason: 'BANNED', word: 'Crétin' })
    expect(checkText('tout va bien', ['crétin', ' '])).toMatchObject({ ok: true })
  })
  it('issue 34 (6): a prohibited word hidden by soft hyphens, invisible characters, fullwidth or Cyrillic letters is found', () => {
    for (const raw of ['cré\u00adtin', 'cré\u2060tin', 'cré\ufefftin', 'ｃｒéｔｉｎ', 'сrétin' /* Cyrillic с */, 'CRÉ\u200bTIN'])
      expect(checkText(raw, ['crétin']), JSON.stringify(raw)).toEqual({ ok: false, reason: 'BANNED', word: 'crétin' })
    expect(checkText('certain', ['crétin'])).toMatchObject({ ok: true })
  })
})

describe('cursors', () => {
  it('round-trip per sort and refuse the other sort or junk', () => {
    expect(decodeCursor(encodeCursor({ sort: 'newest', id: 42 }), 'newest')).toEqual({ sort: 'newest', id: 42 })
    expect(decodeCursor(encodeCursor({ sort: 'best', likes: 0, id: 7 }), 'best')).toEqual({ sort: 'best', likes: 0, id: 7 })
    expect(decodeCursor('n42', 'best')).toBeNull()
    expect(decodeCursor('b1_2', 'newest')).toBeNull()
    for (const raw of ['', 'n0', 'n-1', 'b01_2', 'x', 'n99999999999', 'b1_'])
      expect(decodeCursor(raw, 'newest') ?? decodeCursor(raw, 'best')).toBeNull()
  })
})

describe('display rules', () => {
  it('hides the text of BLIND, BLOCK and DELETED comments, keeps REPORT visible', () => {
    expect(shownText(null, 'a')).toEqual({ text: 'a', notice: null })
    expect(shownText('REPORT', 'a')).toEqual({ text: 'a', notice: null })
    for (const s of ['BLIND', 'BLOCK', 'DELETED'] as const) expect(shownText(s, 'a')).toEqual({ text: null, notice: s })
  })
  it('names authors by nickname, else a masked e-mail, never the full address', () => {
    expect(authorName(' Mina ', 'x@y.z', 1)).toBe('Mina')
    expect(authorName(null, 'reader@example.com', 1)).toBe('re***')
    expect(authorName('', null, 9)).toBe('#9')
  })
  it('reads form fields (empty episode is none)', () => {
    expect(PostBody.parse({ contentsId: '3', episodeId: '', parentId: '', text: 'x' })).toEqual({ contentsId: 3, text: 'x' })
    expect(PostBody.safeParse({ contentsId: '0', text: 'x' }).success).toBe(false)
  })
})
