import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { editionOf, messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { ops, shoot, signIn } from './steps.ts'
import { hydrated } from './lowbalance.helpers.ts'
import { newAccount } from './viewer.helpers.ts'
import { formatDate } from '../../src/lib/i18n/dates.ts'
import { DAY_MS } from '../../src/lib/time.ts'

/**
 * Issue 37 point 1 in one edition, as the operator and a reader meet it: the real CLI adds an episode to series 9
 * dated ten days ahead (`ops sample`, `episode add`) and opens it early (`early open`). A guest sees no early episode on
 * the series page and gets 404 in the viewer. A signed-in reader with 100 coins sees the section ("N épisodes en
 * avant-première") with the episode's publication date and early prices, opens it (locked: the block says when it comes
 * out for everyone), rents it at the early price from the viewer, reads it, and the series
 * page marks it theirs. No serious axe finding; screenshots at 390 and 1280 px.
 *
 * Series 9 (a weekly series sold both ways) is used by no other browser test. The server's state outlives a run, so
 * earlier runs' early episodes may be listed too: the test finds its own by id.
 */
export function earlyAccessSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const edition = editionOf(id)
  const fill = (key: string, values: Record<string, string | number>) =>
    t(key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]))
  /** A plural message in the edition's form for `n` ("Location 3 pièces", "استئجار: 3 عملات"). */
  const counted = (key: string, n: number) => fill(`${key}_${new Intl.PluralRules(edition.locale).select(n)}`, { count: n })
  const balance = async (request: import('@playwright/test').APIRequestContext) =>
    ((await (await request.get('/api/v1/coin')).json()) as { data: { total: number } }).data.total

  test(`${id}: an operator opens an episode early; a signed-in reader rents it before its publication, a guest never sees it`, async ({
    page,
    baseURL,
  }, info) => {
    test.setTimeout(180_000)
    // the operator: a new episode of series 9, ten days ahead, opened early
    const dir = mkdtempSync(join(tmpdir(), 'early-'))
    const sample = await ops(baseURL!, ['sample', '--to', dir])
    expect(sample.code, sample.stderr).toBe(0)
    const publishedAt = new Date(Date.now() + 10 * DAY_MS)
    publishedAt.setUTCHours(10, 0, 0, 0)
    const file = join(dir, 'episode', 'episode.json')
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), publishedAt: publishedAt.toISOString() }))
    const added = await ops(baseURL!, ['episode', 'add', '--series', '9', '--dir', join(dir, 'episode'), '--reason', 'e2e early access'])
    expect(added.code, added.stderr).toBe(0)
    const episodeId = Number(/^episode id (\d+)/m.exec(added.stdout)![1])
    const opened = await ops(baseURL!, ['early', 'open', '--series', '9', '--episodes', '20', '--reason', 'e2e early access'])
    expect(opened.code, opened.stderr).toBe(0)
    expect(opened.stdout).toMatch(
      new RegExp(`episode ${episodeId} \\(no\\. \\d+\\) .*early rent ${edition.earlyAccess.rent} · buy ${edition.earlyAccess.buy}`),
    )

    // a guest: nothing early on the series page, 404 in the viewer
    await page.goto('/detail/9')
    await expect(page.locator('h1')).toBeVisible()
    await expect(page.locator('section.early')).toHaveCount(0)
    expect((await page.goto(`/viewer/${episodeId}`))?.status()).toBe(404)

    // a signed-in reader sees the section with the date and the early prices
    await signIn(page, id, await newAccount(page.request))
    const coupon = await page.request.post('/api/v1/coupon/code', { data: { code: 'WELCOME100' }, headers: { origin: baseURL! } })
    expect(coupon.status()).toBe(200)
    await page.goto('/detail/9')
    const section = page.locator('section.early')
    const count = await section.locator('li').count()
    await expect(section.getByRole('heading', { level: 2 })).toHaveText(counted('detail.early.title', count))
    await expect(section.getByText(t('detail.early.text'))).toBeVisible()
    const row = section.locator(`li[data-ep="${episodeId}"]`)
    await expect(row).toContainText(fill('detail.early.date', { date: formatDate(publishedAt.toISOString(), edition) }))
    await expect(row).toContainText(counted('episode.rent', edition.earlyAccess.rent))
    await expect(row).toContainText(counted('episode.buy', edition.earlyAccess.buy))
    await noSeriousViolations(page)
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await section.evaluate((el) => scrollTo(0, el.getBoundingClientRect().top + scrollY - 96)) // below the sticky header
      await page.waitForTimeout(200)
      await info.attach(`early-detail-${id}-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }

    // locked in the viewer: when it comes out for everyone, and the early prices
    await row.getByRole('link').click()
    await page.waitForURL(`**/viewer/${episodeId}`)
    const locked = page.locator('.locked-episode')
    await expect(locked).toContainText(fill('wallet.locked.early', { date: formatDate(publishedAt.toISOString(), edition) }))
    await expect(locked.locator('.locked-prices')).toContainText(counted('episode.rent', edition.earlyAccess.rent))
    await noSeriousViolations(page)
    await shoot(page, info, `early-locked-${id}`)

    // rented at the early price, then read
    const before = await balance(page.request)
    await hydrated(page)
    await page.locator('.rent-or-buy button[type="submit"]').click()
    await expect(locked).toHaveCount(0)
    await expect(page.locator('.viewer-slice img').first()).toBeVisible()
    expect(await balance(page.request)).toBe(before - edition.earlyAccess.rent)
    await shoot(page, info, `early-read-${id}`)

    // the series page marks it the reader's
    await page.goto('/detail/9')
    await expect(page.locator(`section.early li[data-ep="${episodeId}"] .own`)).toBeVisible()
  })
}
