import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  buildFtsQuery,
  capKeyword,
  checkSearchKeyword,
  decodeSearchCursor,
  encodeSearchCursor,
  ftsDocument,
  ftsMatchQuery,
  MAX_KEYWORD_LENGTH,
  MAX_SEARCH_OFFSET,
  MAX_TERMS,
  resolveSearch,
  searchTerms,
  tagSearchHref,
} from './search.ts'

describe('keyword check (spec §5: empty keyword refused)', () => {
  it('refuses empty and blank keywords, collapses and trims spaces', () => {
    expect(checkSearchKeyword(undefined)).toEqual({ ok: false, reason: 'empty' })
    expect(checkSearchKeyword(' \t\n ')).toEqual({ ok: false, reason: 'empty' })
    expect(checkSearchKeyword('  la   reine ')).toEqual({ ok: true, keyword: 'la reine' })
  })

  it('refuses more than the maximum, counted in characters, and NFC-normalises', () => {
    expect(checkSearchKeyword('é'.repeat(MAX_KEYWORD_LENGTH)).ok).toBe(true)
    expect(checkSearchKeyword('😀'.repeat(MAX_KEYWORD_LENGTH)).ok).toBe(true)
    expect(checkSearchKeyword('a'.repeat(MAX_KEYWORD_LENGTH + 1))).toEqual({ ok: false, reason: 'tooLong' })
    expect(checkSearchKeyword('re\u0301ine')).toEqual({ ok: true, keyword: 'réine' })
  })

  it('the page cap cuts huge input to an accepted keyword', () => {
    const capped = capKeyword('ab '.repeat(100_000))
    expect([...capped].length).toBeLessThanOrEqual(MAX_KEYWORD_LENGTH)
    expect(checkSearchKeyword(capped).ok).toBe(true)
    expect(capKeyword('  Reine  ')).toBe('Reine')
  })
})

describe("FTS5 query building: the user's words, quoted, never syntax", () => {
  it('quotes each word as a prefix phrase and ANDs them', () => {
    expect(buildFtsQuery('reine ombres')).toBe('"reine"* AND "ombres"*')
    expect(buildFtsQuery('Reine')).toBe('"Reine"*')
  })

  it('turns operators and special characters into separators or plain words', () => {
    expect(buildFtsQuery('"reine')).toBe('"reine"*')
    expect(buildFtsQuery('rei*')).toBe('"rei"*')
    expect(buildFtsQuery('-reine')).toBe('"reine"*')
    expect(buildFtsQuery('title:reine')).toBe('"title"* AND "reine"*')
    expect(buildFtsQuery('a NEAR b')).toBe('"a"* AND "NEAR"* AND "b"*')
    expect(buildFtsQuery('NOT OR AND')).toBe('"NOT"* AND "OR"* AND "AND"*')
    expect(buildFtsQuery('(x) ^y {z}')).toBe('"x"* AND "y"* AND "z"*')
    expect(buildFtsQuery('"*-:^()')).toBeNull()
    expect(buildFtsQuery('😀 ✨')).toBeNull()
  })

  it('doubles a quote in a term (defence in depth) and keeps at most MAX_TERMS distinct words', () => {
    expect(ftsMatchQuery(['a"b'])).toBe('"a""b"*')
    expect(ftsMatchQuery([])).toBeNull()
    expect(searchTerms('a b c d e f g h i j k')).toHaveLength(MAX_TERMS)
    expect(searchTerms('reine Reine reine')).toEqual(['reine', 'Reine'])
  })

  it('cuts unspaced scripts into characters, in the index and in the query alike', () => {
    expect(ftsDocument('永遠のインターン')).toBe('永 遠 の イ ン タ ー ン')
    expect(buildFtsQuery('インターン')).toBe('"イ ン タ ー ン"*')
    expect(ftsDocument('เด็กฝึกงาน')).toContain('ฝ ึ ก')
    expect(ftsDocument('Le  Pacte du démon')).toBe('Le Pacte du démon')
    expect(ftsDocument('영원한 인턴')).toBe('영 원 한 인 턴')
  })

  it('any input gives null or a string of quoted phrases only', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (raw) => {
        const q = buildFtsQuery(raw)
        if (q === null) return
        for (const part of q.split(' AND ')) expect(part).toMatch(/^"[^"]+"\*$/)
        expect(q.split(' AND ').length).toBeLessThanOrEqual(MAX_TERMS)
      }),
    )
  })
})

describe('search cursor and request', () => {
  it('round-trips offsets and refuses malformed or out-of-range cursors', () => {
    expect(decodeSearchCursor(encodeSearchCursor(24))).toBe(24)
    expect(decodeSearchCursor(encodeSearchCursor(MAX_SEARCH_OFFSET))).toBe(MAX_SEARCH_OFFSET)
    expect(decodeSearchCursor(encodeSearchCursor(MAX_SEARCH_OFFSET + 1))).toBeNull()
    for (const bad of ['', '!!', 'o24', btoa('o0'), btoa('o-1'), btoa('24'), 'A'.repeat(40)])
      expect(decodeSearchCursor(bad), bad).toBeNull()
  })

  it('resolves keyword and cursor into a request, or names the bad field', () => {
    expect(resolveSearch({ keyword: ' reine ' })).toEqual({
      ok: true,
      request: { keyword: 'reine', match: '"reine"*', offset: 0, size: 24 },
    })
    expect(resolveSearch({ keyword: '' })).toMatchObject({ ok: false, code: 'INVALID_PARAMETER', field: 'keyword', reason: 'empty' })
    expect(resolveSearch({ keyword: 'x'.repeat(500) })).toMatchObject({ ok: false, field: 'keyword', reason: 'tooLong' })
    expect(resolveSearch({ keyword: 'reine', cursor: 'nope' })).toMatchObject({ ok: false, field: 'cursor' })
    expect(resolveSearch({ keyword: '***' })).toMatchObject({ ok: true, request: { match: null } })
  })

  it('tag links are real /search URLs with the tag encoded', () => {
    expect(tagSearchHref('magie & co')).toBe('/search?keyword=magie+%26+co')
  })
})
