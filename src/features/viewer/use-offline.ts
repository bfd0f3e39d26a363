/**
 * Offline reading (spec §2 viewer; public/sw.js, scope /viewer/): an owned or rented episode is saved by the
 * service worker — its page, every slice width and the site's assets — until `expiresAt` for a rental; the
 * worker shows the `expired` page after that.
 */
import { useState } from 'react'
import { offlineUrls } from './reading.ts'
import { registerStartPage } from '../install/start-page.ts'
import type { ViewerSlice } from './viewer.ts'

type OfflineState = 'idle' | 'saving' | 'saved' | 'failed'

/**
 * `offline`: null when the episode may not be saved, else until when and the series and episode names the
 * settings page lists it by; `expired`: the title and text of the page shown after expiry.
 */
export function useOffline(
  episodeId: number,
  slices: readonly ViewerSlice[],
  offline: { expiresAt: string | null; series: string; episode: string } | null,
  expired: { title: string; text: string },
) {
  const [offlineState, setOfflineState] = useState<OfflineState>('idle')
  const saveOffline = async () => {
    if (!offline || !('serviceWorker' in navigator)) {
      setOfflineState('failed')
      return
    }
    setOfflineState('saving')
    try {
      await navigator.serviceWorker.register('/sw.js', { scope: '/viewer/' })
      const reg = await navigator.serviceWorker.ready
      const resources = performance.getEntriesByType('resource').map((e) => e.name)
      const channel = new MessageChannel()
      const answer = new Promise<{ ok: boolean }>((resolve) => {
        channel.port1.onmessage = (e) => resolve(e.data as { ok: boolean })
      })
      reg.active!.postMessage(
        {
          type: 'save',
          episodeId,
          page: `/viewer/${episodeId}`,
          urls: offlineUrls(
            slices.map((sl) => sl.srcset),
            resources,
            location.origin,
          ),
          expiresAt: offline.expiresAt,
          series: offline.series,
          episode: offline.episode,
          expired: { lang: document.documentElement.lang, dir: document.documentElement.dir, title: expired.title, text: expired.text },
        },
        [channel.port2],
      )
      const { ok } = await answer
      setOfflineState(ok ? 'saved' : 'failed')
      if (ok) void registerStartPage() // offline, any other page now leads to the saved episodes
    } catch {
      setOfflineState('failed')
    }
  }
  return { offlineState, saveOffline }
}
