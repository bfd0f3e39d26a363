import { test } from '@playwright/test'
import { demoWords, editionWords, genreWord } from './words.ts'

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

test('the ar edition is written for its readers: punctuation, day list, numbers, fonts and line breaking (issue 25)', async ({
  page,
}, info) => {
  await editionWords(page, 'ar', info)
})

test("ar: the series page names each episode once; the demo FAQ, events and themed picks are in the edition's language (issue 25)", async ({
  page,
}, info) => {
  await demoWords(page, 'ar', info)
})

test("ar: one word for the romance genre on its tab, a series page and the series' blurb (issue 35 point 6)", async ({ page }, info) => {
  await genreWord(page, 'ar', info)
})
