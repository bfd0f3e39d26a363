import { describe, expect, it } from 'vitest'
import { createTranslator } from './i18n.ts'
import { pluralForms, pluralText } from './plural.ts'

// A real key (t accepts only those, src/lib/i18n/keys.ts) with this test's own wording.
const key = 'wallet.shop.coins'
const messages = {
  [`${key}_one`]: '{{count}} pièce ({{what}})',
  [`${key}_many`]: '{{count}} de pièces ({{what}})',
  [`${key}_other`]: '{{count}} pièces ({{what}})',
}

describe('plural forms filled in the browser', () => {
  const t = createTranslator({ locale: 'fr-FR', timeZone: 'Europe/Paris', dateForm: 'dotted' }, messages)
  const forms = pluralForms('fr-FR', t, key, { count: '{count}', what: '{what}' })

  it('renders every form of the locale with the placeholders left for the browser', () => {
    expect(forms).toEqual({
      locale: 'fr-FR',
      forms: { one: '{count} pièce ({what})', many: '{count} de pièces ({what})', other: '{count} pièces ({what})' },
    })
  })

  it('picks the form the way i18next does on the server', () => {
    for (const n of [0, 1, 2, 17, 1_000_000]) expect(pluralText(forms, n, { what: 'x' })).toBe(t(key, { count: n, what: 'x' }))
    expect(pluralText(forms, 1000, { count: '1 000', what: 'x' })).toBe('1 000 pièces (x)')
  })

  it('uses the other form when a category is missing', () => {
    expect(pluralText({ locale: 'ar', forms: { other: '{count} عملة' } }, 2)).toBe('2 عملة')
  })
})
