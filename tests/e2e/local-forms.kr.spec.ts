import { localFormsSuite } from './local-forms.ts'

/** Issue 35: 2026. 11. 29. and 1,400원 (not 1,400 ₩). */
localFormsSuite('kr', { price: /^[\d,]+원$/, date: /\b\d{4}\. \d{2}\. \d{2}\./ })
