/**
 * The viewer island's calls to the API, through the one API client (src/features/session/api.ts: the envelope and the
 * spec §8 follow-ups — NEED_TO_REFRESH tried once more, NOT_FOUND_ACCESS_TOKEN signs out, ADULT_ONLY_CONTENTS asks
 * for the age popup — are its own).
 */
import { api } from '../session/api.ts'
import type { Coin } from '../session/store.ts'
import type { PurchaseRequest } from '../purchase/purchase.schema.ts'
import type { AutoUnlockKind, AutoUnlockState } from './continuous.ts'
import type { AutoUnlockRequest, ProgressRequest, ViewerEpisode } from './viewer.ts'

/** What the island needs of an opened episode (GET /api/v1/viewer/{id}); `prev`/`next` carry their prices. */
export type EpisodeData = Pick<
  ViewerEpisode,
  | 'id'
  | 'no'
  | 'title'
  | 'seriesId'
  | 'seriesTitle'
  | 'contentType'
  | 'slices'
  | 'text'
  | 'prev'
  | 'next'
  | 'nextOpen'
  | 'nextUpdateDay'
  | 'likes'
  | 'liked'
>

export const getEpisode = (id: number) => api<EpisodeData>(`/viewer/${id}`)

/**
 * The episode of a reader's signed slice URL whose expiry has passed, else null. Such URLs live minutes
 * (docs/ARCHITECTURE.md "Slices"): the viewer opens the episode again for fresh ones.
 */
export function expiredSliceEpisode(url: string, now = Date.now()): number | null {
  const signed = /^\/api\/v1\/viewer\/(\d+)\/slice\/\d+\?(?:.*&)?exp=(\d+)/.exec(url)
  return signed && Number(signed[2]) * 1000 <= now ? Number(signed[1]) : null
}
export const getAutoUnlock = (seriesId: number) => api<AutoUnlockState>(`/viewer/auto-unlock/${seriesId}`)
export const putAutoUnlock = (seriesId: number, body: AutoUnlockRequest) =>
  api<AutoUnlockState>(`/viewer/auto-unlock/${seriesId}`, { method: 'PUT', body })
export const deleteAutoUnlock = (seriesId: number) => api<AutoUnlockState>(`/viewer/auto-unlock/${seriesId}`, { method: 'DELETE' })

/**
 * docs/API.md POST /api/v1/purchase for one episode as an automatic unlock (`auto`: the server counts it against
 * the reader's cap for the series, in the purchase itself), with the caller's Idempotency-Key.
 */
export const autoPurchase = (episodeId: number, kind: AutoUnlockKind, key: string) =>
  api<{ purchases: { episodeId: number; kind: string; expiresAt: string | null }[]; coin: Coin }>('/purchase', {
    method: 'POST',
    key,
    body: { episodeIds: [episodeId], kind, auto: true } satisfies PurchaseRequest,
  })

/**
 * Saves the reader's place (docs/API.md progress); `keepalive` lets it leave with the page. `leaving`: the page is
 * going away, sent with `navigator.sendBeacon` (made for that; its string body travels as text/plain, which the
 * route reads as JSON), or as above when the browser does not queue it.
 */
export function postProgress(episodeId: number, position: number, leaving = false): void {
  const body: ProgressRequest = { position }
  if (leaving && navigator.sendBeacon?.(`/api/v1/viewer/${episodeId}/progress`, JSON.stringify(body))) return
  void api(`/viewer/${episodeId}/progress`, { method: 'POST', keepalive: true, body })
}
