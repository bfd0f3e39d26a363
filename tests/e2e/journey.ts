import { expect, type Page } from '@playwright/test'
import { readFileSync, readdirSync } from 'node:fs'
import { parseEdition, type Edition } from '../../src/lib/edition/schema.ts'
import { formatMoney } from '../../src/lib/i18n/format.ts'
import { formatDate } from '../../src/lib/i18n/dates.ts'
import { askAge, seriousViolations } from './helpers.ts'

/** Every message of an edition's catalogues (plural keys by their `_other` form). */
export function messagesOf(id: string): (key: string) => string {
  const all: Record<string, string> = {}
  for (const file of readdirSync(`editions/${id}/messages`))
    Object.assign(all, JSON.parse(readFileSync(`editions/${id}/messages/${file}`, 'utf8')))
  return (key) => {
    const text = all[key] ?? all[`${key}_other`]
    if (text === undefined) throw new Error(`${id}: no message ${key}`)
    return text
  }
}

export function editionOf(id: string): Edition {
  return parseEdition(id, JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')))
}

/** Labels of the shell and the journey's pages that must never show in French outside fr. */
const WATCHED = [
  'nav.home',
  'nav.shop',
  'nav.search',
  'nav.my',
  'hometab.free',
  'hometab.ranking',
  'detail.related',
  'footer.notice',
  'auth.login.title',
  'auth.login.email',
  'wallet.shop.title',
]

/**
 * Issue 14 item 2: one reader's journey through an edition — home → a tab → a series → a free episode in the
 * viewer → the coin shop → the login page — asserting on every page the edition's language (labels from its own
 * catalogue, no French label left outside fr), `lang`/`dir`, dates and prices as the edition writes them (its
 * time zone, Intl with its locale and currency), its age-check style, and no serious or critical axe violation.
 */
export async function editionJourney(page: Page, id: string) {
  const edition = editionOf(id)
  const t = messagesOf(id)
  const fr = messagesOf('fr')
  const violations: string[] = []
  const check = async (where: string) => {
    await expect(page.locator('html')).toHaveAttribute('lang', edition.locale)
    await expect(page.locator('html')).toHaveAttribute('dir', edition.direction)
    // the viewer's own compact bar stands in for the site navigation (issue 25 point 1)
    const nav = /\/viewer\//.test(page.url())
      ? page.locator('.viewer-bar').getByRole('link', { name: t('viewer.backToSeries') })
      : page
          .getByRole('navigation', { name: t('nav.main') })
          .getByRole('link', { name: t('nav.shop') })
          .first()
    await expect(nav).toBeVisible()
    if (id !== 'fr') {
      const body = await page.locator('body').innerText()
      for (const key of WATCHED) if (fr(key) !== t(key)) expect(body, `French "${fr(key)}" on ${where} (${id})`).not.toContain(fr(key))
    }
    violations.push(...(await seriousViolations(page)).map((v) => `${where}: ${v}`))
  }

  await page.goto('/')
  await check('home')
  await page
    .getByRole('navigation', { name: t('hometab.nav') })
    .getByRole('link', { name: t('hometab.free') })
    .click()
  await expect(page).toHaveURL(/\/home\/free$/)
  await check('free tab')

  // a series with a free episode, from the tab's list
  const card = page.locator('main .series-grid a').first()
  const title = (await card.innerText()).trim()
  await card.click()
  await expect(page).toHaveURL(/\/detail\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  const seriesId = Number(/\/detail\/(\d+)$/.exec(page.url())![1])
  const detail = (await (await page.request.get(`/api/v1/contents/${seriesId}`)).json()).data
  const first = detail.episodes[0]
  // the date in the edition's form, then its likes when a reader liked it (other suites may have, on a reused local state)
  const date = formatDate(first.publishedAt, edition)
  await expect(page.locator(`li[data-ep="${first.id}"] .date`)).toHaveText(new RegExp(`^${date.replace(/[.]/g, '\\.')}(?:·|$)`))
  await check('series page')

  const free = detail.episodes.find((e: { free: boolean }) => e.free)
  await page.locator(`li[data-ep="${free.id}"] a`).click()
  await expect(page).toHaveURL(new RegExp(`/viewer/${free.id}$`))
  await expect(page.locator('article.viewer img').first()).toBeVisible()
  await check('free episode')

  await page.goto('/shop')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('wallet.shop.title'))
  const products = (await (await page.request.get('/api/v1/payment/products')).json()).data.items as { price: number }[]
  await expect(page.locator('.price').first()).toHaveText(formatMoney(products[0]!.price, edition))
  await check('shop')

  await page.goto('/user/login')
  await expect(page.getByLabel(t('auth.login.email'))).toBeVisible()
  await check('login page')
  // the age check as this edition's guests get it: jp answers yes/no, elsewhere a guest is asked to log in first
  await askAge(page, '/')
  const popup = page.getByRole('dialog', { name: t('age.title') })
  await expect(popup).toBeVisible()
  if (edition.notLoggedInAdultCookie) await expect(popup.getByRole('button', { name: t('age.yes') })).toBeVisible()
  else await expect(popup.getByRole('link', { name: t('age.loginButton') })).toBeVisible()

  expect(violations).toEqual([])
}
