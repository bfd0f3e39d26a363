/** The build's edition and its translator, for Astro pages and components (one edition per worker). */
import { edition, messages } from 'virtual:edition'
import { createTranslator } from './i18n.ts'
import { pluralForms } from './plural.ts'
import type { PluralKey } from './keys.ts'

export { edition }
export const t = createTranslator(edition, messages)

/** Every plural form of a key, for a template the browser fills (src/lib/i18n/plural.ts). */
export const plural = (key: PluralKey, params: Record<string, unknown>) => pluralForms(edition.locale, t, key, params)
