/**
 * The series page's Share buttons (`ShareButton.astro`), wired up front with nothing else: the sharing itself
 * (share.client.ts) loads on the first tap, well within the browser's user-activation window, so a page that is
 * only read never loads it (issue 40 point 1: what only some readers use loads when they use it).
 */
import type { ShareData } from './share.ts'

/**
 * The server-rendered buttons (`ShareButton.astro`): each carries its data and texts. It is shown once it
 * works (without JavaScript its place stays empty, so nothing moves when it appears).
 */
export function wireShareButtons(): void {
  document.querySelectorAll<HTMLButtonElement>('button[data-share]').forEach((button) => {
    const d = button.dataset
    const data = JSON.parse(d.share!) as ShareData
    let busy = false
    button.addEventListener('click', async () => {
      if (busy) return // one sheet at a time (a second call while one is open is refused by the browser)
      busy = true
      const { shareLink } = await import('./share.client.ts')
      await shareLink(data, { copied: d.copied!, failed: d.failed! })
      busy = false
    })
    button.dataset.ready = ''
  })
}
