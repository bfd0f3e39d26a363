import { describe, expect, it } from 'vitest'
import { formatCompact, formatList, formatMoney, formatNumber } from './format.ts'
import { formatDate, formatDateTime, formatDay } from './dates.ts'
import { episodeLabel, isNumberLabel } from './episode-label.ts'
import { loadEdition } from '../edition/load.ts'
import { createTranslator } from './i18n.ts'
import type { MessageKey } from './keys.ts'

describe('formatting through Intl', () => {
  const fr = loadEdition('fr').edition
  const of = (id: Parameters<typeof loadEdition>[0]) => loadEdition(id).edition
  it('writes dates as dd.MM.yyyy in fr and de, in the edition time zone', () => {
    expect(formatDate('2026-12-03T10:00:00Z', fr)).toBe('03.12.2026')
    // 23:30 UTC on 31 Dec is already 1 Jan in Paris
    expect(formatDate('2026-12-31T23:30:00Z', fr)).toBe('01.01.2027')
    expect(formatDate('2026-12-03T10:00:00Z', of('de'))).toBe('03.12.2026')
    expect(formatDay('2026-11-29', fr)).toBe('29.11.2026')
  })
  it('writes dates as each other edition’s readers do (issue 35 point 1)', () => {
    const at = '2026-11-29T03:00:00Z'
    expect(formatDate(at, of('jp'))).toBe('2026/11/29')
    expect(formatDate(at, of('tw'))).toBe('2026/11/29')
    expect(formatDate(at, of('kr'))).toBe('2026. 11. 29.')
    expect(formatDate(at, of('th'))).toBe('29/11/2569') // the Buddhist year
    expect(formatDate(at, of('ar'))).toMatch(/^(29|٢٩)\u200f\/(11|١١)\u200f\/(2026|٢٠٢٦)$/) // right-to-left marks between
    // 16:30 UTC on 31 Dec is already 1 Jan in Seoul; a schedule day is the same day everywhere
    expect(formatDate('2026-12-31T16:30:00Z', of('kr'))).toBe('2027. 01. 01.')
    expect(formatDay('2026-11-29', of('jp'))).toBe('2026/11/29')
  })
  it('writes "rented until" as date and 24-hour time in the edition time zone, nothing for a bad date', () => {
    expect(formatDateTime('2026-03-04T23:05:00.000Z', fr)).toBe('05.03.2026 00:05')
    expect(formatDateTime('2026-03-04T23:05:00.000Z', of('kr'))).toBe('2026. 03. 05. 08:05')
    expect(formatDateTime('2026-03-04T03:05:00.000Z', of('jp'))).toBe('2026/03/04 12:05')
    expect(formatDateTime('soon', fr)).toBe('')
  })
  it('writes prices as the edition’s readers do (issue 35 point 2)', () => {
    expect(formatMoney(499, fr)).toBe('€4,99')
    expect(formatMoney(499, of('de'))).toBe('4,99\u00a0€')
    expect(formatMoney(1400, of('kr'))).toBe('1,400원')
    expect(formatMoney(3000, of('tw'))).toBe('NT$30')
    expect(formatMoney(3050, of('tw'))).toBe('NT$30.50')
    expect(formatMoney(3500, of('th'))).toBe('฿35')
    expect(formatMoney(1400, of('jp'))).toBe('￥1,400')
    expect(formatMoney(199, of('ar'))).toMatch(/^US\$(1\.99|١٫٩٩)$/)
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
    const t = createTranslator(loadEdition(id).edition, loadEdition(id).messages)
    const label = (episodeTitle: string) =>
      episodeLabel(episodeTitle, t('episode.number', { no }), t('viewer.chain.episode', { no, title: episodeTitle }))
    expect(label(title)).toBe(t('episode.number', { no }))
    expect(label('')).toBe(t('episode.number', { no }))
    expect(label('Le retour')).toBe(t('viewer.chain.episode', { no, title: 'Le retour' }))
    expect(label('Le retour')).toContain('Le retour')
    expect(isNumberLabel(` ${t('episode.number', { no })} `, t('episode.number', { no }))).toBe(true)
  })
})

describe('a message with parameters', () => {
  it.each(['fr', 'de', 'th', 'tw', 'jp', 'kr', 'ar'] as const)(
    '%s: every message is filled in as i18next fills it, numbers the locale’s way',
    (id) => {
      const { edition, messages } = loadEdition(id)
      const t = createTranslator(edition, messages)
      let plain = 0
      for (const [key, message] of Object.entries(messages)) {
        const names = [...message.matchAll(/\{\{(\w+)/g)].map((m) => m[1]!)
        if (names.length === 0) continue
        for (const values of [
          [12345, 'Le retour'],
          ['{{no}} $& 第', 0],
        ]) {
          const params = Object.fromEntries(
            names.map((name, i) => [name, name === 'date' || /At$/.test(name) ? '2026-12-06T10:00:00Z' : values[i % 2]]),
          )
          // `context` (undefined: no context) sends the call to i18next itself
          expect(t(key as MessageKey, params), key).toBe(t(key as MessageKey, { ...params, context: undefined }))
        }
        plain++
      }
      expect(plain).toBeGreaterThan(150)
    },
  )

  it.each(['fr', 'de', 'th', 'tw', 'jp', 'kr', 'ar'] as const)('%s: a count picks the form i18next picks, for every plural key', (id) => {
    const { edition, messages } = loadEdition(id)
    const t = createTranslator(edition, messages)
    const bases = new Set(Object.keys(messages).flatMap((key) => /^(.+)_(zero|one|two|few|many|other)$/.exec(key)?.[1] ?? []))
    for (const base of bases)
      for (const count of [0, 1, 2, 3, 5, 11, 21, 100, 1.5, 12345]) {
        const params = Object.fromEntries(
          [...`${messages[`${base}_other`]}`.matchAll(/\{\{(\w+)/g)].map((m) => [m[1]!, m[1] === 'count' ? count : 'x']),
        )
        expect(t(base as MessageKey, { ...params, count }), `${base} ${count}`).toBe(
          t(base as MessageKey, { ...params, count, context: undefined }),
        )
      }
    expect(bases.size).toBeGreaterThan(20)
  })
})

describe("numbers and lists in the locale's way", () => {
  it('groups digits and joins lists as each language does', () => {
    expect(formatNumber(3600, { locale: 'fr-FR' })).toBe('3\u202f600')
    expect(formatNumber(3600, { locale: 'th-TH' })).toBe('3,600')
    expect(formatNumber(3600, { locale: 'fr-FR' }, true)).toBe('+3\u202f600') // a movement in a history
    expect(formatNumber(-10, { locale: 'fr-FR' }, true)).toBe('-10')
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

  it("a message's date parameter is written in its edition's form and time zone", () => {
    const messages = { 'error.SPENDING_LIMIT_REACHED': 'Remise à zéro le {{resetsAt, date}} ({{n}} pièces).' }
    const at = { resetsAt: '2026-12-31T23:00:00.000Z', n: 1200 }
    const paris = createTranslator({ locale: 'fr-CA', timeZone: 'Europe/Paris', dateForm: 'dotted' }, messages)
    expect(paris('error.SPENDING_LIMIT_REACHED', at).replace(/\s/g, ' ')).toBe('Remise à zéro le 01.01.2027 (1 200 pièces).')
    // the same locale elsewhere: the same instant is still the last day of the year there
    const montreal = createTranslator({ locale: 'fr-CA', timeZone: 'America/Toronto', dateForm: 'dotted' }, messages)
    expect(montreal('error.SPENDING_LIMIT_REACHED', at)).toContain('31.12.2026')
  })
})
