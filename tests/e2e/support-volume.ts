import { expect, test } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { ops, shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 39 point 6, support at volume from the command line, seen by a reader in one edition: a new reader files a
 * question (the /qna/register form's own route); the real CLI (`scripts/ops.ts`, a child process, OPS_URL this
 * edition's server: a local run, so no --yes and the local token) sets a canned reply, finds the question by the
 * reader's e-mail, answers it with the canned reply, corrects the answer (`support edit-answer`) and shows the reader
 * (`reader show --email`). The reader's /qna shows the corrected answer, not the first one. Screenshots of /qna at 390
 * and 1280 px.
 */
export function supportVolumeSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)

  test.describe(`support at volume from npm run ops (${id})`, () => {
    test('a question found by e-mail, answered with a canned reply, the answer corrected: the reader reads it on /qna', async ({
      page,
      baseURL,
    }, info) => {
      test.setTimeout(120_000)
      const email = await newAccount(page.request)
      await signIn(page, id, email)
      const title = `${id === 'ar' ? 'الدفع مرفوض' : 'Paiement refusé'} ${Date.now().toString(36)}`
      const filed = await page.request.post('/api/v1/qna/web/register', {
        headers: { origin: baseURL! },
        multipart: { category: 'PAYMENT', title, text: id === 'ar' ? 'رُفضت بطاقتي.' : 'Ma carte est refusée.' },
        maxRedirects: 0,
      })
      expect(filed.status()).toBe(303)
      const qnaId = Number(/sent=(\d+)/.exec(filed.headers()['location'] ?? '')?.[1])
      expect(qnaId).toBeGreaterThan(0)

      const name = `card-refused-${Date.now().toString(36)}`
      const first = id === 'ar' ? 'رفض البنك الدفع.' : 'Votre banque a refusé le paiement.'
      const set = await ops(baseURL!, ['support', 'canned', 'set', name, '--text', first, '--reason', 'e2e support'])
      expect(set.code, set.stderr).toBe(0)
      const found = await ops(baseURL!, ['support', 'search', '--email', email, '--waiting'])
      expect(found.code, found.stderr).toBe(0)
      expect(found.stdout).toMatch(new RegExp(`\\n\\s+${qnaId}\\s`))
      const replied = await ops(baseURL!, ['support', 'reply', String(qnaId), '--canned', name, '--reason', 'e2e support'])
      expect(replied.code, replied.stderr).toBe(0)
      expect(replied.stdout).toContain(`answered: question ${qnaId}`)
      const corrected =
        id === 'ar' ? 'رفض البنك الدفع: أعد المحاولة ببطاقة أخرى.' : 'Votre banque a refusé le paiement : réessayez avec une autre carte.'
      const edited = await ops(baseURL!, ['support', 'edit-answer', String(qnaId), '--text', corrected, '--reason', 'e2e support'])
      expect(edited.code, edited.stderr).toBe(0)
      expect(edited.stdout).toContain(`edited: the answer of question ${qnaId}`)
      const shown = await ops(baseURL!, ['reader', 'show', '--email', email])
      expect(shown.code, shown.stderr).toBe(0)

      await page.goto('/qna')
      const row = page.locator('li', { hasText: title })
      await row.getByText(title).click() // the question opens (details) to show its answer
      await expect(row.getByRole('region', { name: t('community.qna.answer') })).toContainText(corrected)
      await expect(row.getByText(first, { exact: true })).toHaveCount(0)
      await noSeriousViolations(page)
      await shoot(page, info, `support-answer-${id}`)
    })
  })
}
