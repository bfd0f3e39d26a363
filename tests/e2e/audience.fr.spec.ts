import { expect, test, type Page } from '@playwright/test'
import { newMember, noSeriousViolations, signInTo } from './helpers.ts'

/**
 * Issue 11 in Chromium: each audience class walks home → the mature tab → search → an adult series' page and
 * sees what it may. Pages are cached per class: a signed-in adult's second view of a catalogue page is an
 * edge-cache hit, and no other class is ever given it.
 */

const ADULT_SERIES = '/detail/7' // La Secrétaire du PDG, adult in the demo
const ADULT_TITLE = 'Nuits de velours'
const MINOR = { email: 'minor@example.com', password: 'Minor-2026!' }

const adultCards = (page: Page) => page.locator('main .series-grid').getByRole('link', { name: ADULT_TITLE })

async function walk(page: Page, expected: { sees: boolean; gate: RegExp | null }) {
  expect((await page.goto('/'))!.status()).toBe(200)
  await page.goto('/home/mature')
  if (expected.sees) await expect(adultCards(page)).toBeVisible()
  else {
    await expect(page.locator('main .series-grid')).toHaveCount(0)
    await expect(page.locator('.adult-gate')).toContainText(expected.gate!)
  }
  await page.goto('/search?keyword=velours')
  await expect(page.getByRole('link', { name: ADULT_TITLE })).toHaveCount(expected.sees ? 1 : 0)
  const detail = await page.goto(ADULT_SERIES)
  expect(detail!.status()).toBe(expected.sees ? 200 : 403)
}

test('a guest gets the login route with the way back, and no adult series anywhere', async ({ page }) => {
  await walk(page, { sees: false, gate: /réservé aux adultes/ })
  await expect(page.getByRole('link', { name: 'Se connecter' })).toHaveAttribute(
    'href',
    `/user/login?callback=${encodeURIComponent(ADULT_SERIES)}`,
  )
})

test('a signed-in adult sees adult series in lists, search and detail; the second view is an edge-cache hit', async ({ page }) => {
  await signInTo(page, '/')
  await walk(page, { sees: true, gate: null })
  await expect(page.getByRole('heading', { level: 2, name: /Épisodes/ })).toBeVisible()
  await page.goto('/home/mature')
  const again = await page.goto('/home/mature')
  expect(again!.headers()['x-edge-cache']).toBe('HIT')
  // the session check is one call to the reader's object: no D1 query
  expect(again!.headers()['x-d1-queries']).toBeUndefined()
  expect(again!.headers()['x-reader-calls']).toBe('1')
  expect(again!.headers()['cache-control']).toBe('private, max-age=0')
  await noSeriousViolations(page)
})

test('a minor gets a clear refusal, never the age check nor a login link', async ({ page }) => {
  await signInTo(page, '/', MINOR)
  await walk(page, { sees: false, gate: /date de naissance de votre compte/ })
  await expect(page.getByRole('alert')).toHaveText(/date de naissance de votre compte/)
  await expect(page.locator('main').getByRole('link', { name: 'Se connecter' })).toHaveCount(0)
})

test('a member who only lacks the age check gets the age popup on the adult page, then the series', async ({ page }) => {
  const member = await newMember(page)
  await signInTo(page, '/', member)
  await walk(page, { sees: false, gate: /réservé aux adultes/ })
  const dialog = page.getByRole('dialog', { name: "Vérification de l'âge" })
  await expect(dialog).toBeVisible() // opened by itself, no login link
  await dialog.getByLabel('Année').selectOption('1990')
  await dialog.getByRole('button', { name: /1990/ }).first().click()
  await dialog.getByRole('button', { name: 'Confirmer' }).click()
  await expect(page.getByRole('heading', { level: 2, name: /Épisodes/ })).toBeVisible() // the class changed: the page shows the series
  await page.goto('/home/mature')
  await expect(adultCards(page)).toBeVisible()
})

test('the adult-content switch on /setting changes every page at once, both ways', async ({ page }) => {
  const member = await newMember(page)
  await signInTo(page, '/', member)
  const verified = await page.request.put('/api/v1/user/adult', {
    data: { birthedAt: '1988-02-03' },
    headers: { origin: new URL(page.url()).origin },
  })
  expect(verified.status()).toBe(200)
  await page.goto('/setting')
  const adult = page.getByRole('switch', { name: 'Contenus pour adultes' })
  await expect(adult).toHaveAttribute('aria-checked', 'true')
  await adult.click()
  await expect(page.getByRole('switch', { name: 'Contenus pour adultes' })).toHaveAttribute('aria-checked', 'false')
  await page.goto('/search?keyword=velours')
  await expect(page.getByRole('link', { name: ADULT_TITLE })).toHaveCount(0)
  await page.goto('/home/mature')
  await expect(page.locator('main .series-grid')).toHaveCount(0)
  await page.getByRole('button', { name: 'Afficher les contenus pour adultes' }).click()
  await expect(adultCards(page)).toBeVisible()
})
