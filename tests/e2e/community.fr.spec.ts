import { expect, test } from '@playwright/test'
import { noSeriousViolations, signInTo } from './helpers.ts'

/**
 * Community browser proofs (French edition): a reader posts a comment on a series, replies to it and deletes
 * both, in place, with the result announced; with JavaScript off the same forms still post and the page comes
 * back with the comment; a question filed on /qna/register shows on /qna as waiting.
 */

const SERIES = '/comment?contentsId=24'

test.describe('comments (French edition)', () => {
  test('a guest reads the comments and is offered to sign in', async ({ page }) => {
    const res = await page.goto(SERIES)
    expect(Number(res?.headers()['x-d1-queries'])).toBeLessThanOrEqual(5) // docs/QUALITY.md budget per edge-rendered page
    await expect(page.getByRole('heading', { level: 1, name: 'Commentaires' })).toBeVisible()
    await expect(page.getByText('Ma série préférée de la saison, sans hésiter.')).toBeVisible()
    await expect(page.getByRole('link', { name: 'Se connecter' })).toBeVisible()
    await page.getByRole('link', { name: 'Meilleurs' }).click()
    await expect(page.getByRole('link', { name: 'Meilleurs' })).toHaveAttribute('aria-current', 'page')
    await noSeriousViolations(page)
  })

  test('a reader posts, replies and deletes in place, each result announced', async ({ page }) => {
    page.on('dialog', (d) => void d.accept())
    await signInTo(page, SERIES)
    const again = await page.reload()
    console.log(`D1 queries, signed-in /comment: ${again?.headers()['x-d1-queries']}`)
    await page.locator('html[data-comment-ready]').waitFor({ state: 'attached' })
    const text = `Commentaire e2e ${Date.now()}`
    await page.getByLabel('Votre commentaire').fill(text)
    await expect(page.locator('#comment-count')).toContainText(`${text.length} / 500`)
    const url = page.url()
    await page.getByRole('button', { name: 'Publier', exact: true }).click()
    const item = page.locator('li.comment', { hasText: text })
    await expect(item).toBeVisible()
    await expect(page.locator('#comment-live')).toHaveText('Votre commentaire a été publié.')
    expect(page.url()).toBe(url) // in place, no navigation
    await expect(item).toBeFocused()
    await noSeriousViolations(page)

    await item.getByText('Répondre').click()
    await item.getByLabel(/Votre réponse à/).fill('Réponse e2e')
    await item.getByRole('button', { name: 'Publier la réponse' }).click()
    await expect(page.locator('li.comment', { hasText: text }).locator('li.reply', { hasText: 'Réponse e2e' })).toBeVisible()

    const top = page.locator('li.comment:not(.reply)', { hasText: text })
    await top.locator('li.reply', { hasText: 'Réponse e2e' }).getByRole('button', { name: 'Supprimer' }).click()
    await expect(page.locator('#comment-live')).toHaveText('Votre commentaire a été supprimé.')
    await expect(page.getByText('Réponse e2e')).toHaveCount(0)
    await page.locator('li.comment:not(.reply)', { hasText: text }).getByRole('button', { name: 'Supprimer' }).first().click()
    await expect(page.getByText(text)).toHaveCount(0)
  })

  test('a refused text keeps what was typed and says why', async ({ page }) => {
    await signInTo(page, SERIES)
    await page.locator('html[data-comment-ready]').waitFor({ state: 'attached' })
    await page.getByLabel('Votre commentaire').fill('Quelle arnaque ce chapitre')
    await page.getByRole('button', { name: 'Publier', exact: true }).click()
    await expect(page.locator('#comment-live')).toHaveText("Le mot arnaque n'est pas autorisé.")
    await expect(page.getByLabel('Votre commentaire')).toHaveValue('Quelle arnaque ce chapitre')
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the comment form posts and the page comes back with the comment; the QnA form files a question', async ({ page }) => {
    await signInTo(page, SERIES, { email: 'minor@example.com', password: 'Minor-2026!' })
    const text = `Sans JavaScript ${Date.now()}`
    await page.getByLabel('Votre commentaire').fill(text)
    await page.getByRole('button', { name: 'Publier', exact: true }).click()
    await expect(page).toHaveURL(/\/comment\?contentsId=24&posted=\d+#c\d+$/)
    await expect(page.getByRole('status').filter({ hasText: 'Votre commentaire a été publié.' })).toBeVisible()
    await expect(page.locator('li.comment', { hasText: text })).toBeVisible()
    await page.locator('li.comment', { hasText: text }).getByRole('button', { name: 'Supprimer' }).click()
    await expect(page).toHaveURL(/deleted=1/)
    await expect(page.getByText(text)).toHaveCount(0)

    await page.goto('/qna/register')
    await page.getByLabel('Catégorie').selectOption('VIEWER')
    const title = `Question e2e ${Date.now()}`
    await page.getByLabel('Objet').fill(title)
    await page.getByLabel('Votre question').fill('Comment changer le sens de lecture ?')
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
    await page.getByLabel('Images (facultatif)').setInputFiles({ name: 'capture.png', mimeType: 'image/png', buffer: png })
    await page.getByRole('button', { name: 'Envoyer la question' }).click()
    await page.waitForURL(/\/qna(\/register)?\?/)
    if (page.url().includes('error=LIMIT_QNA_COUNT')) {
      // the persisted e2e database already holds 5 of today's questions of this account (spec §8 daily maximum)
      await expect(page.getByRole('alert')).toContainText('nombre maximal de demandes')
      await expect(page.getByLabel('Objet')).toHaveValue(title)
      test.info().annotations.push({
        type: 'note',
        description: 'daily QnA limit reached in the persisted e2e state; reset .wrangler/e2e-fr-* for the full path',
      })
      return
    }
    await expect(page).toHaveURL(/\/qna\?sent=\d+/)
    await expect(page.getByText('Votre question a été envoyée.', { exact: false })).toBeVisible()
    const row = page.locator('li', { hasText: title })
    await expect(row.getByText('En attente de réponse')).toBeVisible()
    const image = await page.request.get((await row.getByRole('img', { name: 'Pièce jointe 1' }).getAttribute('src'))!)
    expect(image.headers()['content-type']).toBe('image/png')
  })

  test('the demo reader sees the answered question on /qna', async ({ page }) => {
    await signInTo(page, '/qna')
    await expect(page.locator('li', { hasText: 'Pièces non reçues' }).getByText('Répondu', { exact: true })).toBeVisible()
    await expect(page.locator('li', { hasText: 'Mode page par page' }).getByText('En attente de réponse')).toBeVisible()
  })
})

test('the support pages pass the accessibility check', async ({ page }) => {
  await signInTo(page, '/qna')
  await noSeriousViolations(page)
  await page.goto('/qna/register')
  await noSeriousViolations(page)
  await page.goto('/comment/my')
  await noSeriousViolations(page)
})
