/**
 * Viewer rules without I/O (spec §2 viewer, §3 ownership kinds and viewer modes, §5 adult status, §8 Viewer
 * errors, §9 image widths and lazy load): who may open an episode, where a reader is in it, and how a
 * paid slice URL is signed so that it is neither guessable nor reusable by another account.
 */
import { z } from 'zod'
import { SLICE_WIDTHS } from '../catalogue/catalogue.ts'
import type { TranscriptLine } from '../catalogue/transcript.ts'
import { fromB64url, toB64url } from '../../lib/b64url.ts'
import { heldNow, type Holding, type OwnershipKind } from '../ownership/holding.ts'
import { mayOpen } from '../age/age.ts'

/** The episode as the access rule sees it. */
export type AccessEpisode = { isFree: boolean; seriesIsAdult: boolean }

/** Why an episode opens: FREE, or the ownership kind that opens it. */
type OpenReason = 'FREE' | OwnershipKind

export type Access =
  { open: true; via: OpenReason; expiresAt: string | null } | { open: false; code: 'ADULT_ONLY_CONTENTS' | 'UNAUTHORIZED_CONTENTS' }

/**
 * Spec §2/§6/§8: an adult series needs an adult reader first (ADULT_ONLY_CONTENTS opens the age popup, even
 * for a free episode); then the episode opens when it is free or held now (`heldNow`: kept for good, or a
 * rental or unlock whose `expiresAt` is still ahead). Anything else is UNAUTHORIZED_CONTENTS: the page shows the
 * rent-or-buy choice, never the images.
 */
export function episodeAccess(episode: AccessEpisode, reader: { adult: boolean }, holdings: readonly Holding[], now: Date): Access {
  if (!mayOpen(episode.seriesIsAdult, reader.adult)) return { open: false, code: 'ADULT_ONLY_CONTENTS' }
  if (episode.isFree) return { open: true, via: 'FREE', expiresAt: null }
  const held = heldNow(holdings, now)
  if (held) return { open: true, via: held.kind, expiresAt: held.expiresAt }
  return { open: false, code: 'UNAUTHORIZED_CONTENTS' }
}

// ───────────────────────────── reading progress ─────────────────────────────

/** `POST /api/v1/viewer/{episodeId}/progress` body: where the reader is, 0 (top) to 1 (end). */
export const ProgressRequest = z.object({ position: z.number().min(0).max(1) })
export type ProgressRequest = z.infer<typeof ProgressRequest>

// ───────────────────────────── continuous reading ─────────────────────────────

/** `PUT /api/v1/viewer/auto-unlock/{seriesId}` body: the reader confirmed automatic unlocks up to `budget` coins. */
export const AutoUnlockRequest = z.object({
  budget: z.number().int().min(1).max(10_000),
  kind: z.enum(['RENT', 'POSSESSION']).default('RENT'),
})
export type AutoUnlockRequest = z.infer<typeof AutoUnlockRequest>

// ───────────────────────────── slices ─────────────────────────────

/** A stored slice width for a requested width (the smallest stored ≥ w), or null when w is not a sane width. */
export function sliceWidth(w: number): number | null {
  if (!Number.isInteger(w) || w < 1 || w > 4096) return null
  return SLICE_WIDTHS.find((x) => x >= w) ?? SLICE_WIDTHS[SLICE_WIDTHS.length - 1]!
}

/**
 * How long a reader's signed slice URL stays valid, and the step its expiry is rounded up to (URLs stay the same
 * for a while, so the browser keeps its copy). The slice route serves on the signature alone, without reading D1
 * (docs/ARCHITECTURE.md "Slices"): a withdrawal, a password change or "sign out everywhere" stops new URLs at once
 * (opening an episode checks the session) and the outstanding ones within SLICE_URL_MAX_S.
 */
const SLICE_URL_TTL_S = 10 * 60
const SLICE_URL_STEP_S = 5 * 60
/** The longest a signed slice URL lives: TTL plus one step. */
export const SLICE_URL_MAX_S = SLICE_URL_TTL_S + SLICE_URL_STEP_S

/**
 * Expiry (epoch seconds) of slice URLs signed at `now`: at least TTL ahead, rounded up to the step, and never past
 * `until` (a rental's end: its URLs die with it).
 */
export function sliceExpiry(now: Date, until: string | null = null): number {
  const min = Math.floor(now.getTime() / 1000) + SLICE_URL_TTL_S
  const exp = Math.ceil(min / SLICE_URL_STEP_S) * SLICE_URL_STEP_S
  return until === null ? exp : Math.min(exp, Math.floor(Date.parse(until) / 1000))
}

/**
 * The fields a reader's slice signature covers: which slice of which episode (and its R2 key, so that serving it
 * needs no query), at which width, for whom (0: a guest), until when.
 */
export type SliceClaim = { episodeId: number; n: number; key: string; w: number; userId: number; exp: number }

const encoder = new TextEncoder()

/** HMAC key for slice URLs, derived from SESSION_SECRET with its own HKDF label (never the token keys). */
export async function sliceKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('webtoon-store/v1'), info: encoder.encode('viewer-slice HMAC-SHA256') },
    base,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  )
}

// Each kind of URL signs its own message (a prefix of its own), so a public signature never passes for a reader's.
const readerMessage = (c: SliceClaim) => `slice/v2|${c.episodeId}|${c.n}|${c.w}|${c.userId}|${c.exp}|${c.key}`
const publicMessage = (key: string) => `media/v1|${key}`

const sign = async (key: CryptoKey, message: string) => toB64url(await crypto.subtle.sign('HMAC', key, encoder.encode(message)))

/** Constant-time compare by WebCrypto. */
function verify(key: CryptoKey, message: string, sig: string): Promise<boolean> {
  const bytes = sig.length === 43 ? fromB64url(sig) : null
  return bytes ? crypto.subtle.verify('HMAC', key, bytes, encoder.encode(message)) : Promise.resolve(false)
}

/** The signature of a reader's slice URL (HMAC-SHA256, base64url). */
export function signSlice(key: CryptoKey, claim: SliceClaim): Promise<string> {
  return sign(key, readerMessage(claim))
}

/** Whether `sig` signs `claim` and `claim.exp` is still ahead of `now`. */
export async function verifySlice(key: CryptoKey, claim: SliceClaim, sig: string, now: Date): Promise<boolean> {
  if (!(claim.exp > now.getTime() / 1000)) return false
  return verify(key, readerMessage(claim), sig)
}

/**
 * The signature that makes an episode image public on /media (a free episode of a series for everyone): the
 * slice's R2 key alone, so every reader gets the same URL and the edge cache keeps one copy.
 */
export function signPublicSlice(key: CryptoKey, sliceKey: string): Promise<string> {
  return sign(key, publicMessage(sliceKey))
}

export function verifyPublicSlice(key: CryptoKey, sliceKey: string, sig: string): Promise<boolean> {
  return verify(key, publicMessage(sliceKey), sig)
}

/** The URL of a reader's slice: the slice route serves it on the signature and the caller's credential alone. */
export function signedSliceUrl(claim: Omit<SliceClaim, 'userId'>, sig: string): string {
  return `/api/v1/viewer/${claim.episodeId}/slice/${claim.n}?w=${claim.w}&exp=${claim.exp}&k=${encodeURIComponent(claim.key)}&sig=${sig}`
}

/**
 * R2 keys of episode images start with this (`series/<id>/ep/<no>/<n>`, the import's and the seed's layout): /media
 * serves them only with a public signature, whoever guesses a key.
 */
export const EPISODE_IMAGE_PREFIX = 'series/'

/** Text of a TEXT (novel) episode as paragraphs (blank lines separate them). */
export function paragraphs(body: string | null): string[] {
  return (body ?? '')
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
}

/** A neighbour episode; its prices let the viewer offer (or automatically make) the unlock of a locked one. */
export type EpisodeLink = { id: number; no: number; title: string; isFree: boolean; priceRent: number | null; priceBuy: number | null }
/** `transcript`: the slice's speech and captions in reading order, null when it has none. */
export type ViewerSlice = {
  n: number
  width: number
  height: number
  alt: string
  transcript: TranscriptLine[] | null
  src: string
  srcset: string
}

export type ViewerEpisode = {
  id: number
  no: number
  title: string
  seriesId: number
  seriesTitle: string
  contentType: 'IMAGE' | 'TEXT'
  isFree: boolean
  priceRent: number | null
  priceBuy: number | null
  /** Open early (issue 37 point 1): when it comes out for everyone (its prices are the early ones till then); else null. */
  earlyUntil: string | null
  readingDirection: 'ltr' | 'rtl'
  /** The series' next update (YYYY-MM-DD in the edition's time zone), as its series page says it; null when none is due. */
  nextUpdateDay: string | null
  prev: EpisodeLink | null
  next: EpisodeLink | null
  /** Whether `next` opens for this reader now (free or held), so a locked next episode is not fetched only to be refused. */
  nextOpen: boolean
  access: Access
  /** Empty unless the episode is open. */
  slices: ViewerSlice[]
  /** Paragraphs of a TEXT episode; empty unless open. */
  text: string[]
  /** Where the signed-in reader left this episode (0..1), or null. */
  progress: number | null
  /** Its likes (issue 37 point 3; the series' tally adds new ones within its flush) and whether this reader likes it. */
  likes: number
  liked: boolean
  /** The series' cover, for the page's link-preview card (seo.ts coverCardImage: none for an adult series). */
  seriesCover: { coverKey: string | null; coverWidth: number | null; coverHeight: number | null; isAdult: boolean }
}
