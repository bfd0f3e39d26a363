import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { formatCompact } from '../../src/lib/i18n/format.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { newAccount, PASSWORD } from './viewer.helpers.ts'

/**
 * View counts (issue 12 point 9) in one edition: a signed-in reader's open of a free episode adds one view to its
 * series, a second open the same day adds none, and the series page shows the count in the edition's language and
 * compact notation ("12,3 k vues", "١٢٫٣ ألف مشاهدة"). Screenshots at 390 and 1280 px go into the report.
 */
export function viewsSuite(id: string) {
  const edition = parseEdition(id, JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')))
  const messages: Record<string, string> = JSON.parse(readFileSync(`editions/${id}/messages/catalogue.json`, 'utf8'))
  const label = (n: number) =>
    (messages[`detail.views_${new Intl.PluralRules(edition.locale).select(n)}`] ?? messages['detail.views_other']!).replace(
      '{{views}}',
      formatCompact(n, edition),
    )

  test(`${id}: a signed-in open counts one view a day, and the series page shows the count`, async ({ page, baseURL }, info) => {
    // a series of the ranking with a free episode, from the bottom up: the other tests read the first ones, whose views
    // would count here (+3 instead of +1, seen once)
    await page.goto('/home/ranking')
    const hrefs = (await page.locator('main .series-grid a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))).reverse()
    let series: { id: number; views: number; episodes: { id: number; free: boolean }[] } | null = null
    for (const href of hrefs) {
      const body = await (await page.request.get(`/api/v1/contents/${/\d+/.exec(href)![0]}`)).json()
      if (body.data?.episodes?.some((e: { free: boolean }) => e.free)) {
        series = body.data
        break
      }
    }
    expect(series).not.toBeNull()
    const free = series!.episodes.find((e) => e.free)!.id

    const email = await newAccount(page.request)
    const signIn = await (
      await page.request.post('/api/v1/auth/sign-in', { data: { email, password: PASSWORD }, headers: { origin: baseURL! } })
    ).json()
    const headers = { authorization: `Bearer ${signIn.data.accessToken.value}` }
    const count = async () => (await (await page.request.get(`/api/v1/viewcount/${free}`)).json()).data.seriesViews as number
    const before = await count()
    expect((await page.request.get(`/api/v1/viewer/${free}`, { headers })).status()).toBe(200)
    // the view reaches D1 through the queue and the series' tally (2 s after it counted, in a local run)
    await expect.poll(count, { timeout: 15_000 }).toBe(before + 1)
    expect((await page.request.get(`/api/v1/viewer/${free}`, { headers })).status()).toBe(200)
    await page.waitForTimeout(4000) // past the tally's next flush: the second open added nothing
    expect(await count()).toBe(before + 1)

    await page.goto(`/detail/${series!.id}`)
    const views = page.locator('.detail .views')
    await expect(views).toHaveText(label(before + 1))
    await expect(views).toBeVisible()
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.waitForFunction(() => [...document.images].every((i) => i.complete)) // the cover at this width
      await info.attach(`views-${id}-${width}`, { body: await page.screenshot(), contentType: 'image/png' })
    }
  })
}
