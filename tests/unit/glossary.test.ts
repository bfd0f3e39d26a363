import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync } from 'node:fs'
import { EDITION_IDS } from '../../src/lib/edition/schema.ts'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { finds, glossary, type Term } from './glossary.ts'

/**
 * One word per thing (issue 25): each edition's glossary (`editions/<id>/glossary.json`) names its currency and
 * its mileage balance (`words`: the forms of one word) and the synonyms the catalogue must not use (`not`).
 * Latin-script synonyms match at a word start ("coin" finds "Coins", "Coin-Shop", not "recoin"; a capitalised one, a
 * German noun, only capitalised: "Folge" finds "Folgen", not "folgenden"), other scripts anywhere.
 */
const withoutPlaceholders = (s: string) => s.replace(/\{\{\s*\w+\s*\}\}/g, '') // placeholders are not words
const uses = (text: string, term: Term) => term.words.some((w) => text.toLowerCase().includes(w.toLowerCase()))

/** Strings that name the thing itself: each must use the edition's word (the header, /my, the shop, the low-balance error). */
const NAMES = {
  currency: [
    'wallet.type.COIN',
    'account.my.coin',
    'account.my.coins',
    'account.my.coinDetail',
    'error.COIN_INSUFFICIENT',
    'wallet.shop.title',
    'account.my.entry.shop',
    'wallet.shop.coins_other',
  ],
  mileage: [
    'wallet.type.MILEAGE',
    'wallet.history.mileage',
    'account.my.coinDetail',
    'error.MILEAGE_INSUFFICIENT',
    'roulette.prize.MILEAGE_other',
    'wallet.source.MILEAGE',
    'benefit.description',
  ],
} as const

describe.each(EDITION_IDS)('the %s edition names its currency and its mileage one way', (id) => {
  const messages = loadEdition(id).messages
  const words = glossary(id)

  const things = Object.keys(words).filter((k) => !k.startsWith('$'))
  it.each(things)('%s: no catalogue string uses a synonym of the glossary word', (thing) => {
    const term = words[thing] as Term
    const found = Object.entries(messages).flatMap(([key, value]) =>
      term.not.filter((s) => finds(s).test(withoutPlaceholders(value))).map((s) => `${key}: "${s}" in "${value}"`),
    )
    expect(found).toEqual([])
  })

  it.each(things)('%s: no content page (editions/<id>/content/*.md: benefits, terms, privacy) uses a synonym', (thing) => {
    const term = words[thing] as Term
    const dir = new URL(`../../editions/${id}/content/`, import.meta.url)
    const found = readdirSync(dir).flatMap((file) =>
      term.not.filter((s) => finds(s).test(readFileSync(new URL(file, dir), 'utf8'))).map((s) => `${file}: "${s}"`),
    )
    expect(found).toEqual([])
  })

  it.each(['currency', 'mileage'] as const)('%s: every string naming it uses the glossary word', (thing) => {
    const missing = NAMES[thing].filter((key) => !uses(messages[key]!, words[thing])).map((key) => `${key}: "${messages[key]}"`)
    expect(missing).toEqual([])
  })

  // issue 35 point 6: a thing named by its catalogue key (th, ar: genre.ROMANCE) is that key's one word, everywhere
  const keyed = things.filter((thing) => thing in messages)
  for (const thing of keyed)
    it(`${thing}: the catalogue names it with the glossary word`, () => {
      expect((words[thing] as Term).words).toContain(messages[thing])
    })

  // a genre with a home tab (/home/romance) names it there with its genre word (de had "Romantik" over "Romance")
  it('each genre tab of the home page is labelled with its genre word', () => {
    const tabs = Object.keys(messages)
      .filter((key) => key.startsWith('hometab.') && `genre.${key.slice(8).toUpperCase()}` in messages)
      .map((key) => [key, messages[key], messages[`genre.${key.slice(8).toUpperCase()}`]])
    expect(tabs.length).toBeGreaterThan(0)
    expect(tabs.filter(([, tab, genre]) => tab !== genre)).toEqual([])
  })
})

describe('the glossary rule', () => {
  it('catches the words issue 25 found ("coins" beside "pièces", "miles" beside "points")', () => {
    const fr = glossary('fr')
    expect(fr.currency.not.some((s) => finds(s).test('Vous n’avez pas assez de coins.'))).toBe(true)
    expect(fr.mileage.not.some((s) => finds(s).test('Coins : 3 · miles : 3600'))).toBe(true)
    expect(fr.currency.not.some((s) => finds(s).test('Dans un recoin'))).toBe(false)
  })
})
