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
  const rules = new Intl.PluralRules(locale)
  // Messages never change after init: a key without parameters is looked up once (pages call t() hundreds of times),
  // a message with parameters is split at them once (i18next's interpolation was 10 % of a rendered series page)
  const plain = new Map<string, string>()
  const split = new Map<string, string[] | null>()
  const partsOf = (key: string) => {
    let parts = split.get(key)
    if (parts === undefined) split.set(key, (parts = plainParts(messages[key])))
    return parts
  }
  return (key, params) => {
    if (params === undefined) {
      let v = plain.get(key)
      if (v === undefined) plain.set(key, (v = t(key, {}) as string))
      return v
    }
    if ('context' in params) return t(key, params) as string
    // a numeric count picks its form as i18next does: `_zero` for 0 when the catalogue has one, the locale's
    // plural category, the key itself, then `_other` (a count given as text is only filled in)
    const count = params.count
    const form =
      typeof count !== 'number'
        ? key
        : [...(count === 0 ? [`${key}_zero`] : []), `${key}_${rules.select(count)}`, key, `${key}_other`].find((k) => k in messages)
    const parts = form === undefined ? null : partsOf(form)
    return (parts && fill(parts, params, edition)) ?? (t(key, params) as string)
  }
}

/**
 * A message whose parameters are all plain (`{{name}}`: no format, no nesting) split at them: text, name, text, …, text;
 * null for any other (i18next answers it).
 */
function plainParts(message: string | undefined): string[] | null {
  if (message === undefined || message.includes('$t(')) return null
  const parts = message.split(/\{\{(\w+)\}\}/)
  return parts.some((p, i) => i % 2 === 0 && p.includes('{{')) ? null : parts
}

/** The parts filled in as i18next would (numbers the locale's way); undefined when a parameter is missing. */
function fill(parts: string[], params: Record<string, unknown>, edition: DateEdition): string | undefined {
  let out = parts[0]!
  for (let i = 1; i < parts.length; i += 2) {
    const value = params[parts[i]!]
    if (value === undefined || value === null) return undefined
    out += String(formatValue(value, edition)) + parts[i + 1]!
  }
  return out
}
