/**
 * Scripts written without spaces between words (CJK, Thai and neighbours) plus Hangul: each character
 * is its own token in the index and in the query, so a word inside a title ("インターン" in
 * "永遠のインターン") is found as a phrase of consecutive characters. Spec §1: jp, tw, th, kr editions.
 */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Hangul}\u3005\u30fc]/gu

/**
 * Text as stored in `series_fts` (title, creators, tags): NFC, characters of unspaced scripts set apart.
 * Every writer of `series_fts` (seed, import) passes its columns through this, and queries use the same cut.
 */
export function ftsDocument(text: string): string {
  return text.normalize('NFC').replace(UNSPACED, ' $& ').replace(/\s+/g, ' ').trim()
}
