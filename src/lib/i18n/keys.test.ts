import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createTranslator } from './i18n.ts'

describe('typed message keys', () => {
  it('reads every message file of fr, the source', () => {
    const source = readFileSync(new URL('./keys.ts', import.meta.url), 'utf8')
    const typed = [...source.matchAll(/editions\/fr\/messages\/([\w-]+\.json)'/g)].map((m) => m[1]).sort()
    const files = readdirSync(new URL('../../../editions/fr/messages/', import.meta.url))
      .filter((f) => f.endsWith('.json'))
      .sort()
    expect(typed).toEqual(files)
  })

  it('refuses a key outside the catalogue at type check (tsc fails if the directives below are not needed)', () => {
    const t = createTranslator({ locale: 'fr-FR', timeZone: 'Europe/Paris', dateForm: 'dotted' }, { 'wallet.shop.title': 'Boutique' })
    expect(t('wallet.shop.title')).toBe('Boutique')
    // @ts-expect-error a mistyped key
    expect(t('wallet.shop.titel')).toBe('wallet.shop.titel')
    // @ts-expect-error any string: a key built from data is typed as a template over known values instead
    expect(t(String('wallet.shop.title'))).toBe('Boutique')
  })
})
