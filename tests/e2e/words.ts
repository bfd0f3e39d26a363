import { expect, type Page, type TestInfo } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { formatDay } from '../../src/lib/i18n/dates.ts'
import { DEMO_READER } from './helpers.ts'
import { messagesOf } from './journey.ts'
import { buildDemo, langOf } from '../../scripts/seed/data.ts'
import { finds, terms } from '../unit/glossary.ts'
import { EVENTS, FAQS, THEMES } from '../../scripts/seed/texts.ts'

/** What each script's edition sets on <html> (src/styles/global.css): a system font of its stack and its word breaking. */
export const SCRIPT_STYLE = {
  jp: { font: 'Hiragino Sans', wordBreak: 'auto-phrase' },
  kr: { font: 'Apple SD Gothic Neo', wordBreak: 'keep-all' },
  th: { font: 'Thonburi', wordBreak: 'normal' },
  ar: { font: 'Geeza Pro', wordBreak: 'normal' },
} as const

/**
 * Issue 25 point 7 on a phone (390×844, touch), in one edition: the series page has no French space before a
 * colon, its day list joins the days the way Intl.ListFormat does in the edition's locale and its next update
 * falls on one of those days; /my writes the demo reader's mileage (3600) with the locale's digits; <html>
 * carries the script's font stack and line breaking; a downloadable coupon is not announced as received; the
 * desktop header keeps the balance on one line. Series 1 updates on Sunday and Wednesday.
 */
export async function editionWords(page: Page, id: keyof typeof SCRIPT_STYLE, info: TestInfo) {
  const edition = parseEdition(id, JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')))
  const t = messagesOf(id)

  await page.goto('/detail/1')
  const main = page.locator('main')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await main.innerText(), 'a space before a colon is French typography').not.toMatch(/[\s\u00a0\u202f][:：]/)
  const days = await page.evaluate(([locale, a, b]) => new Intl.ListFormat(locale, { type: 'conjunction' }).format([a, b]), [
    edition.locale,
    t('weekday.SUNDAY'),
    t('weekday.WEDNESDAY'),
  ] as const)
  const schedule = page.locator('.schedule')
  await expect(schedule).toContainText(t('detail.schedule').replace('{{days}}', days))
  if (id === 'jp') expect(days).toContain('、')
  expect(await schedule.innerText()).not.toContain(', ')
  // the next update, written as the edition writes dates (local-forms.ts checks the form), is a Sunday or a Wednesday
  const updateDays = Array.from({ length: 9 }, (_, i) => new Date(Date.now() + (i - 1) * 86_400_000))
    .filter((d) => [0, 3].includes(d.getUTCDay()))
    .map((d) => formatDay(d.toISOString().slice(0, 10), edition))
  const scheduleText = await schedule.innerText()
  expect(
    updateDays.some((day) => scheduleText.includes(day)),
    `next update in "${scheduleText}" is one of ${updateDays.join(', ')}`,
  ).toBe(true)
  await page.screenshot({ path: info.outputPath(`words-${id}-series.png`) })

  const style = await page.evaluate(() => {
    const s = getComputedStyle(document.documentElement)
    return { font: s.fontFamily, wordBreak: s.wordBreak, autoPhrase: CSS.supports('word-break', 'auto-phrase') }
  })
  expect(style.font).toContain(SCRIPT_STYLE[id].font)
  expect(style.wordBreak).toBe(SCRIPT_STYLE[id].wordBreak === 'auto-phrase' && !style.autoPhrase ? 'normal' : SCRIPT_STYLE[id].wordBreak)

  // the demo reader's /my: 3,600 mileage in the locale's digits, under the edition's one mileage word
  await page.goto('/user/login?callback=%2Fmy')
  await page.getByLabel(t('auth.login.email')).fill(DEMO_READER.email)
  await page.getByLabel(t('auth.login.password')).fill(DEMO_READER.password)
  await page.getByRole('button', { name: t('auth.login.submit'), exact: true }).click()
  await expect(page).toHaveURL(/\/my$/)
  const mileage = await page.evaluate((locale) => new Intl.NumberFormat(locale).format(3600), edition.locale)
  expect(mileage).not.toBe('3600')
  // the balance line with its other numbers left open: "…ポイント：3,600"
  const filled = t('account.my.coinDetail')
    .replace(/\{\{(coin|bonus|free)\}\}/g, '\u0000')
    .replace('{{mileage}}', mileage)
  const line = new RegExp(filled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('\u0000', '\\S+'))
  await expect(page.locator('main')).toContainText(line)
  await page.screenshot({ path: info.outputPath(`words-${id}-my.png`) })
  await couponAndHeader(page, id)
}

/** A downloadable coupon is not announced as received before it is claimed; the desktop header keeps the balance on one line (signed in). */
export async function couponAndHeader(page: Page, id: string) {
  const t = messagesOf(id)
  // a downloadable coupon says what it offers, not "… were added to your account" before it is claimed
  await page.goto('/coupon')
  const offers = page.locator('#downloads li')
  await expect(offers.first()).toBeVisible()
  const added = t('wallet.coupon.received.COIN')
    .split('{{count}}')
    .map((x) => x.trim())
    .sort((a, b) => b.length - a.length)[0]!
  for (const text of await offers.allInnerTexts()) expect(text).not.toContain(added)

  // on a desktop the header's balance stays one line, not a squeezed circle
  for (const width of [640, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/my')
    const pill = page.locator('[data-coin-balance]')
    await expect(pill).toBeVisible()
    const box = (await pill.boundingBox())!
    expect(box.height, `the balance on one line at ${width} px`).toBeLessThan(40)
    expect(box.width).toBeGreaterThan(box.height * 2)
  }
}

async function shot(page: Page, info: TestInfo, name: string) {
  const path = info.outputPath(`${name}.png`)
  await page.screenshot({ path, fullPage: false })
  await info.attach(name, { path, contentType: 'image/png' })
}

/**
 * Issue 25 §6/§7 in one edition: the series page names each episode once (the seed titles every episode by its
 * number: "第1話" alone, no number column beside it), and the demo's FAQ, events and themed picks read in the
 * edition's language, not in French or English; /library/recent does not name an untitled episode twice. Screenshots of the series page, /faq and /event at 390 and 1280 px.
 */
export async function demoWords(page: Page, id: string, info: TestInfo) {
  const edition = parseEdition(id, JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')))
  const t = messagesOf(id)
  const lang = langOf(edition.locale)
  const others = (['fr', 'en'] as const).filter((l) => l !== lang)
  const numberLabel = (no: number) => t('episode.number').replace('{{no}}', String(no))

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 })
    await page.goto('/detail/1')
    const rows = page.locator('.episodes li')
    await expect(rows.first()).toBeVisible()
    for (const no of [1, 2, 10]) {
      const row = rows.nth(no - 1)
      await expect(row.locator('.ep-title')).toHaveText(numberLabel(no))
      // the number shows once: no cell holding "1" beside "第1話"
      await expect(row.getByText(String(no), { exact: true })).toHaveCount(0)
      expect((await row.innerText()).split(numberLabel(no)).length - 1, `row ${no} names its episode once`).toBe(1)
    }
    await page.locator('#episodes').scrollIntoViewIfNeeded()
    await shot(page, info, `words-${id}-series-${width}`)

    await page.goto('/faq')
    const main = page.locator('main')
    await expect(main.getByText(FAQS[0]![0][lang], { exact: true })).toBeVisible()
    await expect(main.getByText(FAQS[12]![0][lang], { exact: true })).toBeVisible()
    for (const [question] of FAQS) for (const other of others) await expect(main.getByText(question[other], { exact: true })).toHaveCount(0)
    await shot(page, info, `words-${id}-faq-${width}`)

    await page.goto('/event')
    await expect(main.getByRole('heading', { level: 2, name: EVENTS[0]![0][lang] })).toBeVisible()
    await expect(main.getByText(EVENTS[0]![1][lang], { exact: true })).toBeVisible()
    for (const [title] of EVENTS) for (const other of others) await expect(main.getByText(title[other], { exact: true })).toHaveCount(0)
    await shot(page, info, `words-${id}-event-${width}`)
  }

  await page.goto('/home/pick/1')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(THEMES[0]![0][lang])
  await page.goto('/home/pick')
  for (const [title] of THEMES) {
    await expect(page.getByRole('heading', { level: 2, name: title[lang] })).toBeVisible()
    for (const other of others) await expect(page.getByText(title[other], { exact: true })).toHaveCount(0)
  }

  // the demo reader's /library/recent: an episode titled by its number is not named above its "第2話を40%まで読みました"
  await page.goto('/user/login?callback=%2Flibrary%2Frecent')
  await page.getByLabel(t('auth.login.email')).fill(DEMO_READER.email)
  await page.getByLabel(t('auth.login.password')).fill(DEMO_READER.password)
  await page.getByRole('button', { name: t('auth.login.submit'), exact: true }).click()
  await expect(page).toHaveURL(/\/library\/recent$/)
  // other specs read with the same demo reader: every item is checked, whichever episodes it now shows
  const items = page.locator('.recent-item')
  await expect(items.first()).toBeVisible()
  const numberOf = new RegExp(numberLabel(0).replace('0', '(\\d+)'))
  for (const item of await items.all()) {
    const no = Number(numberOf.exec(await item.locator('.recent-meta').innerText())?.[1])
    expect(no, 'the progress line names the episode by its number').toBeGreaterThan(0)
    const named = item.locator('.recent-episode')
    if (await named.count()) await expect(named).not.toHaveText(numberLabel(no))
  }
}

/**
 * Issue 35 point 6: one word for one genre — the genre's home tab (if it has one: /home/romance), a series of the
 * genre and its demo blurb name it alike, and none of the synonyms of its glossary entry (`genre.<GENRE>` in
 * editions/<id>/glossary.json, the unit tests' one list) shows there: th wrote โรแมนติก beside โรแมนซ์, ar رومانسية
 * beside رومانسي, jp スリラー beside サスペンス. Screenshots of the series page at 390 and 1280 px. (de, which had "Romantik"
 * beside "Romance", sends every page to its redirectAllUrl: the unit tests check its catalogue and its demo.)
 */
export async function genreWord(page: Page, id: string, info: TestInfo, genre: 'ROMANCE' | 'THRILLER' = 'ROMANCE') {
  const t = messagesOf(id)
  const word = t(`genre.${genre}`)
  const synonyms = terms(id).find(([thing]) => thing === `genre.${genre}`)?.[1].not ?? []
  const main = page.locator('main')
  const noSynonym = async (where: string) => {
    const text = await main.innerText()
    expect(
      synonyms.filter((s) => finds(s).test(text)),
      `no synonym of "${word}" on ${where}`,
    ).toEqual([])
  }
  if (genre === 'ROMANCE') {
    await page.goto('/home/romance')
    const tabs = page.getByRole('navigation', { name: t('hometab.nav') })
    await expect(tabs.getByRole('link', { name: word, exact: true })).toHaveAttribute('aria-current', 'page')
    await noSynonym('its tab')
    await page.locator('main a[href^="/detail/"]').first().click()
  } else {
    // no home tab: the demo's first series of the genre a guest may open
    const edition = parseEdition(id, JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')))
    const demo = buildDemo({
      currency: edition.currency,
      locale: edition.locale,
      now: new Date(),
      passwordHash: 'x',
      minorPasswordHash: 'y',
    })
    const series = demo.tables.series!.find((s) => s.genre === genre && s.is_adult === 0)!
    await page.goto(`/detail/${series.id}`)
  }
  await expect(page).toHaveURL(/\/detail\/\d+$/)
  await expect(page.locator('.detail .meta')).toContainText(word)
  await expect(page.locator('.detail .description')).toContainText(word)
  await noSynonym('a series page')
  await shot(page, info, `genre-${id}-${genre.toLowerCase()}-series-390`)
  await page.setViewportSize({ width: 1280, height: 800 })
  await shot(page, info, `genre-${id}-${genre.toLowerCase()}-series-1280`)
}
