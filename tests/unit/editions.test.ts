import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { EDITION_IDS, parseEdition } from '../../src/lib/edition/schema.ts'
import { loadEdition, loadMessages } from '../../src/lib/edition/load.ts'

const raw = (id: string) => JSON.parse(readFileSync(new URL(`../../editions/${id}/edition.json`, import.meta.url), 'utf8'))
const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

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
  const fr = loadMessages('fr')

  it('fr, the source, is not empty', () => {
    expect(Object.keys(fr).length).toBeGreaterThan(50)
  })

  it.each(EDITION_IDS.filter((id) => id !== 'fr'))('%s has exactly the keys of fr, translated, with the same placeholders', (id) => {
    const other = loadMessages(id)
    const missing = Object.keys(fr).filter((k) => !(k in other))
    const extra = Object.keys(other).filter((k) => !(k in fr))
    expect({ missing, extra }).toEqual({ missing: [], extra: [] })
    for (const [key, text] of Object.entries(other)) {
      expect(text.trim(), `${id} ${key}`).not.toBe('')
      expect(vars(text), `${id} ${key}`).toEqual(vars(fr[key]!))
    }
  })
})
