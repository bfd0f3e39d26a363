import { expect, test, type Page } from '@playwright/test'
import { hydrated } from './viewer.helpers.ts'

/**
 * Issue 14 §4: icons are inline SVG shipped with the page, never a font's symbol (which draws as an empty
 * box where the font lacks it), and every icon-only control has an accessible name.
 */

/** Symbols fonts often lack: arrows, technical and geometric shapes, dingbats, emoji. */
const SYMBOLS = /[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\u{1f300}-\u{1faff}]/u

/** Visible text of the page that is a symbol, with what contains it, plus CSS-generated symbols. */
function drawnSymbols(page: Page) {
  return page.evaluate((source) => {
    const re = new RegExp(source, 'u')
    const found: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (re.test(n.textContent ?? '') && n.parentElement?.closest('script, style') === null)
        found.push(`${n.parentElement?.outerHTML.slice(0, 80)}`)
    }
    for (const el of document.querySelectorAll('body *')) {
      for (const pseudo of ['::before', '::after']) {
        const content = getComputedStyle(el, pseudo).content
        if (re.test(content)) found.push(`${el.tagName.toLowerCase()}.${el.className}${pseudo} ${content}`)
      }
    }
    return found
  }, SYMBOLS.source)
}

test('the viewer bar draws SVG icons, each button named', async ({ page }) => {
  await page.goto('/viewer/1')
  await hydrated(page)
  const tools = page.locator('.viewer-bar button')
  await expect(tools).toHaveCount(5)
  for (const name of ['Raccourcis clavier', 'Réglages de lecture', 'Défilement automatique', 'Plein écran', 'Partager']) {
    const button = page.getByRole('button', { name, exact: false }).and(tools)
    await expect(button, name).toHaveCount(1)
    await expect(button.locator('svg[aria-hidden="true"], span[aria-hidden="true"]'), name).toHaveCount(1)
  }
  // its links (back, next episode, comments): an SVG each, named by hidden text
  for (const name of ['Retour à la série', 'Épisode suivant', 'Commentaires']) {
    const link = page.locator('.viewer-bar').getByRole('link', { name, exact: true })
    await expect(link.locator('svg[aria-hidden="true"]'), name).toHaveCount(1)
  }
  const fullscreen = page.getByRole('button', { name: 'Plein écran' })
  const box = (await fullscreen.locator('svg').boundingBox())!
  expect(box.width).toBeGreaterThanOrEqual(16) // drawn, not an empty box
  const auto = page.getByRole('button', { name: 'Défilement automatique' })
  const play = await auto.locator('path').getAttribute('d')
  await auto.click()
  await expect(auto).toHaveAttribute('aria-pressed', 'true')
  expect(await auto.locator('path').getAttribute('d')).not.toBe(play) // the pause icon
  await auto.click()
  await page.keyboard.press('?')
  const help = page.getByRole('dialog', { name: 'Raccourcis clavier' })
  await expect(help.locator('kbd svg')).toHaveCount(4)
  await expect(help).toContainText('Flèche haut')
  expect(await drawnSymbols(page)).toEqual([])
})

test('no page draws a symbol from a font: home, detail (favourite star), notice list', async ({ page }) => {
  for (const path of ['/', '/detail/1', '/notice', '/faq']) {
    await page.goto(path)
    expect(await drawnSymbols(page), path).toEqual([])
  }
  await page.goto('/detail/1')
  await expect(page.locator('.fav svg')).toHaveCount(2) // outline and filled star, one shown by aria-pressed
})
