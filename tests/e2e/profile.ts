import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { messagesOf } from './journey.ts'
import { seriousViolations } from './helpers.ts'
import { readerPage } from './forms.ts'
import { PHONE, shoot as shootBoth } from './steps.ts'

/**
 * Issue 12 point 2 in one edition, on a phone (390×844): a reader without JavaScript goes from /my to /my/profile,
 * sets a nickname and sees it on the comment they post; another reader (with JavaScript, where axe can run) sees it
 * there too, and is refused the same nickname (in another case) and a prohibited one, each message beside the field, in the
 * edition's language, with the focus on the field and what they typed kept. Screenshots at 390 and 1280 px.
 */
/** A series every edition's demo catalogue has, open to every reader. */
const SERIES = '/comment?contentsId=24'

const shoot = (page: Page, info: TestInfo, name: string) => shootBoth(page, info, name, { after: PHONE })

export function profileSuite(id: string, base: string) {
  const t = messagesOf(id)
  const fill = (key: string, params: Record<string, string | number>) =>
    Object.entries(params).reduce((text, [k, v]) => text.replace(`{{${k}}}`, String(v)), t(key))

  async function setNickname(page: Page, nickname: string) {
    await page.getByLabel(t('account.profile.nickname'), { exact: true }).fill(nickname)
    await page.getByRole('button', { name: t('account.profile.save') }).click()
  }

  /** The nickname field is invalid, described by `text`, focused, and still holds `value`. */
  async function expectRefused(page: Page, text: string, value: string) {
    const field = page.getByLabel(t('account.profile.nickname'), { exact: true })
    await expect(page).toHaveURL(/\/my\/profile\?error=INVALID_PARAMETER&reason=/)
    await expect(field).toHaveAttribute('aria-invalid', 'true')
    await expect(page.locator('#nickname-error')).toHaveText(text)
    await expect(field).toHaveAccessibleDescription(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    await expect(field).toBeFocused()
    await expect(field).toHaveValue(value)
  }

  test(`${id}: a reader sets a nickname and sees it on their comment; a taken or prohibited one is refused`, async ({
    browser,
    baseURL,
  }, info) => {
    test.setTimeout(240_000) // two sign-ups, two axe runs and eight screenshots on a shared machine
    const nickname = `${base}${Date.now().toString(36).slice(-6)}`
    const first = await readerPage(browser, baseURL!, false, t)
    const page = first.page
    await page.goto('/my')
    await expect(page.getByTestId('my-nickname')).toContainText(t('account.profile.none'))
    await page.getByRole('link', { name: t('account.profile.edit') }).click()
    await expect(page).toHaveURL(/\/my\/profile$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('account.profile.title'))
    const save = page.getByRole('button', { name: t('account.profile.save') })
    expect((await save.boundingBox())!.height).toBeGreaterThanOrEqual(44)
    expect((await page.getByLabel(t('account.profile.nickname'), { exact: true }).boundingBox())!.height).toBeGreaterThanOrEqual(44)

    await setNickname(page, `  ${nickname} `)
    await expect(page).toHaveURL(/\/my\/profile\?saved=1$/)
    await expect(page.getByRole('status')).toHaveText(t('account.profile.saved'))
    await expect(page.getByLabel(t('account.profile.nickname'), { exact: true })).toHaveValue(nickname)
    await shoot(page, info, `profile-saved-${id}`)

    // the comment shows the nickname (marked as the reader's own)
    const text = `Profil e2e ${Date.now()}`
    await page.goto(SERIES)
    await page.getByLabel(t('community.comment.form.label')).fill(text)
    await page.getByRole('button', { name: t('community.comment.form.submit'), exact: true }).click()
    const mine = page.locator('li.comment', { hasText: text })
    await expect(mine.locator('.author')).toHaveText(fill('community.comment.you', { name: nickname }))
    await shoot(page, info, `profile-comment-${id}`)

    // another reader sees the nickname on it, and cannot take it (another case) nor a prohibited word
    const second = await readerPage(browser, baseURL!, true, t)
    const other = second.page
    await other.goto(SERIES)
    await expect(other.locator('li.comment', { hasText: text }).locator('.author')).toHaveText(nickname)
    await other.goto('/my/profile')
    await setNickname(other, nickname.toUpperCase())
    await expectRefused(other, t('account.profile.taken'), nickname.toUpperCase())
    expect(await seriousViolations(other)).toEqual([])
    await shoot(other, info, `profile-taken-${id}`)
    await setNickname(other, `${base}arnaque`)
    await expectRefused(other, fill('community.comment.banned', { word: 'arnaque' }), `${base}arnaque`)
    await shoot(other, info, `profile-banned-${id}`)
    await other.goto('/my')
    await expect(other.getByTestId('my-nickname')).toContainText(t('account.profile.none'))
    await first.context.close()
    await second.context.close()
  })
}
