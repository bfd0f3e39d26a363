/**
 * The server-rendered Share buttons (`ShareButton.astro`), wired in the page's script: each carries its data and
 * texts, and is shown once it works (without JavaScript its place stays empty, so nothing moves when it appears).
 * The sharing itself (share.client.ts, ~0.7 KB) loads when a reader reaches for a button (pointer down, focus, a
 * key), before the click that needs it; a sheet refused for a gesture that went stale falls back to the copy.
 */
import type { ShareData } from './share.ts'

let loading: Promise<typeof import('./share.client.ts')> | null = null
const load = () => (loading ??= import('./share.client.ts'))

export function wireShareButtons(): void {
  document.querySelectorAll<HTMLButtonElement>('button[data-share]').forEach((button) => {
    const d = button.dataset
    const data = JSON.parse(d.share!) as ShareData
    let busy = false
    for (const early of ['pointerdown', 'focus', 'keydown']) button.addEventListener(early, () => void load(), { once: true })
    button.addEventListener('click', async () => {
      if (busy) return // one sheet at a time (a second call while one is open is refused by the browser)
      busy = true
      try {
        await (await load()).shareLink(data, { copied: d.copied!, failed: d.failed! })
      } finally {
        busy = false
      }
    })
    button.dataset.ready = ''
  })
}
