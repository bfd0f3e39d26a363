/**
 * Plural strings whose number is only known in the browser (islands, client scripts): the server renders every
 * form of an i18next plural key (`key_one`, `key_other`…, the categories of the edition's Intl.PluralRules) and the
 * browser picks one with the same rules, as i18next does with `count` on the server.
 */
import type { Translate } from './i18n.ts'
import type { PluralKey } from './keys.ts'
import { formatNumber } from './format.ts'

export type Plural = { locale: string; forms: Partial<Record<Intl.LDMLPluralRule, string>> }

const rules = new Map<string, Intl.PluralRules>()
function rulesFor(locale: string): Intl.PluralRules {
  let r = rules.get(locale)
  if (!r) rules.set(locale, (r = new Intl.PluralRules(locale)))
  return r
}

/** The locale's plural categories, asked once: `resolvedOptions()` builds a new object on every call. */
const categories = new Map<string, Intl.LDMLPluralRule[]>()

/** Every form of `key`, with `params` filled in (placeholders for the browser: `{ count: '{count}' }`). */
export function pluralForms(locale: string, t: Translate, key: PluralKey, params: Record<string, unknown>): Plural {
  let cs = categories.get(locale)
  if (!cs) categories.set(locale, (cs = rulesFor(locale).resolvedOptions().pluralCategories))
  const forms: Plural['forms'] = {}
  for (const c of cs) forms[c] = t(`${key}_${c}`, params)
  return { locale, forms }
}

/** The form of `p` for the number `n`, its `{count}` and other `{name}` placeholders filled in (`vars` first). */
export function pluralText(p: Plural, n: number, vars: Record<string, string | number> = {}): string {
  const text = p.forms[rulesFor(p.locale).select(n)] ?? p.forms.other ?? ''
  return fillIn(text, { count: formatNumber(n, p), ...vars })
}

/** A text the server rendered with `{name}` placeholders (`t(key, { name: '{name}' })`), filled in the browser. */
export function fillIn(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m))
}
