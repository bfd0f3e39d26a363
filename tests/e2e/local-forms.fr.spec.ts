import { localFormsSuite } from './local-forms.ts'

/** Issue 35: fr keeps spec §9's dd.MM.yyyy and its symbol in front (spec §1). */
localFormsSuite('fr', { price: /^€\d+,\d{2}$/, date: /\b\d{2}\.\d{2}\.\d{4}\b/ })
