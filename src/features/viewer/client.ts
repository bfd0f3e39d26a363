/**
 * The viewer island's calls to the API (docs/API.md envelope: `{result, data}` or `{result: 'ERROR', code}`), and
 * the follow-ups of spec §8 it performs itself: NOT_FOUND_ACCESS_TOKEN logs out, ADULT_ONLY_CONTENTS asks the
 * age popup (`age:required`, contract with the age check), a purchase announces the new balance
 * (`coin:changed`, contract with the header).
 */
import { apiFetch } from '../../lib/shell/request.ts'
import type { AutoUnlockKind, AutoUnlockState } from './continuous.ts'
import type { ViewerEpisode } from './viewer.ts'
import { viewerLoginHref } from './reading.ts'

export type Result<T> = { ok: true; data: T } | { ok: false; code: string; status: number }

/** What the island needs of an opened episode (GET /api/v1/viewer/{id}); `prev`/`next` carry their prices. */
export type EpisodeData = Pick<
  ViewerEpisode,
  'id' | 'no' | 'title' | 'seriesId' | 'seriesTitle' | 'contentType' | 'slices' | 'text' | 'prev' | 'next' | 'nextOpen' | 'nextUpdateDay'
>

/** One API call with the follow-ups of spec §8: NEED_TO_REFRESH is tried once more, NOT_FOUND_ACCESS_TOKEN logs out. */
async function call<T>(path: string, init: RequestInit = {}, retried = false): Promise<Result<T>> {
  let result: Result<T>
  try {
    const res = await apiFetch(path, {
      credentials: 'same-origin',
      ...init,
      headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    })
    const body = (await res.json().catch(() => null)) as { result?: string; data?: T; code?: string } | null
    if (res.ok && body?.result === 'SUCCESS') return { ok: true, data: body.data as T }
    result = { ok: false, code: body?.code ?? 'UNKNOWN', status: res.status }
  } catch {
    return { ok: false, code: 'NETWORK', status: 0 }
  }
  if (result.code === 'NEED_TO_REFRESH' && !retried) return call(path, init, true)
  if (result.code === 'NOT_FOUND_ACCESS_TOKEN') void logout()
  return result
}

export const getEpisode = (id: number) => call<EpisodeData>(`/api/v1/viewer/${id}`)

/**
 * The episode of a reader's signed slice URL whose expiry has passed, else null. Such URLs live minutes
 * (docs/ARCHITECTURE.md "Slices"): the viewer opens the episode again for fresh ones.
 */
export function expiredSliceEpisode(url: string, now = Date.now()): number | null {
  const signed = /^\/api\/v1\/viewer\/(\d+)\/slice\/\d+\?(?:.*&)?exp=(\d+)/.exec(url)
  return signed && Number(signed[2]) * 1000 <= now ? Number(signed[1]) : null
}
export const getAutoUnlock = (seriesId: number) => call<AutoUnlockState>(`/api/v1/viewer/auto-unlock/${seriesId}`)
export const putAutoUnlock = (seriesId: number, budget: number, kind: AutoUnlockKind) =>
  call<AutoUnlockState>(`/api/v1/viewer/auto-unlock/${seriesId}`, { method: 'PUT', body: JSON.stringify({ budget, kind }) })
export const deleteAutoUnlock = (seriesId: number) => call<AutoUnlockState>(`/api/v1/viewer/auto-unlock/${seriesId}`, { method: 'DELETE' })

export type Coin = { coin: number; freeCoin: number; bonus: number; mileage: number; total: number }

/**
 * docs/API.md POST /api/v1/purchase for one episode as an automatic unlock (`auto`: the server counts it against
 * the reader's cap for the series, in the purchase itself), with the caller's Idempotency-Key.
 */
export const autoPurchase = (episodeId: number, kind: AutoUnlockKind, key: string) =>
  call<{ purchases: { episodeId: number; kind: string; expiresAt: string | null }[]; coin: Coin }>('/api/v1/purchase', {
    method: 'POST',
    headers: { 'idempotency-key': key },
    body: JSON.stringify({ episodeIds: [episodeId], kind, auto: true }),
  })

/**
 * Saves the reader's place (docs/API.md progress); `keepalive` lets it leave with the page. `leaving`: the page is
 * going away, sent with `navigator.sendBeacon` (made for that; its string body travels as text/plain, which the
 * route reads as JSON), or as above when the browser does not queue it.
 */
export function postProgress(episodeId: number, position: number, leaving = false): void {
  const url = `/api/v1/viewer/${episodeId}/progress`
  const body = JSON.stringify({ position })
  if (leaving && navigator.sendBeacon?.(url, body)) return
  void apiFetch(url, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body,
  }).catch(() => undefined)
}

/** Contract with the header: the balance after a purchase. */
export function announceCoin(coin: Coin): void {
  document.dispatchEvent(new CustomEvent('coin:changed', { detail: coin }))
}

/** Contract with the age check: open the age popup, then come back here. */
export function requireAge(): void {
  document.dispatchEvent(new CustomEvent('age:required', { detail: { returnTo: location.pathname } }))
}

/**
 * Spec §8 NOT_FOUND_ACCESS_TOKEN → logout: the session service ends the session, then the sign-in page tells the
 * reader why (the catalogue's message, `?error=`) and leads back to the episode on screen.
 */
export async function logout(): Promise<void> {
  try {
    const { csrfToken } = (await (await apiFetch('/api/auth/csrf', { credentials: 'same-origin' })).json()) as { csrfToken: string }
    await apiFetch('/api/auth/signout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ csrfToken, callbackUrl: location.pathname, json: 'true' }),
    })
  } catch {
    /* the sign-in page below is shown either way */
  }
  const episode = /^\/viewer\/(\d+)$/.exec(location.pathname)?.[1]
  location.assign(episode ? `${viewerLoginHref(Number(episode), null)}&error=NOT_FOUND_ACCESS_TOKEN` : location.pathname)
}
