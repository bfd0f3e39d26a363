import { expect, test } from '@playwright/test'
import { signInTo } from './helpers.ts'

/** Issue 25 point 8: an action keeps focus where it was — Like, pressed from the keyboard, stays focused. */
test('Like keeps focus on the Like button of the same comment, now pressed', async ({ page }) => {
  await signInTo(page, '/comment?contentsId=24')
  await page.locator('html[data-comment-ready]').waitFor({ state: 'attached' })
  const text = `Focus e2e ${Date.now()}`
  await page.getByLabel('Votre commentaire').fill(text)
  await page.getByRole('button', { name: 'Publier', exact: true }).click()
  const item = page.locator('li.comment', { hasText: text })
  await expect(item).toBeFocused()
  const like = item.getByRole('button', { name: /^J'aime/ })
  await like.focus()
  await page.keyboard.press('Enter')
  await expect(item.getByRole('button', { name: "J'aime (1)" })).toHaveAttribute('aria-pressed', 'true')
  await expect(item.getByRole('button', { name: "J'aime (1)" })).toBeFocused()
  page.on('dialog', (d) => void d.accept())
  await item.getByRole('button', { name: 'Supprimer' }).click()
  await expect(item).toHaveCount(0)
})
