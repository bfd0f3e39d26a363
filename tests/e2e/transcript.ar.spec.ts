import { expect, test } from '@playwright/test'
import { hydrated, seriousViolations } from './viewer.helpers.ts'

/**
 * Transcripts right to left (issue 14 part 5): on the ar edition, series 24 ("ملكة الظلال") carries Arabic alt
 * text and transcripts; its first episode (free) is id 277. The ar test server runs without slice images
 * (`--no-images`): the alt text, the transcript and the layout are what is checked.
 */
const EPISODE = 277

test('the Arabic transcript reads right to left, toggles by keyboard and sits at the end side of each slice', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto(`/viewer/${EPISODE}`)
  await hydrated(page)
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
  const images = page.locator('#viewer-content img')
  await expect(images.first()).toHaveAttribute('alt', 'صفحة العنوان: ملكة الظلال، الحلقة 1.')
  await expect(images.nth(1)).toHaveAttribute('alt', 'في قاعة عرش مظلمة، تنهض الملكة إيزولد، ويمتدّ ظلّها حتى الأبواب.')

  const region = page.getByRole('region', { name: 'الصور والنص المكتوب' })
  const tree = await region.ariaSnapshot()
  const order = [
    'في قاعة عرش مظلمة',
    'إيزولد: من يجرؤ على الدخول دون استئذان؟',
    'الرسول: جلالتك… جيش الشمال عبر النهر.',
    'تتشكّل ظلال القاعة',
    'مؤثر صوتي: غررر…',
  ]
  const at = order.map((t) => tree.indexOf(t))
  expect(
    at.every((p) => p >= 0),
    tree,
  ).toBe(true)
  expect([...at].sort((a, b) => a - b)).toEqual(at)

  const toggle = page.getByRole('button', { name: 'النص المكتوب' })
  await expect(toggle).toHaveAttribute('aria-pressed', 'false')
  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  const block = page.locator('#viewer-content .viewer-transcript').nth(1)
  await expect(block).toBeVisible()
  expect(await block.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl')
  const line = (await block.locator('.viewer-tr-speech').first().boundingBox())!
  const box = (await block.boundingBox())!
  expect(line.x + line.width).toBeGreaterThan(box.x + box.width - 20) // starts at the right
  await block.scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('transcript-ar-390.png') })
  expect(await seriousViolations(page)).toEqual([])

  await page.setViewportSize({ width: 1280, height: 900 })
  await block.scrollIntoViewIfNeeded()
  const wide = (await block.boundingBox())!
  const img = (await images.nth(1).boundingBox())!
  expect(wide.x + wide.width).toBeLessThanOrEqual(img.x) // beside, on the end side: the left
  expect(wide.x).toBeGreaterThanOrEqual(0)
  await page.screenshot({ path: test.info().outputPath('transcript-ar-1280.png') })
  expect(await seriousViolations(page)).toEqual([])
})
