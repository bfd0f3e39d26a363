import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { formatNumber } from '../../src/lib/i18n/format.ts'
import { messagesOf } from './journey.ts'
import { newAccount } from './viewer.helpers.ts'

/**
 * Issue 25 point 3 in one edition, on a phone (390×844, touch), with and without JavaScript: a refused form
 * comes back with what the reader typed (never a password), the specific message beside its field
 * (`aria-invalid`, `aria-describedby`) and the focus on that field; a wrong sign-up code says how many tries are
 * left; the right code signs the reader in on the page the sign-up started from; a waiting submit is busy.
 * Screenshots at 390 and 1280 px go into the report.
 */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
const PASSWORD = 'Newbie-2026'

async function shoot(page: Page, info: TestInfo, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.waitForTimeout(150)
    await info.attach(`${name}-${width}`, { body: await page.screenshot({ fullPage: width === 390 }), contentType: 'image/png' })
  }
  await page.setViewportSize(PHONE.viewport)
}

/** The field is invalid, described by a message with `text`, and has the focus. */
async function expectFieldError(page: Page, id: string, text: string) {
  const field = page.locator(`#${id}`)
  await expect(field).toHaveAttribute('aria-invalid', 'true')
  const described = (await field.getAttribute('aria-describedby'))!.split(' ')
  const message = page.locator(`#${described[0]}`)
  await expect(message).toHaveText(text)
  await expect(message).toBeVisible()
  await expect(field).toBeFocused()
  await expect(field).toHaveAccessibleDescription(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
}

async function codeFromOutbox(page: Page, email: string) {
  const outbox = await (await page.request.get('/dev/outbox')).text()
  const item = outbox.split('<li').find((li) => li.includes(`data-recipient="${email}"`))!
  return /\b(\d{6})\b/.exec(item.replace(/<[^>]+>/g, ' '))![1]!
}

export function formsSuite(id: string) {
  const t = messagesOf(id)
  const locale = (JSON.parse(readFileSync(`editions/${id}/edition.json`, 'utf8')) as { locale: string }).locale
  const all = (key: string) => JSON.parse(readFileSync(`editions/${id}/messages/auth.json`, 'utf8'))[key] as string
  /** The plural message of `key` for `count`, as the edition writes it. */
  const plural = (key: string, count: number) =>
    (all(`${key}_${new Intl.PluralRules(locale).select(count)}`) ?? all(`${key}_other`)).replace(
      '{{count}}',
      formatNumber(count, { locale }),
    )

  async function fillSignUp(page: Page, email: string, confirm: string) {
    await page.getByLabel(t('auth.login.email'), { exact: true }).fill(email)
    await page.getByLabel(t('auth.login.password'), { exact: true }).fill(PASSWORD)
    await page.getByLabel(t('auth.signup.passwordConfirm')).fill(confirm)
    await page.getByLabel(t('auth.signup.agreeTerms')).check()
    await page.getByRole('button', { name: t('auth.signup.submit') }).click()
  }

  async function mismatch(browser: Browser, baseURL: string, info: TestInfo, javaScriptEnabled: boolean) {
    const context = await browser.newContext({ ...PHONE, baseURL, javaScriptEnabled })
    const page = await context.newPage()
    const email = `forms-${Date.now()}-${javaScriptEnabled ? 'js' : 'nojs'}@example.com`
    await page.goto('/user/signup')
    await fillSignUp(page, email, 'Other-2026')
    await expect(page).toHaveURL(/\/user\/signup\?error=INCORRECT_PASSWORD$/) // no e-mail in the URL
    await expect(page.getByLabel(t('auth.login.email'), { exact: true })).toHaveValue(email)
    await expect(page.getByLabel(t('auth.signup.agreeTerms'))).toBeChecked()
    await expect(page.getByLabel(t('auth.login.password'), { exact: true })).toHaveValue('')
    await expectFieldError(page, 'signup-confirm', t('auth.form.passwordMismatch'))
    // the flash is read once: a reload shows the generic message, no kept value
    if (javaScriptEnabled) await shoot(page, info, `signup-mismatch-${id}`)
    await page.reload()
    await expect(page.getByLabel(t('auth.login.email'), { exact: true })).toHaveValue('')
    await context.close()
  }

  test.describe(`issue 25 §3 forms (${id})`, () => {
    test('sign-up: a mismatched confirmation keeps the e-mail and the ticked terms and says so by the field (JavaScript)', async ({
      browser,
      baseURL,
    }, info) => {
      await mismatch(browser, baseURL!, info, true)
    })

    test('sign-up: the same without JavaScript', async ({ browser, baseURL }, info) => {
      await mismatch(browser, baseURL!, info, false)
    })

    test('the code step: a wrong code says how many tries are left; the right one signs the reader in, back on the page they started from', async ({
      browser,
      baseURL,
    }, info) => {
      const context = await browser.newContext({ ...PHONE, baseURL })
      const page = await context.newPage()
      const email = `forms-code-${Date.now()}@example.com`
      await page.goto('/gift')
      await expect(page).toHaveURL(/\/user\/login\?callback=%2Fgift$/)
      await page.getByRole('link', { name: t('auth.login.signup') }).click()
      await expect(page).toHaveURL(/\/user\/signup\?callback=%2Fgift$/)
      await fillSignUp(page, email, PASSWORD)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('auth.otp.title'))
      const code = await codeFromOutbox(page, email)
      await page.getByLabel(t('auth.otp.code')).fill(code === '000000' ? '000001' : '000000')
      await page.getByRole('button', { name: t('auth.otp.submit') }).click()
      await expectFieldError(page, 'otp-code', plural('auth.form.wrongCode', 4))
      await shoot(page, info, `signup-wrong-code-${id}`)
      await page.getByLabel(t('auth.otp.code')).fill(code)
      await page.getByRole('button', { name: t('auth.otp.submit') }).click()
      await expect(page).toHaveURL(/\/gift$/)
      const me = await page.request.get('/api/v1/user/me')
      expect(me.status()).toBe(200)
      expect((await me.json()).data.user.email).toBe(email)
      await context.close()
    })

    test('sign-in: a wrong password keeps the e-mail; the focus is on the field the message describes; the submit is busy while it waits', async ({
      browser,
      baseURL,
    }, info) => {
      const context = await browser.newContext({ ...PHONE, baseURL })
      const page = await context.newPage()
      const email = await newAccount(page.request)
      await page.goto('/user/login?callback=%2Fcoupon')
      await page.getByLabel(t('auth.login.email'), { exact: true }).fill(email)
      await page.getByLabel(t('auth.login.password')).fill('Wrong-2026!')
      // read just after the submit, while the page waits for the answer (the password check takes a while)
      const waiting = page.evaluate(
        () =>
          new Promise<{ busy: string | null; disabled: boolean; label: string }>((resolve) =>
            document.addEventListener('submit', (e) => {
              const form = e.target as HTMLFormElement
              const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!
              setTimeout(
                () => resolve({ busy: form.getAttribute('aria-busy'), disabled: button.disabled, label: button.textContent ?? '' }),
                10,
              )
            }),
          ),
      )
      await page.getByRole('button', { name: t('auth.login.submit') }).click()
      expect(await waiting).toEqual({ busy: 'true', disabled: true, label: `${t('auth.login.submit')}…` })
      await expect(page).toHaveURL(/\/user\/login\?error=INVALID_PASSWORD&callback=%2Fcoupon$/)
      await expect(page.getByLabel(t('auth.login.email'), { exact: true })).toHaveValue(email)
      await expect(page.getByLabel(t('auth.login.password'))).toHaveValue('')
      await expectFieldError(page, 'login-password', t('error.INVALID_PASSWORD'))
      await shoot(page, info, `login-wrong-password-${id}`)
      await context.close()
    })
  })
}
