import { localFormsSuite } from './local-forms.ts'

/** Issue 35: the Buddhist year (29/11/2569) and ฿35 (no .00 on a whole price). */
localFormsSuite('th', { price: /^฿[\d,]+(\.(?!00)\d{2})?$/, date: /\b\d{2}\/\d{2}\/25\d{2}\b/ })
