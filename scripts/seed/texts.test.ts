import { describe, expect, it } from 'vitest'
import { EDITION_IDS } from '../../src/lib/edition/schema.ts'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { buildDemo, langOf } from './data.ts'
import { communityStatements } from './community.ts'
import { finds, terms } from '../../tests/unit/glossary.ts'

/** Where the demo shows a text to a reader: table → its visible columns. */
const SHOWN: Record<string, string[]> = {
  coin_products: ['label'],
  notices: ['title', 'body'],
  banners: ['title', 'subtitle'],
  gifts: ['title'],
  coupons: ['title'],
  faqs: ['question', 'answer'],
  events: ['title', 'description'],
  themes: ['title', 'description'],
  comments: ['body'],
  qnas: ['title', 'body', 'answer'],
  users: ['name', 'nickname'],
  series: ['description'],
  episodes: ['text_body'],
  episode_images: ['alt', 'transcript'],
}

/** Every text a reader of the demo can see in an edition of `locale`, as "table.column: text" (the transcripts line by line). */
function shown(locale: string): { where: string; text: string }[] {
  const { tables } = buildDemo({
    currency: 'EUR',
    locale,
    now: new Date('2026-11-25T12:00:00Z'),
    passwordHash: 'x',
    minorPasswordHash: 'y',
  })
  const seriesTitles = new Set(tables.series!.map((s) => s.title))
  const out: { where: string; text: string }[] = []
  for (const [table, columns] of Object.entries(SHOWN))
    for (const row of tables[table]!)
      for (const column of columns) {
        const value = row[column]
        if (typeof value !== 'string' || value === '' || seriesTitles.has(value)) continue // a series' title is its name in every language
        const texts =
          column === 'transcript'
            ? (JSON.parse(value) as { text: string; speaker?: string }[]).flatMap((l) => [l.text, l.speaker ?? ''])
            : [value]
        for (const text of texts.filter(Boolean)) out.push({ where: `${table}.${column}`, text })
      }
  return out
}

/** A sentence, not a name or a code: series titles, "WELCOME100", "iOS" and numbers are the same words everywhere. */
const sentence = (t: string) => /\s/.test(t.trim()) && !/^[\p{Lu}\d\s]+$/u.test(t)

/** A whole word (\b does not know "forêt" is one word). */
const words = (list: string) => new RegExp(`(?<!\\p{L})(${list})(?!\\p{L})`, 'iu')
/** English words no other language uses. */
const ENGLISH = words('the|and|your|you|with|of|is|are|for|image \\d+ of')
/** French words no other language uses. */
const FRENCH = words('pièces?|épisodes?|vous|votre|image \\d+ sur')

const editions = EDITION_IDS.map((id) => ({ id, locale: loadEdition(id).edition.locale }))
const fr = new Set(shown('fr-FR').map((s) => s.text))
const en = new Set(shown('en').map((s) => s.text))

describe("the demo content speaks each edition's language (issue 25)", () => {
  it.each(editions.filter((e) => langOf(e.locale) !== 'fr'))(
    '$id shows no French badge, notice, banner, gift, coupon, FAQ, event, theme, comment, question, name, novel or alt text',
    ({ locale }) => {
      const texts = shown(locale)
      expect(texts.length).toBeGreaterThan(100)
      expect(texts.filter((s) => sentence(s.text) && (fr.has(s.text) || FRENCH.test(s.text)))).toEqual([])
    },
  )

  it.each(editions.filter((e) => langOf(e.locale) !== 'en'))('$id shows no English text of the demo', ({ locale }) => {
    const texts = shown(locale)
    expect(texts.filter((s) => sentence(s.text) && (en.has(s.text) || ENGLISH.test(s.text)))).toEqual([])
  })

  it.each(editions)(
    '$id names the things of its glossary.json (currency, mileage, a genre…) in the demo with the words of its catalogue',
    ({ id, locale }) => {
      const texts = shown(locale)
      const found = terms(id).flatMap(([thing, term]) =>
        term.not.flatMap((s) => texts.filter((t) => finds(s).test(t.text)).map((t) => `${thing}: "${s}" in ${t.where} "${t.text}"`)),
      )
      expect(found).toEqual([])
    },
  )

  it.each(editions)("$id: a downloadable coupon's title does not repeat the amount its row already shows", ({ locale }) => {
    const { tables } = buildDemo({
      currency: 'EUR',
      locale,
      now: new Date('2026-11-25T12:00:00Z'),
      passwordHash: 'x',
      minorPasswordHash: 'y',
    })
    const downloadable = tables.coupons!.filter((c) => c.is_downloadable === 1)
    expect(downloadable.length).toBeGreaterThan(0)
    for (const c of downloadable) expect(String(c.title)).not.toContain(String(c.reward_amount))
  })

  it.each(editions)("$id: the series page's comments and the waiting question are in the edition's language too", ({ id, locale }) => {
    const sql = communityStatements(locale).join('\n')
    const foreign = [...(langOf(locale) === 'fr' ? [] : fr), ...en].filter((t) => sentence(t) && sql.includes(t.replaceAll("'", "''")))
    expect(foreign, id).toEqual([])
    expect(sql).not.toMatch(ENGLISH)
  })
})
