import type { Page } from '@playwright/test'

/** Steps shared by the low-balance browser tests (issue 25 §2). */

type Preview = {
  ownership: unknown
  freetime: { available: boolean } | null
  offers: { RENT: { single: { affordable: boolean; coins: number } | null } }
}

/** The first episode from `from` that this reader sees locked (not adult) and whose preview passes `want`. */
export async function lockedEpisode(page: Page, from: number, want: (p: Preview) => boolean): Promise<number> {
  for (let id = from; id < from + 80; id++) {
    const res = await page.request.get(`/api/v1/purchase/preview?episodeId=${id}`)
    if (!res.ok()) continue
    const p = ((await res.json()) as { data: Preview }).data
    if (p.ownership !== null || !want(p)) continue
    if ((await page.goto(`/viewer/${id}`))?.status() === 403 && (await page.locator('.locked-episode').count()) === 1) return id
  }
  throw new Error('no locked episode to test with')
}

export const hydrated = (page: Page) => page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' })
