/**
 * Translations: i18next 27, one instance per locale built once and never mutated afterwards
 * (docs/CONVENTIONS.md). fr is the source catalogue; every edition has every key (tests/unit/messages.test.ts).
 */
import i18next, { type i18n } from 'i18next'
import type { MessageKey, PluralFormKey } from './keys.ts'
import { formatNumber } from './format.ts'

/** A key outside the source catalogue fails the type check (src/lib/i18n/keys.ts). */
export type Translate = (key: MessageKey | PluralFormKey, params?: Record<string, unknown>) => string

const instances = new Map<string, i18n>()

export function createTranslator(locale: string, messages: Record<string, string>): Translate {
  let instance = instances.get(locale)
  if (!instance) {
    instance = i18next.createInstance()
    // Every number put into a message is written the locale's way (issue 25: 3600 → "3 600", "3,600").
    instance.use({
      type: 'formatter',
      init() {},
      add() {},
      addCached() {},
      format: (value: unknown) => (typeof value === 'number' ? formatNumber(value, { locale }) : value),
    })
    void instance.init({
      lng: locale,
      fallbackLng: false,
      initAsync: false,
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false, alwaysFormat: true },
      resources: { [locale]: { translation: messages } },
      returnNull: false,
    })
    instances.set(locale, instance)
  }
  const t = instance.getFixedT(locale)
  // Messages never change after init: a key without parameters is looked up once (pages call t() hundreds of times).
  const plain = new Map<string, string>()
  return (key, params) => {
    if (params !== undefined) return t(key, params) as string
    let v = plain.get(key)
    if (v === undefined) plain.set(key, (v = t(key, {}) as string))
    return v
  }
}
