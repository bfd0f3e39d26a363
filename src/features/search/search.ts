/**
 * Search rules without I/O (spec §2 /search, §5 empty keyword refused, §9 search delay 1000 ms):
 * the keyword check, the FTS5 document and query built from the user's words, and the result cursor.
 *
 * The user's input never reaches FTS5 as syntax: it is cut into words (letters, digits, marks), each
 * word becomes one double-quoted phrase with a prefix `*`, and the phrases are ANDed. So `"`, `*`, `-`,
 * `:`, `^`, `(`, `NEAR`, `AND`, `OR`, `NOT` are plain text or separators, never operators.
 */
import { b64urlToText, textToB64url } from '../../lib/b64url.ts'
import { ftsDocument } from '../../lib/text/fts.ts'

/** Spec §9: live suggestions wait this long after the last keystroke. */
export const SEARCH_DELAY_MS = 1000
/** Longest keyword the API accepts (the page cuts longer input to this length). */
export const MAX_KEYWORD_LENGTH = 100
/** Words of a keyword that take part in the query (the rest are ignored: a search box, not a document). */
const MAX_TERMS = 8
/** Results per page of `/search` and `GET /api/v1/search`. */
const SEARCH_PAGE_SIZE = 24
/** Results reachable through the cursor (docs/QUALITY.md: bounded lists; deeper pages are out of range). */
export const MAX_SEARCH_OFFSET = 240
/** Tag top 10 (spec §7 "tag top10"); recommended tags shown at most this many too. */
export const TAG_LIST_SIZE = 10

type KeywordCheck = { ok: true; keyword: string } | { ok: false; reason: 'empty' | 'tooLong' }

/**
 * Spec §5: an empty or blank keyword is refused. Whitespace runs count as one space and the ends are
 * trimmed; the text is NFC-normalised so decomposed accents match the index.
 */
function checkSearchKeyword(raw: string | null | undefined): KeywordCheck {
  const keyword = (raw ?? '').normalize('NFC').replace(/\s+/g, ' ').trim()
  if (!keyword) return { ok: false, reason: 'empty' }
  if ([...keyword].length > MAX_KEYWORD_LENGTH) return { ok: false, reason: 'tooLong' }
  return { ok: true, keyword }
}

/** The page's input cap: huge input is cut to the first MAX_KEYWORD_LENGTH characters (code points), then checked. */
export function capKeyword(raw: string): string {
  // Cut generously first so a megabyte of input never goes through normalize/regex whole.
  const head = raw
    .slice(0, MAX_KEYWORD_LENGTH * 4)
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim()
  return [...head].slice(0, MAX_KEYWORD_LENGTH).join('').trim()
}

/** A word carries something FTS5's unicode61 tokenizer indexes (letters, digits, private use). */
const HAS_TOKEN = /[\p{L}\p{N}\p{Co}]/u

/**
 * The user's words: runs of letters, digits and combining marks (what unicode61 keeps), at most
 * MAX_TERMS, each cut like the index (see ftsDocument). Words with nothing indexable are dropped.
 */
function searchTerms(keyword: string): string[] {
  const words = keyword.normalize('NFC').match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? []
  const terms: string[] = []
  for (const w of words) {
    if (!HAS_TOKEN.test(w)) continue
    const term = ftsDocument(w)
    if (!terms.includes(term)) terms.push(term)
    if (terms.length === MAX_TERMS) break
  }
  return terms
}

/** One phrase per term, quoted (`"` doubled, FTS5's only escape inside a string) with a prefix `*`, ANDed. */
function ftsMatchQuery(terms: readonly string[]): string | null {
  if (terms.length === 0) return null
  return terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' AND ')
}

/** The MATCH expression for a checked keyword, or null when it has no searchable word (an empty result, not an error). */
function buildFtsQuery(keyword: string): string | null {
  return ftsMatchQuery(searchTerms(keyword))
}

/**
 * Search results are ranked (bm25), so the cursor is an offset: base64url of `o<n>`. Null when malformed
 * or beyond MAX_SEARCH_OFFSET (the caller answers INVALID_PARAMETER).
 */
function decodeSearchCursor(raw: string): number | null {
  if (raw.length === 0 || raw.length > 12 || !/^[A-Za-z0-9_-]+$/.test(raw)) return null
  const m = /^o([1-9]\d{0,5})$/.exec(b64urlToText(raw) ?? '')
  if (!m) return null
  const n = Number(m[1])
  return n <= MAX_SEARCH_OFFSET ? n : null
}

export function encodeSearchCursor(offset: number): string {
  return textToB64url(`o${offset}`)
}

/** Raw query of `GET /api/v1/search` and the `/search` page. */
export type SearchParams = { keyword?: string | null | undefined; cursor?: string | null | undefined }
export type SearchRequest = { keyword: string; match: string | null; offset: number; size: number }
export type ResolvedSearch =
  { ok: true; request: SearchRequest } | { ok: false; code: 'INVALID_PARAMETER'; field: 'keyword' | 'cursor'; reason?: 'empty' | 'tooLong' }

/** Checks keyword and cursor; the MATCH expression is built here, never from raw input elsewhere. */
export function resolveSearch(params: SearchParams, size = SEARCH_PAGE_SIZE): ResolvedSearch {
  const check = checkSearchKeyword(params.keyword)
  if (!check.ok) return { ok: false, code: 'INVALID_PARAMETER', field: 'keyword', reason: check.reason }
  let offset = 0
  if (params.cursor !== undefined && params.cursor !== null) {
    const o = decodeSearchCursor(params.cursor)
    if (o === null) return { ok: false, code: 'INVALID_PARAMETER', field: 'cursor' }
    offset = o
  }
  return { ok: true, request: { keyword: check.keyword, match: buildFtsQuery(check.keyword), offset, size } }
}

/** The `/search` link of a tag (tag top 10 and recommendations are plain links, spec §7 "tag top10/recommend"). */
export function tagSearchHref(tag: string): string {
  return `/search?${new URLSearchParams({ keyword: tag })}`
}
