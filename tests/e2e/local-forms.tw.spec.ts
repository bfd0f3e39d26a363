import { localFormsSuite } from './local-forms.ts'

/** Issue 35: 2026/11/29 and NT$30 (not $30.00, which reads as US dollars). */
localFormsSuite('tw', { price: /^NT\$[\d,]+(\.(?!00)\d{2})?$/, date: /\b\d{4}\/\d{2}\/\d{2}\b/ })
