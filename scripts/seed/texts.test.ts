import { describe, expect, it } from 'vitest'
import { EDITION_IDS } from '../../src/lib/edition/schema.ts'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { buildDemo, langOf } from './data.ts'

/** The demo's visible short texts: shop badges, notice titles, banner titles (image alt), gifts, coupons, slice alt text. */
function shown(locale: string): string[] {
  const { tables } = buildDemo({
    currency: 'EUR',
    locale,
    now: new Date('2026-11-25T12:00:00Z'),
    passwordHash: 'x',
    minorPasswordHash: 'y',
  })
  const texts = (table: string, column: string) => tables[table]!.map((r) => r[column]).filter((v): v is string => typeof v === 'string')
  return [
    ...texts('coin_products', 'label'),
    ...texts('notices', 'title'),
    ...texts('banners', 'title'),
    ...texts('gifts', 'title'),
    ...texts('coupons', 'title'),
    ...texts('episode_images', 'alt').slice(0, 3),
  ]
}

describe("the demo content speaks each edition's language (issue 25)", () => {
  const english = new Set(shown('en'))

  it.each(EDITION_IDS.filter((id) => langOf(loadEdition(id).edition.locale) !== 'en'))(
    '%s shows no English badge, notice, banner, gift or alt text',
    (id) => {
      const texts = shown(loadEdition(id).edition.locale)
      // series titles and the code WELCOME100 are the same words everywhere: only sentences count
      expect(texts.filter((t) => english.has(t) && /\s/.test(t) && !/^[\p{Lu}\d]+$/u.test(t))).toEqual([])
      expect(texts.join(' ')).not.toMatch(/Welcome offer|Best value|image \d of \d|Scheduled maintenance/)
    },
  )
})
