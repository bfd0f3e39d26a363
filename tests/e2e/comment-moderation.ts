import { expect, test, type Page } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { ops, shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 39 point 7, comment moderation from the command line, seen by a reader in one edition: a new reader posts a
 * comment on series 1 through the page's form; the real CLI (`scripts/ops.ts`, a child process, OPS_URL this edition's
 * server: a local run, so no --yes and the local token) lists it among the reported comments once another reader
 * reported it, hides it (gone from the page and its count), then blocks the reader for 3 days: the page shows, in place
 * of the form, that they cannot comment, until when and the operator's reason, and a post through the API is refused
 * (UNAUTHORIZED_USER) with the same words; unblocked, the form is back. Screenshots of the block at 390 and 1280 px.
 */
const PAGE = '/comment?contentsId=1'

export function commentModerationSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)
  const fill = (key: string, values: Record<string, string | number>) =>
    t(key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]))

  async function total(page: Page): Promise<string> {
    return (await page.locator('#comment-list-title').textContent()) ?? ''
  }

  test.describe(`comment moderation from npm run ops (${id})`, () => {
    test('a reported comment hidden, its author blocked with the reason and the end shown, then unblocked', async ({
      page,
      baseURL,
      browser,
    }, info) => {
      test.setTimeout(120_000)
      const email = await newAccount(page.request)
      await signIn(page, id, email)
      await page.goto(PAGE)
      await page.locator('html[data-comment-ready]').waitFor({ state: 'attached' })
      const text = `${id === 'ar' ? 'تعليق للاختبار' : 'Commentaire à modérer'} ${Date.now().toString(36)}`
      await page.getByLabel(t('community.comment.form.label')).fill(text)
      await page.getByRole('button', { name: t('community.comment.form.submit'), exact: true }).click()
      const item = page.locator('li.comment', { hasText: text })
      await expect(item).toBeVisible()
      const commentId = Number(await item.getAttribute('data-comment'))
      expect(commentId).toBeGreaterThan(0)

      // another reader reports it
      const other = await browser.newContext({ baseURL })
      const reporter = await other.newPage()
      await signIn(reporter, id, await newAccount(reporter.request))
      const reported = await reporter.request.post(`/api/v1/comment/${commentId}/reaction`, {
        headers: { origin: baseURL! },
        data: { kind: 'REPORT' },
      })
      expect(reported.status()).toBe(200)
      await other.close()

      const list = await ops(baseURL!, ['comments', 'reported', '--series', '1', '--days', '1'])
      expect(list.code, list.stderr).toBe(0)
      expect(list.stdout).toMatch(new RegExp(`\\n\\s+${commentId}\\s+1\\s+1\\s`))

      await page.reload()
      const before = await total(page)
      const hidden = await ops(baseURL!, ['comments', 'hide', String(commentId), '--reason', 'e2e moderation'])
      expect(hidden.code, hidden.stderr).toBe(0)
      expect(hidden.stdout).toContain(`hidden: comment ${commentId}`)
      await page.reload()
      await expect(page.locator('li.comment', { hasText: text })).toHaveCount(0)
      expect(await total(page)).not.toBe(before)

      const reason = id === 'ar' ? 'تعليقات مسيئة متكررة' : 'Propos injurieux répétés'
      const blocked = await ops(baseURL!, ['comments', 'block', '--email', email, '--days', '3', '--reason', reason])
      expect(blocked.code, blocked.stderr).toBe(0)
      expect(blocked.stdout).toContain('blocked: reader ')
      await page.reload()
      const ban = page.locator('#comment-ban')
      await expect(ban).toBeVisible()
      await expect(ban.getByText(t('community.comment.ban.title'))).toBeVisible()
      await expect(ban.getByText(fill('community.comment.ban.reason', { reason }))).toBeVisible()
      const untilText = (await ban.locator('p').nth(1).textContent()) ?? ''
      const prefix = t('community.comment.ban.until').split('{{date}}')[0]!
      expect(untilText.startsWith(prefix)).toBe(true)
      expect(untilText).toMatch(/\d/)
      await expect(page.locator('#comment-form')).toHaveCount(0)
      await noSeriousViolations(page)
      await shoot(page, info, `comment-ban-${id}`)

      // a post through the API (an app, a page open from before) is refused with the same words
      const refused = await page.request.post('/api/v1/comment', { headers: { origin: baseURL! }, data: { contentsId: 1, text: 'encore' } })
      expect(refused.status()).toBe(403)
      const body = (await refused.json()) as { code: string; message: string }
      expect(body.code).toBe('UNAUTHORIZED_USER')
      expect(body.message).toContain(reason)

      const unblocked = await ops(baseURL!, ['comments', 'unblock', '--email', email, '--reason', 'e2e moderation'])
      expect(unblocked.code, unblocked.stderr).toBe(0)
      await page.reload()
      await expect(page.locator('#comment-ban')).toHaveCount(0)
      await expect(page.getByLabel(t('community.comment.form.label'))).toBeVisible()
    })
  })
}
