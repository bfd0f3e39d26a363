import { expect, test, type Page } from '@playwright/test'
import { hydrated, seriousViolations } from './viewer.helpers.ts'

/**
 * Panels a screen reader can read (issue 14 part 5) on the seeded demo: series 3 ("Lettres d’un été") carries
 * alt text and a transcript on every slice; its first episode (free) is id 24. Series 1 has none (episode 1).
 */
const EPISODE = 24
const WITHOUT = 1

/** What a screen reader meets in the strip, in order: each image's alt text, then its transcript lines. */
const READING_ORDER = [
  'Page de titre : Lettres d’un été, Épisode 1.',
  'Récitatif : Lettres d’un été — Épisode 1',
  'Sur le quai d’une petite gare, Claire ouvre une enveloppe jaunie.',
  'Récitatif : Août, vingt ans plus tard.',
  'Claire : Cette écriture… c’est celle de Jules.',
  'Récitatif : « Si tu lis ceci, c’est que je n’ai jamais osé te le dire. »',
  'Le train s’éloigne ; Claire serre la lettre contre elle.',
  'Bruitage : Tchou… tchou…',
  'Claire : Vingt ans trop tard, Jules.',
]

/** Tabs from the top of the page until `target` has the focus (a keyboard user's way to the toggle). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((el) => el === document.activeElement)) return
  }
  throw new Error('the toggle is not reachable with Tab')
}

/** Positions of READING_ORDER's texts in the strip's accessibility tree (aria snapshot). */
async function positions(page: Page): Promise<number[]> {
  const tree = (await page.getByRole('region', { name: 'Planches et transcription' }).ariaSnapshot()).replace(/\u00a0|\u202f/g, ' ')
  return READING_ORDER.map((text) => tree.indexOf(text))
}

test.describe('transcripts in the French viewer', () => {
  test('alt text per slice; the transcript is read in order, toggled by keyboard, announced, remembered', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 })
    // in the server HTML already (before and without hydration)
    const html = await (await page.request.get(`/viewer/${EPISODE}`)).text()
    expect(html).toContain('Cette écriture… c’est celle de Jules.')
    expect(html).toContain('aria-pressed="false"')

    await page.goto(`/viewer/${EPISODE}`)
    await hydrated(page)
    const images = page.locator('#viewer-content img')
    await expect(images).toHaveCount(3)
    for (const [i, alt] of [READING_ORDER[0], READING_ORDER[2], READING_ORDER[6]].entries())
      await expect(images.nth(i)).toHaveAttribute('alt', alt!)

    // off: hidden from sight, read by a screen reader right after each image, in order
    const toggle = page.getByRole('button', { name: 'Transcription' })
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await expect(toggle).toHaveAttribute('aria-controls', 'viewer-strip')
    const block = page.locator('#viewer-content .viewer-transcript').nth(1)
    expect((await block.boundingBox())!.width).toBeLessThanOrEqual(1)
    const off = await positions(page)
    expect(
      off.every((p) => p >= 0),
      JSON.stringify(off),
    ).toBe(true)
    expect([...off].sort((a, b) => a - b)).toEqual(off)

    // on, by keyboard: the button says it is pressed, the text shows below each slice, same order
    await tabTo(page, toggle)
    await page.keyboard.press('Enter')
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await expect(toggle).toBeFocused()
    await expect(block).toBeVisible()
    const box = (await block.boundingBox())!
    const img = (await images.nth(1).boundingBox())!
    expect(box.width).toBeGreaterThan(300)
    expect(box.y).toBeGreaterThanOrEqual(img.y + img.height - 1) // below its image on a phone
    await expect(block).toContainText('Claire : Cette écriture… c’est celle de Jules.')
    await page.screenshot({ path: test.info().outputPath('transcript-fr-390-top.png') })
    const on = await positions(page)
    expect([...on].sort((a, b) => a - b)).toEqual(on)
    expect(await seriousViolations(page)).toEqual([])

    // remembered with the reading settings: the server renders it shown on the next visit
    await page.reload()
    await hydrated(page)
    await expect(page.getByRole('button', { name: 'Transcription' })).toHaveAttribute('aria-pressed', 'true')
    const again = await (await page.request.get(`/viewer/${EPISODE}`)).text()
    expect(again).toMatch(/class="viewer-strip show-transcript"/)
    expect(again).toContain('aria-pressed="true"')

    // Space turns it off again
    await page.getByRole('button', { name: 'Transcription' }).focus()
    await page.keyboard.press(' ')
    await expect(page.getByRole('button', { name: 'Transcription' })).toHaveAttribute('aria-pressed', 'false')
    expect((await block.boundingBox())!.width).toBeLessThanOrEqual(1)
  })

  test('beside each slice on a wide screen; the JSON-LD declares the transcript', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`/viewer/${EPISODE}`)
    await hydrated(page)
    await page.getByRole('button', { name: 'Transcription' }).click()
    const block = page.locator('#viewer-content .viewer-transcript').nth(1)
    const box = (await block.boundingBox())!
    const img = (await page.locator('#viewer-content img').nth(1).boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(img.x + img.width) // beside, on the end side
    expect(box.x + box.width).toBeLessThanOrEqual(1280)
    expect(Math.abs(box.y - img.y)).toBeLessThan(2)
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)
    await block.scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('transcript-fr-1280.png') })
    expect(await seriousViolations(page)).toEqual([])

    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!)
    expect(ld).toMatchObject({
      '@type': 'ComicIssue',
      accessMode: ['visual', 'textual'],
      accessibilityFeature: ['alternativeText', 'transcript'],
    })
    expect(ld.text).toContain('Claire: Cette écriture… c’est celle de Jules.')

    await page.setViewportSize({ width: 390, height: 800 })
    await block.scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('transcript-fr-390.png') })
  })

  test('a series without transcripts is as before: no toggle, no region, no transcript in the JSON-LD', async ({ page }) => {
    await page.goto(`/viewer/${WITHOUT}`)
    await hydrated(page)
    await expect(page.locator('#viewer-content img')).toHaveCount(3)
    await expect(page.getByRole('button', { name: 'Transcription' })).toHaveCount(0)
    await expect(page.getByRole('region', { name: 'Planches et transcription' })).toHaveCount(0)
    await expect(page.locator('.viewer-transcript')).toHaveCount(0)
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!)
    expect(ld).not.toHaveProperty('accessibilityFeature')
  })
})
