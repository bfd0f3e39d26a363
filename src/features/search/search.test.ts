import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { capKeyword, encodeSearchCursor, MAX_KEYWORD_LENGTH, MAX_SEARCH_OFFSET, resolveSearch, tagSearchHref } from './search.ts'
import { ftsDocument } from '../../lib/text/fts.ts'

/** A search keeps at most 8 distinct words. */
const MAX_TERMS = 8

/** The keyword check of a search (`resolveSearch`): the keyword as searched, or why it is refused. */
function checkSearchKeyword(raw: string | null | undefined) {
  const r = resolveSearch({ keyword: raw })
  return r.ok ? { ok: true, keyword: r.request.keyword } : { ok: false, reason: r.reason }
}
/** The MATCH expression a search of `keyword` runs (`resolveSearch`); null when it has no searchable word. */
function buildFtsQuery(keyword: string): string | null {
  const r = resolveSearch({ keyword })
  if (!r.ok) throw new Error(`keyword refused: ${keyword}`)
  return r.request.match
}
/** The offset a search cursor resumes at (`resolveSearch`), or null when the cursor is refused. */
function decodeSearchCursor(cursor: string): number | null {
  const r = resolveSearch({ keyword: 'reine', cursor })
  if (r.ok) return r.request.offset
  expect(r).toMatchObject({ field: 'cursor' })
  return null
}

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

  it('keeps at most MAX_TERMS distinct words (a quote never reaches a term: see the property below)', () => {
    expect(buildFtsQuery('a"b')).toBe('"a"* AND "b"*')
    expect(buildFtsQuery('***')).toBeNull()
    expect(buildFtsQuery('a b c d e f g h i j k')!.split(' AND ')).toHaveLength(MAX_TERMS)
    expect(buildFtsQuery('reine Reine reine')).toBe('"reine"* AND "Reine"*')
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
        // as the page sends it: capped, then resolved (a blank keyword is refused, not searched)
        const r = resolveSearch({ keyword: capKeyword(raw) })
        if (!r.ok) {
          expect(r).toMatchObject({ field: 'keyword', reason: 'empty' })
          return
        }
        const q = r.request.match
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
