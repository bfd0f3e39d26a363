import { expect, test } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { noSeriousViolations } from './helpers.ts'
import { ops, shoot, signIn } from './steps.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 37 point 4 in one edition: a new reader opens a free episode, follows "report a problem" at its end, sends the
 * form without the text "another problem" needs (the form comes back: the message beside the text, which has the focus,
 * the problem still chosen), then with it; /qna thanks them and names the episode and the problem. The page of the same
 * episode then says it was reported today. The real CLI shows support the report with the reader's device and answers
 * it; the reader reads the answer on /qna. No serious axe finding; screenshots at 390 and 1280 px.
 */
export function episodeReportSuite(id: 'fr' | 'ar') {
  const t = messagesOf(id)

  test(`${id}: a reader reports a problem with an episode from the viewer and reads support's answer`, async ({ page, baseURL }, info) => {
    test.setTimeout(120_000)
    const series = (await (await page.request.get('/api/v1/contents/1')).json()).data as { episodes: { id: number; free: boolean }[] }
    const first = series.episodes.find((e) => e.free)!.id
    await signIn(page, id, await newAccount(page.request))

    await page.goto(`/viewer/${first}`)
    const link = page.getByRole('link', { name: t('community.report.link') })
    await link.scrollIntoViewIfNeeded()
    await link.click()
    // the link names the episode on screen: the next one when continuous reading has joined it below
    await page.waitForURL(/\/qna\/report\?episodeId=\d+$/)
    const episodeId = Number(new URL(page.url()).searchParams.get('episodeId'))
    expect(series.episodes.map((e) => e.id)).toContain(episodeId)
    await expect(page.getByRole('definition').getByRole('link')).toHaveAttribute('href', `/viewer/${episodeId}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('community.report.title'))
    await expect(page.locator('html')).toHaveAttribute('dir', id === 'ar' ? 'rtl' : 'ltr')
    await noSeriousViolations(page)

    // "another problem" without a word: refused by the server, back to the form with what was chosen
    const problems = page.getByRole('group', { name: t('community.report.problem.legend') })
    await problems.getByLabel(t('community.report.problem.OTHER')).check()
    await page.getByRole('button', { name: t('community.report.submit') }).click()
    await page.waitForURL(/error=INVALID_PARAMETER/)
    const text = page.getByLabel(t('community.report.textLabel'))
    await expect(text).toBeFocused()
    await expect(text).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('alert')).toBeVisible()
    await expect(problems.getByLabel(t('community.report.problem.OTHER'))).toBeChecked()
    await noSeriousViolations(page)
    await shoot(page, info, `episode-report-form-${id}`)

    const details = id === 'ar' ? 'الفقاعة الرابعة فارغة.' : 'La bulle 4 est vide.'
    await text.fill(details)
    await page.getByRole('button', { name: t('community.report.submit') }).click()
    await page.waitForURL(/\/qna\?sent=\d+/)
    const qnaId = Number(/sent=(\d+)/.exec(page.url())![1])
    await expect(page.getByRole('status')).toHaveText(t('community.report.sent'))
    const row = page.locator(`#q${qnaId}`)
    await expect(row.getByText(details)).toBeVisible()
    await expect(row.getByText(t('community.report.problem.OTHER'))).toBeVisible()
    await expect(row.getByRole('link').first()).toHaveAttribute('href', `/viewer/${episodeId}`)
    await noSeriousViolations(page)
    await shoot(page, info, `episode-report-sent-${id}`)

    // the same episode again today: the page says so and links the report
    await page.goto(`/qna/report?episodeId=${episodeId}`)
    await expect(page.getByRole('status')).toContainText(t('community.report.already'))
    await expect(page.getByRole('link', { name: t('community.report.see') })).toHaveAttribute('href', `/qna#q${qnaId}`)
    await expect(page.getByRole('button', { name: t('community.report.submit') })).toHaveCount(0)

    // support sees the episode, the problem and the device, and answers
    const shown = await ops(baseURL!, ['support', 'show', '--id', String(qnaId)])
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain(`report: OTHER · episode ${episodeId}`)
    expect(shown.stdout).toMatch(/device: Mozilla\/5\.0 .*Chrome/)
    const answer = id === 'ar' ? 'أصلحنا الصورة، شكرًا!' : 'Image corrigée, merci !'
    const answered = await ops(baseURL!, ['support', 'answer', '--id', String(qnaId), '--text', answer, '--reason', 'e2e report'])
    expect(answered.code, answered.stderr).toBe(0)
    await page.goto('/qna')
    await page.locator(`#q${qnaId} summary`).click()
    await expect(page.locator(`#q${qnaId}`).getByRole('region', { name: t('community.qna.answer') })).toContainText(answer)
  })
}
