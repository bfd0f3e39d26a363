import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { EDITION_IDS, parseEdition } from '../../src/lib/edition/schema.ts'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { createTranslator } from '../../src/lib/i18n/i18n.ts'

const raw = (id: string) => JSON.parse(readFileSync(new URL(`../../editions/${id}/edition.json`, import.meta.url), 'utf8'))
const vars = (s: string) => [...new Set([...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!))].sort()
/** i18next plural keys: `base_category`, one per category of the locale's Intl.PluralRules. */
const PLURAL = /_(zero|one|two|few|many|other)$/
const base = (key: string) => key.replace(PLURAL, '')
const categories = (id: string) => new Intl.PluralRules(loadEdition(id).edition.locale).resolvedOptions().pluralCategories

describe('editions', () => {
  it.each(EDITION_IDS)('%s parses against the schema', (id) => {
    expect(loadEdition(id).edition.id).toBe(id)
  })

  it('ar is right-to-left and the others left-to-right', () => {
    for (const id of EDITION_IDS) expect(loadEdition(id).edition.direction).toBe(id === 'ar' ? 'rtl' : 'ltr')
  })

  it('only de redirects everything', () => {
    for (const id of EDITION_IDS) expect(Boolean(loadEdition(id).edition.redirectAllUrl)).toBe(id === 'de')
  })

  it('names the edition and the field of a bad file', () => {
    const bad = { ...raw('th'), timeZone: 'Mars/Olympus', currency: 'euro' }
    expect(() => parseEdition('th', bad)).toThrow(/Edition "th".*\n.*timeZone/s)
    expect(() => parseEdition('th', bad)).toThrow(/currency/)
    expect(() => parseEdition('fr', { ...raw('fr'), unknownSwitch: true })).toThrow(/Edition "fr"/)
    expect(() => parseEdition('kr', raw('fr'))).toThrow(/id is "fr", expected "kr"/)
  })

  it('refuses an unknown edition id', () => {
    expect(() => loadEdition('xx')).toThrow(/Unknown edition "xx"/)
  })
})

describe('message catalogues', () => {
  const fr = loadEdition('fr').messages

  it('fr, the source, is not empty', () => {
    expect(Object.keys(fr).length).toBeGreaterThan(50)
  })

  it.each(EDITION_IDS.filter((id) => id !== 'fr'))('%s has exactly the keys of fr, translated, with the same placeholders', (id) => {
    const other = loadEdition(id).messages
    const bases = (m: Record<string, string>) => [...new Set(Object.keys(m).map(base))]
    const missing = bases(fr).filter((k) => !(k in other) && !(`${k}_other` in other))
    const extra = bases(other).filter((k) => !(k in fr) && !(`${k}_other` in fr))
    expect({ missing, extra }).toEqual({ missing: [], extra: [] })
    for (const [key, text] of Object.entries(other)) {
      expect(text.trim(), `${id} ${key}`).not.toBe('')
      // A plural form may leave the number out ("عملتان", two coins), never add a placeholder; `other` has them all.
      const source = vars(fr[key] ?? fr[`${base(key)}_other`]!)
      if (PLURAL.test(key) && !key.endsWith('_other')) expect(source, `${id} ${key}`).toEqual(expect.arrayContaining(vars(text)))
      else expect(vars(text), `${id} ${key}`).toEqual(source)
    }
  })

  const pluralBases = [
    ...new Set(
      Object.keys(fr)
        .filter((k) => PLURAL.test(k))
        .map(base),
    ),
  ]

  it('fr has plural keys (every string whose wording depends on a number)', () => {
    expect(pluralBases).toEqual(
      expect.arrayContaining(['wallet.shop.coins', 'roulette.tickets', 'faq.resultCount', 'community.comment.count']),
    )
  })

  it.each(EDITION_IDS)('%s has exactly the plural forms its language needs, for every plural key of fr', (id) => {
    const messages = loadEdition(id).messages
    const needed = [...categories(id)].sort()
    for (const key of pluralBases) {
      const present = Object.keys(messages)
        .filter((k) => base(k) === key && PLURAL.test(k))
        .map((k) => k.slice(key.length + 1))
        .sort()
      expect(present, `${id} ${key}`).toEqual(needed)
      expect(key in messages, `${id} ${key} without a plural suffix`).toBe(false)
    }
    for (const [key, text] of Object.entries(messages)) {
      if (!PLURAL.test(key) && /\{\{count\}\}/.test(text))
        expect(
          [
            'account.findId.found',
            'community.comment.form.counter',
            'community.comment.like',
            'community.comment.dislike',
            'wallet.shop.perUser',
          ],
          `${id} ${key} counts without plural forms`,
        ).toContain(key)
    }
  })

  it.each(EDITION_IDS)('%s: a number stays with its word and its unit (no-break spaces: "Épisode 6", "24 h", "100 %")', (id) => {
    const loose = Object.entries(loadEdition(id).messages).filter(
      ([, value]) => / \{\{no\}\}/.test(value) || /\}\} (%|h|Std\.|ชม\.|ساعة)(?=$|[\s.,)）:;!?])/u.test(value),
    )
    expect(loose.map(([key]) => key)).toEqual([])
  })

  it('renders singular and plural through the real i18n instance', () => {
    const t = (id: string) => createTranslator(loadEdition(id).edition, loadEdition(id).messages)
    const frT = t('fr')
    expect([0, 1, 2, 1_000_000].map((count) => frT('wallet.shop.coins', { count }))).toEqual([
      '0 pièce',
      '1 pièce',
      '2 pièces',
      '1\u202f000\u202f000 de pièces',
    ])
    expect(frT('faq.resultCount', { count: 1, q: 'vampire' })).toBe('1 résultat pour « vampire »')
    expect(frT('wallet.buy.rent', { count: 72, coins: frT('wallet.shop.coins', { count: 1 }) })).toBe('Louer 72\u00a0h (1 pièce)')
    const deT = t('de')
    expect([1, 2].map((count) => deT('wallet.shop.coins', { count }))).toEqual(['1 Münze', '2 Münzen'])
    expect(t('jp')('wallet.shop.coins', { count: 1 })).toBe('1コイン')
    // every number through Intl.NumberFormat (issue 25: mileage 3600 beside ฿1,399.00)
    expect(t('th')('account.my.coinDetail', { coin: 3600, bonus: 0, free: 0, mileage: 12500 })).toContain('คะแนน: 12,500')
    expect(frT('account.my.coinDetail', { coin: 3600, bonus: 0, free: 0, mileage: 0 })).toContain('Pièces : 3\u202f600')
    const arT = t('ar')
    const ar = [0, 1, 2, 3, 11, 100].map((count) => arT('roulette.tickets', { count }))
    expect(ar).toEqual(['لا توجد تذاكر', 'تذكرة واحدة', 'تذكرتان', '3 تذاكر', '11 تذكرةً', '100 تذكرة'])
    const wording = [0, 1, 2, 3, 11, 100].map((count) => arT('wallet.shop.coins', { count }).replace(/\d+/, '#'))
    expect(new Set(wording).size, wording.join(' | ')).toBe(5) // 0 and 100 both read "# عملة"
  })
})
