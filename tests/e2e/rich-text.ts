import { expect, test } from '@playwright/test'
import { noSeriousViolations } from './helpers.ts'
import { ops, shoot } from './steps.ts'

/**
 * Spec §2's rich-text labels on a page, in one edition: the real CLI (`scripts/ops.ts notice publish`) publishes a
 * notice whose title carries an operator's markup with hostile parts (more in src/lib/text/rich-text.test.ts); its page (a new address, so no cached copy)
 * shows the coloured, bold word as a class of the site's palette, the outside link opening a new tab, and nothing of the
 * script, the event handlers, the `javascript:` link or the style attributes; the tab's title is the text alone. No
 * serious axe finding (colour contrast included) in the light and the dark scheme. Screenshots at 390 and 1280 px.
 */
export function richTextSuite(id: 'fr' | 'ar') {
  test(`${id}: a notice title's markup renders safely, in the palette's colours`, async ({ page, baseURL }, info) => {
    test.setTimeout(60_000)
    const word = id === 'ar' ? 'صيانة' : 'Maintenance'
    const rest = id === 'ar' ? 'الليلة' : 'cette nuit'
    // the notice title's limit is 200 characters
    const title =
      `<span style="color:#e60012;font-weight:bold" onclick=alert(1)>${word}</span> ${rest} ` +
      `<a href="https://a.example/">status</a><script>alert(2)</script><a href=javascript:alert(3)>x</a>`
    const published = await ops(baseURL!, ['notice', 'publish', '--title', title, '--body', 'Corps', '--reason', 'test'])
    expect(published.code, published.stderr).toBe(0)
    const noticeId = /notice (\d+)/.exec(published.stdout)?.[1]
    expect(noticeId, published.stdout).toBeDefined()

    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      await page.goto(`/notice/detail/${noticeId}`)
      const h1 = page.getByRole('heading', { level: 1 })
      await expect(h1).toHaveText(`${word} ${rest} statusx`)
      await expect(h1.locator('span.rt-red.rt-bold')).toHaveText(word)
      await expect(h1.getByRole('link', { name: 'status' })).toHaveAttribute('target', '_blank')
      await expect(h1.getByRole('link', { name: 'status' })).toHaveAttribute('rel', 'noopener noreferrer')
      await expect(h1.locator('a')).toHaveCount(1)
      expect(await h1.innerHTML()).not.toMatch(/script|onerror|onclick|alert|style=|<img/i)
      await expect(page).toHaveTitle(new RegExp(`^${word} ${rest} statusx `))
      await noSeriousViolations(page)
    }
    expect(dialogs).toEqual([])
    await shoot(page, info, 'rich-text-notice')
  })
}
