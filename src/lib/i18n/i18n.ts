/**
 * Translations: i18next 27, one instance per edition form (locale, time zone, date form) built once and never mutated afterwards
 * (docs/CONVENTIONS.md). fr is the source catalogue; every edition has every key (tests/unit/messages.test.ts).
 */
import i18next, { type i18n } from 'i18next'
import type { MessageKey, PluralFormKey } from './keys.ts'
import { formatNumber } from './format.ts'
import { formatDate, type DateEdition } from './dates.ts'

/** A key outside the source catalogue fails the type check (src/lib/i18n/keys.ts). */
export type Translate = (key: MessageKey | PluralFormKey, params?: Record<string, unknown>) => string

const instances = new Map<string, i18n>()

/**
 * A parameter as a message writes it: a date asked for with `{{name, date}}` in the edition's form and time zone
 * (`formatDate`), a number the locale's way (issue 25: 3600 → "3 600", "3,600"), else as given.
 */
const formatValue = (value: unknown, edition: DateEdition, format?: string) => {
  if (format === 'date') return formatDate(value as string | Date, edition)
  return typeof value === 'number' ? formatNumber(value, edition) : value
}

/** The translator of an edition's catalogue (its locale, and its dates' form and time zone for `{{x, date}}`). */
export function createTranslator(edition: DateEdition, messages: Record<string, string>): Translate {
  const { locale } = edition
  const cacheKey = `${locale} ${edition.timeZone} ${edition.dateForm}`
  let instance = instances.get(cacheKey)
  if (!instance) {
    instance = i18next.createInstance()
    instance.use({
      type: 'formatter',
      init() {},
      add() {},
      addCached() {},
      format: (value: unknown, format?: string) => formatValue(value, edition, format),
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
    instances.set(cacheKey, instance)
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

const OPEN = '\u0001'

/**
 * `key`'s message translated once with its parameters `names` left open; the answer fills them in as `t` would (numbers
 * the locale's way). For long lists, where a `t` call per row adds up (a series page's 2 labels × its episodes).
 */
export function openMessage(
  t: Translate,
  edition: DateEdition,
  key: MessageKey,
  names: readonly string[],
): (values: Record<string, string | number>) => string {
  // the message split at its parameters: text, name, text, name, …, text
  const parts = t(key, Object.fromEntries(names.map((name) => [name, `${OPEN}${name}${OPEN}`]))).split(OPEN)
  return (values) => parts.map((part, i) => (i % 2 === 0 ? part : String(formatValue(values[part], edition)))).join('')
}
