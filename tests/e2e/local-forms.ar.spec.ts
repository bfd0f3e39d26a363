import { localFormsSuite } from './local-forms.ts'

/** Issue 35: the locale's own date (day, month, year with right-to-left marks) and its dollar sign. */
localFormsSuite('ar', { price: /^US\$[\d٠-٩.,٫٬]+$/, date: /[\d٠-٩]{2}\u200f\/[\d٠-٩]{2}\u200f\/[\d٠-٩]{4}/ })
