import { test } from '@playwright/test'
import { signInTo } from './helpers.ts'
import { couponAndHeader } from './words.ts'

test('fr: a downloadable coupon offers its coins without saying they were added, and the desktop header keeps "Solde : … pièces" on one line (issue 25)', async ({
  page,
}) => {
  await signInTo(page, '/my')
  await couponAndHeader(page, 'fr')
})
