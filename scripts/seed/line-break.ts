/**
 * Line breaking of the demo images' text (scripts/seed/drawing.ts): lines within an estimated width, cut where each
 * language allows. Node only.
 */
import type { Lang } from './data.ts'

/** BCP 47 tag of each demo language: `xml:lang` of the drawing, so the shaper picks the language's forms. */
export const TAG: Record<Lang, string> = { fr: 'fr', de: 'de', en: 'en', ja: 'ja', ko: 'ko', zh: 'zh-Hant', th: 'th', ar: 'ar' }

/** Full-width characters: ideographs, kana, Hangul, CJK punctuation and full-width forms (about 1 em each). */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u
/** Estimated advance of a text in em: wide characters 1, marks (Thai vowels and tones, Arabic vowels) 0, others 0.6. */
function ems(text: string): number {
  let w = 0
  for (const ch of text) w += /\p{M}/u.test(ch) ? 0 : WIDE.test(ch) ? 1 : 0.6
  return w
}

/** Punctuation that never starts a line (Japanese and Chinese line breaking). */
const NO_LINE_START = /^[、。，．,.!?！？・ー）」』〉》…:：;；]/u

/**
 * Greedy line breaking within `maxEm` (estimated with `ems`), at most `maxLines` lines, the last one cut with "…".
 * Breaks at word boundaries as the language cuts words (Intl.Segmenter: Thai and Japanese are written without
 * spaces), inside a word only when it is wider than a line (between graphemes, never inside a cluster).
 */
export function wrap(text: string, maxEm: number, maxLines: number, lang: Lang): string[] {
  const words = [...new Intl.Segmenter(TAG[lang], { granularity: 'word' }).segment(text)].map((s) => s.segment)
  const graphemes = (w: string) => [...new Intl.Segmenter(TAG[lang], { granularity: 'grapheme' }).segment(w)].map((s) => s.segment)
  const lines: string[] = []
  let line = ''
  const place = (piece: string) => {
    if (line.trim() === '' && piece.trim() === '') return
    if (!line || ems((line + piece).trimEnd()) <= maxEm || NO_LINE_START.test(piece)) line += piece
    else {
      lines.push(line.trim())
      line = piece.trimStart()
    }
  }
  for (const word of words) {
    if (ems(word) <= maxEm) place(word)
    else {
      // a word wider than a line starts one and is cut where it overflows (with a hyphen in Latin script)
      if (line.trim()) lines.push(line.trim())
      line = ''
      const hyphen = /\p{Script=Latin}/u.test(word) ? '-' : ''
      for (const g of graphemes(word)) {
        if (line && ems(line + g + hyphen) > maxEm) {
          lines.push(line + hyphen)
          line = ''
        }
        line += g
      }
    }
  }
  if (line.trim()) lines.push(line.trim())
  if (lines.length <= maxLines) return lines
  const kept = lines.slice(0, maxLines)
  let last = graphemes(kept[maxLines - 1]!)
  while (last.length > 1 && ems(last.join('') + '…') > maxEm) last = last.slice(0, -1)
  kept[maxLines - 1] = last.join('').trimEnd() + '…'
  return kept
}
