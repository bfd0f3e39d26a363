import { test } from '@playwright/test'
import { editionJourney } from './journey.ts'

test('the th edition: home → a tab → a series → a free episode → the shop → login, in its own words', async ({ page }) => {
  await editionJourney(page, 'th')
})
