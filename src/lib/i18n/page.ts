/** The build's edition and its translator, for Astro pages and components (one edition per worker). */
import { edition, messages } from 'virtual:edition'
import { createTranslator } from './i18n.ts'

export { edition }
export const t = createTranslator(edition.locale, messages)
