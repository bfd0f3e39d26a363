import { describe, expect, it } from 'vitest'
import { checkKeyword, highlight, searchFaqs, type Faq } from './faq.ts'

describe('FAQ search (spec §5)', () => {
  it('refuses an empty or blank keyword and an overlong one', () => {
    expect(checkKeyword('')).toEqual({ ok: false, reason: 'empty' })
    expect(checkKeyword('   \t ')).toEqual({ ok: false, reason: 'empty' })
    expect(checkKeyword(null)).toEqual({ ok: false, reason: 'empty' })
    expect(checkKeyword('x'.repeat(101))).toEqual({ ok: false, reason: 'tooLong' })
    expect(checkKeyword('  pièces   bonus ')).toEqual({ ok: true, keyword: 'pièces bonus' })
  })

  const faqs: Faq[] = [
    { id: 1, category: 'COIN', question: 'Mes pièces bonus ont disparu.', answer: 'Elles expirent.' },
    { id: 2, category: 'ACCOUNT', question: 'Comment créer un compte ?', answer: 'Touchez « Inscription ».' },
  ]
  it('finds entries ignoring case and accents', () => {
    expect(searchFaqs(faqs, 'PIECES').map((f) => f.id)).toEqual([1])
    expect(searchFaqs(faqs, 'creer').map((f) => f.id)).toEqual([2])
    expect(searchFaqs(faqs, 'inscription').map((f) => f.id)).toEqual([2])
    expect(searchFaqs(faqs, 'zzz')).toEqual([])
  })

  it('marks every match in the original text', () => {
    expect(highlight('Pièces et pieces', 'PIECES')).toEqual([
      { text: 'Pièces', match: true },
      { text: ' et ', match: false },
      { text: 'pieces', match: true },
    ])
    expect(highlight('abc', 'x')).toEqual([{ text: 'abc', match: false }])
    expect(highlight('x', '')).toEqual([{ text: 'x', match: false }])
  })
})
