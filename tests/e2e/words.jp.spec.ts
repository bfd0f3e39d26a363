import { test } from '@playwright/test'
import { demoWords, editionWords, genreWord } from './words.ts'

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

test('the jp edition is written for its readers: punctuation, day list, numbers, fonts and line breaking (issue 25)', async ({
  page,
}, info) => {
  await editionWords(page, 'jp', info)
})

test("jp: the series page names each episode once; the demo FAQ, events and themed picks are in the edition's language (issue 25)", async ({
  page,
}, info) => {
  await demoWords(page, 'jp', info)
})

test("jp: one word for the thriller genre (サスペンス) on a series page and the series' blurb (issue 35 point 6)", async ({
  page,
}, info) => {
  await genreWord(page, 'jp', info, 'THRILLER')
})
