import { test } from '@playwright/test'
import { signInTo } from './helpers.ts'
import { couponAndHeader, demoWords } from './words.ts'

test('fr: a downloadable coupon offers its coins without saying they were added, and the desktop header keeps "Solde : … pièces" on one line (issue 25)', async ({
  page,
}) => {
  await signInTo(page, '/my')
  await couponAndHeader(page, 'fr')
})

test("fr: the series page names each episode once; the demo FAQ, events and themed picks are in the edition's language (issue 25)", async ({
  page,
}, info) => {
  await demoWords(page, 'fr', info)
})
