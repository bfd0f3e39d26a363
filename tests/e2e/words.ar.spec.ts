import { test } from '@playwright/test'
import { editionWords } from './words.ts'

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

test('the ar edition is written for its readers: punctuation, day list, numbers, fonts and line breaking (issue 25)', async ({
  page,
}, info) => {
  await editionWords(page, 'ar', info)
})
