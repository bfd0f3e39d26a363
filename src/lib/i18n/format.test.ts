import { describe, expect, it } from 'vitest'
import { episodeLabel, formatCompact, formatDate, formatList, formatMoney, formatNumber, isNumberLabel } from './format.ts'
import { loadEdition, loadMessages } from '../edition/load.ts'
import { createTranslator } from './i18n.ts'

describe('formatting through Intl', () => {
  const fr = loadEdition('fr').edition
  it('writes dates as dd.MM.yyyy in the edition time zone', () => {
    expect(formatDate('2026-12-03T10:00:00Z', fr)).toBe('03.12.2026')
    // 23:30 UTC on 31 Dec is already 1 Jan in Paris and in Seoul
    expect(formatDate('2026-12-31T23:30:00Z', fr)).toBe('01.01.2027')
    expect(formatDate('2026-12-31T16:30:00Z', loadEdition('kr').edition)).toBe('01.01.2027')
  })
  it('puts the currency symbol where the edition says', () => {
    expect(formatMoney(499, fr)).toMatch(/^€4,99$/)
    expect(formatMoney(499, loadEdition('de').edition)).toMatch(/^4,99\u00a0€$/)
    expect(formatMoney(1200, loadEdition('kr').edition)).toMatch(/^1,200\u00a0₩$/)
  })
})

describe('labels never repeat their own number (issue 25)', () => {
  it.each([
    ['fr', 'Épisode 6', 6],
    ['jp', '第2話', 2],
    ['th', 'ตอนที่ 2', 2],
    ['tw', '第 2 話', 2],
    ['kr', '2화', 2],
    ['ar', 'الحلقة 2', 2],
    ['de', 'Episode 2', 2],
  ] as const)('%s: an episode titled "%s" is shown once', (id, title, no) => {
    const t = createTranslator(loadEdition(id).edition.locale, loadMessages(id))
    const label = (episodeTitle: string) =>
      episodeLabel(episodeTitle, t('episode.number', { no }), t('viewer.chain.episode', { no, title: episodeTitle }))
    expect(label(title)).toBe(t('episode.number', { no }))
    expect(label('')).toBe(t('episode.number', { no }))
    expect(label('Le retour')).toBe(t('viewer.chain.episode', { no, title: 'Le retour' }))
    expect(label('Le retour')).toContain('Le retour')
    expect(isNumberLabel(` ${t('episode.number', { no })} `, t('episode.number', { no }))).toBe(true)
  })
})

describe("numbers and lists in the locale's way", () => {
  it('groups digits and joins lists as each language does', () => {
    expect(formatNumber(3600, { locale: 'fr-FR' })).toBe('3\u202f600')
    expect(formatNumber(3600, { locale: 'th-TH' })).toBe('3,600')
    // view counts, short: "12,3 k vues" on the detail page
    expect(formatCompact(12_345, { locale: 'fr-FR' })).toBe('12,3\u00a0k')
    expect(formatCompact(12_345, { locale: 'ja-JP' })).toBe('1.2万')
    expect(formatCompact(1_234_567, { locale: 'de-DE' })).toBe('1,2\u00a0Mio.')
    expect(formatCompact(7, { locale: 'ar' })).toBe(formatNumber(7, { locale: 'ar' }))
    expect(formatList(['日曜日', '水曜日', '金曜日'], { locale: 'ja-JP' })).toBe('日曜日、水曜日、金曜日')
    expect(formatList(['週日', '週三'], { locale: 'zh-TW' })).toBe('週日和週三')
    expect(formatList(['dimanche', 'mercredi'], { locale: 'fr-FR' })).toBe('dimanche et mercredi')
    expect(formatList(['الأحد', 'الأربعاء'], { locale: 'ar' })).not.toContain(',')
  })
})
