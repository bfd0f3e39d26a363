import { localFormsSuite } from './local-forms.ts'

/** Issue 35: 2026/11/29 and ￥1,400. */
localFormsSuite('jp', { price: /^￥[\d,]+$/, date: /\b\d{4}\/\d{2}\/\d{2}\b/ })
