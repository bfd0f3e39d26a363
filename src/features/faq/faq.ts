/** FAQ rules (spec §5: an empty FAQ search keyword is rejected): keyword check, search and highlight. */

export const FAQ_CATEGORIES = ['ACCOUNT', 'COIN', 'PAYMENT', 'VIEWER', 'EVENT', 'ETC'] as const
type FaqCategory = (typeof FAQ_CATEGORIES)[number]
export type Faq = { id: number; category: FaqCategory; question: string; answer: string }

/** Longest keyword accepted (a search box, not a document). */
export const MAX_KEYWORD_LENGTH = 100

export type KeywordCheck = { ok: true; keyword: string } | { ok: false; reason: 'empty' | 'tooLong' }

/** Spec §5: an empty (or blank) keyword is refused; spaces around it do not count. */
export function checkKeyword(raw: string | null | undefined): KeywordCheck {
  const keyword = (raw ?? '').replace(/\s+/g, ' ').trim()
  if (!keyword) return { ok: false, reason: 'empty' }
  if ([...keyword].length > MAX_KEYWORD_LENGTH) return { ok: false, reason: 'tooLong' }
  return { ok: true, keyword }
}

/** Lower case without accents, with a map from each folded character back to the source index. */
function fold(text: string): { folded: string; index: number[] } {
  let folded = ''
  const index: number[] = []
  let i = 0
  for (const ch of text) {
    const f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
    for (let k = 0; k < f.length; k++) index.push(i)
    folded += f
    i += ch.length
  }
  index.push(text.length)
  return { folded, index }
}

const foldKeyword = (k: string) => fold(k).folded

/** Text split into plain and matching parts (case- and accent-insensitive), for `<mark>`. */
export function highlight(text: string, keyword: string): { text: string; match: boolean }[] {
  const k = foldKeyword(keyword)
  if (!k) return [{ text, match: false }]
  const { folded, index } = fold(text)
  const parts: { text: string; match: boolean }[] = []
  let from = 0
  let at = folded.indexOf(k)
  while (at !== -1) {
    const start = index[at]!
    const end = index[at + k.length] ?? text.length
    if (start > from) parts.push({ text: text.slice(from, start), match: false })
    if (end > start) parts.push({ text: text.slice(start, end), match: true })
    from = Math.max(from, end)
    at = folded.indexOf(k, at + k.length)
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false })
  return parts
}

/** FAQ entries whose question or answer contains the keyword (case- and accent-insensitive). */
export function searchFaqs(faqs: Faq[], keyword: string): Faq[] {
  const k = foldKeyword(keyword)
  return faqs.filter((f) => fold(f.question).folded.includes(k) || fold(f.answer).folded.includes(k))
}
