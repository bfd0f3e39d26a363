import { expect, test } from '@playwright/test'

/**
 * Issue 11 item 6 on the kr server: a Korean-IP member who passed the birthday check still needs the carrier's
 * adult verification (spec §5). The age popup offers it after the required agreement, the local carrier sandbox
 * answers, and the reader is back on the series page, now open to them.
 */

const ADULT_SERIES = '/detail/7'

test.describe.configure({ timeout: 90_000 })

test('a Korean-IP member agrees, verifies with the carrier and comes back to the adult series', async ({ page, baseURL }) => {
  const email = `kr-e2e-${Date.now()}@example.com`
  const password = 'Newbie-2026'
  expect(
    (await page.request.post(`/api/v1/auth/sign-up`, { data: { email, password, passwordConfirm: password, agreeTerms: true } })).status(),
  ).toBe(200)
  await page.goto(`/dev/outbox`)
  const code = /\b(\d{6})\b/.exec(await page.locator(`li[data-recipient="${email}"]`).first().innerText())![1]!
  expect((await page.request.post(`/api/v1/auth/verify-otp`, { data: { email, code } })).status()).toBe(200)
  const signIn = await page.request.post(`/api/v1/auth/web/sign-in`, {
    form: { email, password, callback: '/' },
    headers: { origin: baseURL! },
    maxRedirects: 0,
  })
  expect(signIn.status()).toBe(303)
  // the birthday check from Korea: adult by date, but a Korean-IP user (spec §5) also needs the carrier
  const birthday = await page.request.put(`/api/v1/user/adult`, {
    data: { birthedAt: '1990-04-01' },
    headers: { origin: baseURL!, 'cf-ipcountry': 'KR' },
  })
  expect(birthday.status()).toBe(200)

  expect((await page.goto(`${ADULT_SERIES}`))!.status()).toBe(403)
  const dialog = page.getByRole('dialog', { name: '연령 확인' })
  await expect(dialog).toBeVisible()
  const start = dialog.getByRole('button', { name: '휴대폰으로 인증하기' })
  await expect(start).toBeDisabled() // the agreement comes first (spec §5)
  await dialog.getByRole('checkbox').check()
  await start.click()

  await expect(page).toHaveURL(/\/nice\/sandbox$/)
  await page.getByLabel('이름').and(page.locator('input')).fill('홍길동')
  await page
    .getByLabel('휴대폰 번호')
    .and(page.locator('input'))
    .fill(`+8210${String(Date.now()).slice(-8)}`)
  await page.getByLabel('생년월일').and(page.locator('input')).fill('1990-04-01')
  await page.getByRole('button', { name: '본인인증하기' }).click()
  await expect(page.getByRole('status')).toHaveText('성인 인증이 완료되었습니다.')
  await page.getByRole('link', { name: '계속' }).click()
  await expect(page).toHaveURL(new RegExp(`${ADULT_SERIES}$`))
  await expect(page.locator('ol.episodes li').first()).toBeVisible()
})
