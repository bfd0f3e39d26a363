import { expect, test, type Locator, type Page } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations, textPattern } from './helpers.ts'
import { ops, shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 13 point 4, the operator's alarms from the command line, in one edition: a new reader favourites series 1;
 * the real CLI (`scripts/ops.ts alarm send --series 1`, a child process, OPS_URL this edition's server: a local run,
 * so no --yes and the local token) sends a notice, the queue consumer of the test server writes it, the header's bell
 * counts it and /alarm lists its text as written. Then `episode publish` announces an episode of a series the reader
 * favourited and its alarm ("alarm.text.episodePublished") follows. The push settings page is reached from /my.
 * Screenshots of the bell, the list and the settings at 390 and 1280 px go into the report.
 *
 * Demo data (every edition's seed): series 1 is published. The server's state outlives a run and an episode is
 * announced once, so the test looks for an episode published in the past that no run announced yet (series 1 first,
 * then the next series, each favourited before its episodes are tried); an episode scheduled later is never
 * published here (other suites count series 1's episodes).
 */
type Episode = { id: number; no: number; publishedAt: string }
type Series = { title: string; episodes: Episode[] }

export function alarmSendSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const fill = (key: string, values: Record<string, string | number>) =>
    t(key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]))

  /** The header's bell, once it counts an unread alarm (the page is reloaded until the queue consumer wrote one, 20 s at most). */
  async function bellRings(page: Page) {
    const bell = page.locator('[data-alarm-bell]')
    await expect(async () => {
      await page.goto('/')
      await expect(bell.locator('.alarm-count')).not.toBeEmpty({ timeout: 2_000 }) // filled after first paint
    }).toPass({ timeout: 20_000 })
    return bell
  }

  /**
   * /alarm lists `item` unread and the header's bell counts the list's unread alarms, at least `least` (the page is
   * reloaded until both hold, 20 s at most: the queue consumer writes the alarms, and another run of this test on
   * the same server may send its notice to this reader too).
   */
  async function listedAndCounted(page: Page, item: Locator, least: number) {
    const bell = page.locator('[data-alarm-bell]')
    await expect(async () => {
      if (!/\/alarm$/.test(page.url())) await page.goto('/alarm')
      else await page.reload()
      await expect(item).toBeVisible({ timeout: 1_000 })
      const unread = await page.locator('.alarm.unread').count()
      expect(unread).toBeGreaterThanOrEqual(least)
      const number = await page.evaluate((n) => new Intl.NumberFormat(document.documentElement.lang).format(n), unread)
      await expect(bell.locator('.alarm-count')).toHaveText(number, { timeout: 2_000 }) // filled after first paint
      await expect(bell).toHaveAccessibleName(textPattern(number), { timeout: 1_000 })
    }).toPass({ timeout: 20_000 })
    await expect(item.getByText(t('alarm.unread'))).toBeVisible()
  }

  async function favourite(page: Page, baseURL: string, seriesId: number) {
    const res = await page.request.post(`/api/v1/library/favorite/${seriesId}`, { headers: { origin: baseURL } })
    expect(res.status()).toBe(200)
  }

  test.describe(`operator alarms from npm run ops (${id})`, () => {
    test('alarm send and episode publish reach a favouriting reader: the bell, the list, the push settings', async ({
      page,
      baseURL,
    }, info) => {
      test.setTimeout(120_000)
      await signIn(page, id, await newAccount(page.request))
      await favourite(page, baseURL!, 1)

      const text = `${id === 'ar' ? 'إشعار تجريبي: الفصل القادم يتأخر أسبوعًا' : 'Annonce de test : le prochain épisode a une semaine de retard'} ${Date.now().toString(36)}`
      const sent = await ops(baseURL!, ['alarm', 'send', '--series', '1', '--text', text, '--reason', 'e2e alarm-send'])
      expect(sent.code, sent.stderr).toBe(0)
      expect(sent.stdout).toContain(`plan (${baseURL}, a local run):`)
      expect(sent.stdout).toMatch(/the readers of series 1 \(a favourite or a reading in progress\): \d+ now/) // its reach, this reader among them
      expect(sent.stdout).toMatch(/sent: broadcast \d+ queued/)

      const bell = await bellRings(page)
      await shoot(page, info, `send-bell-${id}`)

      await bell.click()
      await expect(page).toHaveURL(/\/alarm$/)
      await expect(page.getByRole('heading', { level: 1, name: t('alarm.title') })).toBeVisible()
      const notice = page.getByRole('button', { name: textPattern(text) })
      await listedAndCounted(page, notice, 1)
      await expect(notice.locator('.alarm-text')).toHaveText(text) // as written, no message key around it

      // an episode published in the past that no run announced yet, of a series the reader favourited first
      let announced: { series: Series; episode: Episode } | null = null
      for (let seriesId = 1; seriesId <= 12 && !announced; seriesId++) {
        const res = await page.request.get(`/api/v1/contents/${seriesId}`)
        if (res.status() !== 200) continue
        const series = ((await res.json()) as { data: Series }).data
        if (seriesId !== 1) await favourite(page, baseURL!, seriesId)
        const past = series.episodes.filter((e) => Date.parse(e.publishedAt) < Date.now() - 60_000)
        // newest first: an alarm dated more than 30 days back (its episode's date) is purged by the next cron
        for (const episode of past.sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt))) {
          const published = await ops(baseURL!, ['episode', 'publish', '--id', String(episode.id), '--reason', 'e2e alarm-send'])
          expect(published.code, published.stderr).toBe(0)
          expect(published.stdout).toContain('reason: e2e alarm-send (in the audit trail)')
          if (published.stdout.includes('its alarms are queued')) {
            announced = { series, episode }
            break
          }
          expect(published.stdout).toContain('was already announced; no alarm queued')
        }
      }
      expect(announced, 'an episode no run announced yet (reset .wrangler/e2e-* when the seed runs out)').not.toBeNull()

      await page.goto('/alarm')
      const episodeText = fill('alarm.text.episodePublished', { series: announced!.series.title, no: announced!.episode.no })
      const episodeItem = page.getByRole('button', { name: textPattern(episodeText) })
      await listedAndCounted(page, episodeItem, 2)
      await expect(notice.getByText(t('alarm.unread'))).toBeVisible()
      await noSeriousViolations(page)
      await shoot(page, info, `send-list-${id}`)

      // the push settings, from the reader's page
      await page.goto('/my')
      await page.getByRole('link', { name: t('account.my.entry.setting'), exact: true }).click()
      await expect(page).toHaveURL(/\/setting$/)
      await page.getByRole('link', { name: t('account.setting.pushLink') }).click()
      await expect(page).toHaveURL(/\/setting\/push$/)
      await expect(page.locator('html')).toHaveAttribute('dir', id === 'ar' ? 'rtl' : 'ltr')
      for (const key of ['account.push.all', 'account.push.night', 'account.push.freetime', 'account.push.contents'])
        await expect(page.getByRole('checkbox', { name: t(key) })).toBeVisible()
      await expect(page.getByRole('button', { name: t('account.push.save') })).toBeVisible()
      await noSeriousViolations(page)
      await shoot(page, info, `send-push-settings-${id}`)
    })
  })
}
