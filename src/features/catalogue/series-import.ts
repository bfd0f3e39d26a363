/**
 * A series imported through the operator API (docs/API.md "Operator API": `POST /api/ops/series/import`, the media
 * uploads, `…/import/finish`, `…/import/abort`; `npm run ops -- import`). Pure rules shared by the command line (which
 * validates the folder, probes and renders the images in Node) and the API (which stores the rows and objects):
 * the `series.json` manifest, the import request, and the R2 keys an import expects (the seed's scheme:
 * `covers/<id>/<w>.webp`, `series/<id>/ep/<no>/<n>/<w>.webp`).
 */
import { z } from 'zod'
import { OpsReason } from '../../lib/ops.ts'
import { SliceTranscript } from './transcript.ts'
import { CARD_IMAGE_WIDTH, COVER_WIDTHS, CREATOR_ROLES, GENRES, SCHEDULE_DAYS, SLICE_WIDTHS } from './catalogue.ts'
import { parseId } from '../../lib/ids.ts'

/** Widths (px) an import stores, per image: covers with their link-card rendition, slices (as the seed). */
const IMPORT_WIDTHS = { cover: [...COVER_WIDTHS, CARD_IMAGE_WIDTH], slice: SLICE_WIDTHS } as const

/** One uploaded rendition at most (a WebP slice of 1080 px is far below). */
export const MAX_IMPORT_OBJECT_BYTES = 8 * 1024 * 1024
/** `POST /api/ops/series/import`'s body at most (other API bodies: 64 KiB). */
export const MAX_IMPORT_REQUEST_BYTES = 1024 * 1024
/** The stored import request (JSON, defaults filled in) at most: a D1 row (≤ 2 MB) holds it until the import finishes. */
export const MAX_IMPORT_REQUEST_CHARS = 1_500_000
/**
 * An import still open a day after its start is abandoned (the command line uploads a series in minutes and aborts
 * on its own failures; one killed half-way cannot): the cron aborts it, the unpublished series and its objects go.
 */
export const IMPORT_ABANDONED_MS = 24 * 60 * 60 * 1000

/** A file name inside the folder (no absolute path, no `..`). */
const FileName = z
  .string()
  .min(1)
  .refine((f) => !/^([\\/]|[A-Za-z]:)/.test(f) && !f.split(/[\\/]/).includes('..'), 'must be a file inside the folder')

const Price = z.number().int().min(0).max(100_000).nullable().default(null)

/** An episode's fields in `series.json` and in `episode.json` (`npm run ops -- episode add`). */
const EpisodeFields = z.object({
  /** Episode number, unique in the series, from 1. */
  no: z.number().int().positive(),
  title: z.string().trim().min(1).max(200),
  /** Free to read for everyone. */
  free: z.boolean().default(false),
  /** Coins to rent; null: cannot be rented. */
  priceRent: Price,
  /** Coins to buy; null: cannot be bought. */
  priceBuy: Price,
  /** Slices, top to bottom (IMAGE series). */
  images: z.array(FileName).max(200).default([]),
  /** Alternative text per slice, same order; defaults to "<series>, <episode>, image n of N". */
  alt: z.array(z.string().max(500)).optional(),
  /**
   * Transcript per slice, same order: its lines in reading order (`{kind: 'speech'|'caption'|'sfx',
   * speaker?, text}`), `[]` for a slice without text. Absent: the episode has none.
   */
  transcript: z.array(SliceTranscript).optional(),
  /** Body of a TEXT (novel) episode. */
  text: z.string().min(1).optional(),
  /** ISO instant; default: the time of the import. */
  publishedAt: z.iso.datetime({ offset: true }).optional(),
})

/** One rule for both manifests: a price unless free, one alt text and one transcript list per image. */
function checkEpisode(e: Omit<z.infer<typeof EpisodeFields>, 'no'>, ctx: z.RefinementCtx): void {
  if (!e.free && e.priceRent === null && e.priceBuy === null) {
    ctx.addIssue({ code: 'custom', path: ['priceRent'], message: 'a paid episode needs priceRent or priceBuy (or free: true)' })
  }
  if (e.alt && e.alt.length !== e.images.length)
    ctx.addIssue({ code: 'custom', path: ['alt'], message: `needs one text per image (${e.images.length})` })
  if (e.transcript && e.transcript.length !== e.images.length)
    ctx.addIssue({
      code: 'custom',
      path: ['transcript'],
      message: `needs one list of lines per image (${e.images.length}; [] for a slice without text)`,
    })
}

const Episode = EpisodeFields.superRefine(checkEpisode)

/** `series.json`: one series and its episodes. */
export const SeriesManifest = z
  .object({
    title: z.string().trim().min(1).max(200),
    description: z.string().max(5000).default(''),
    genre: z.enum(GENRES),
    /** Spec §3 statuses. */
    status: z.enum(['COMPLETED', 'SCHEDULED', 'PAUSED']),
    /** Spec §3 content type: IMAGE (slices) or TEXT (novel). */
    type: z.enum(['IMAGE', 'TEXT']).default('IMAGE'),
    isAdult: z.boolean().default(false),
    isBl: z.boolean().default(false),
    readingDirection: z.enum(['ltr', 'rtl']).default('ltr'),
    creators: z
      .array(z.object({ name: z.string().trim().min(1).max(100), role: z.enum(CREATOR_ROLES) }))
      .min(1)
      .max(20),
    tags: z.array(z.string().trim().min(1).max(50)).max(30).default([]),
    /** Spec §3 schedule groups: weekdays the series updates, or TEN. */
    schedule: z.array(z.enum(SCHEDULE_DAYS)).max(8).default([]),
    /** Cover image file. */
    cover: FileName,
    episodes: z.array(Episode).min(1).max(2000),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<number>()
    s.episodes.forEach((e, i) => {
      if (seen.has(e.no)) ctx.addIssue({ code: 'custom', path: ['episodes', i, 'no'], message: `episode ${e.no} appears twice` })
      seen.add(e.no)
      if (s.type === 'IMAGE' && e.images.length === 0)
        ctx.addIssue({ code: 'custom', path: ['episodes', i, 'images'], message: 'an IMAGE episode needs at least one image' })
      if (s.type === 'TEXT' && !e.text)
        ctx.addIssue({ code: 'custom', path: ['episodes', i, 'text'], message: 'a TEXT episode needs its text' })
    })
    const pairs = new Set<string>()
    s.creators.forEach((c, i) => {
      const key = `${c.name}\u0000${c.role}`
      if (pairs.has(key)) ctx.addIssue({ code: 'custom', path: ['creators', i], message: `${c.name} is listed twice as ${c.role}` })
      pairs.add(key)
    })
    if (new Set(s.schedule).size !== s.schedule.length) ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'a day appears twice' })
  })
export type SeriesManifest = z.infer<typeof SeriesManifest>

/** An image's logical size: the source's pixels after EXIF orientation (stored as episode_images width/height). */
const ImageSize = z.object({ width: z.number().int().min(1).max(100_000), height: z.number().int().min(1).max(100_000) })
export type ImageSize = z.infer<typeof ImageSize>

/**
 * `POST /api/ops/series/import`: the validated manifest, the probed size of the cover and of every slice (one list
 * per episode, in the manifest's order) and the operator's reason.
 */
export const SeriesImportRequest = z
  .object({
    manifest: SeriesManifest,
    sizes: z.object({ cover: ImageSize, slices: z.array(z.array(ImageSize).max(200)).max(2000) }),
    reason: OpsReason,
  })
  .superRefine((r, ctx) => {
    if (r.sizes.slices.length !== r.manifest.episodes.length) {
      ctx.addIssue({ code: 'custom', path: ['sizes', 'slices'], message: 'one list of sizes per episode' })
      return
    }
    r.manifest.episodes.forEach((e, i) => {
      if (r.sizes.slices[i]!.length !== e.images.length)
        ctx.addIssue({ code: 'custom', path: ['sizes', 'slices', i], message: `needs one size per image (${e.images.length})` })
    })
  })
export type SeriesImportRequest = z.infer<typeof SeriesImportRequest>

/** R2 prefixes of the seed's scheme (`<prefix>/<width>.webp`). */
export const coverKey = (seriesId: number) => `covers/${seriesId}`
export const sliceKey = (seriesId: number, no: number, n: number) => `series/${seriesId}/ep/${no}/${n}`

/** One image to render and upload: its file in the folder, its R2 prefix and its widths. */
export type ImportJob = { file: string; prefix: string; widths: readonly number[] }

/** Every image of an import, cover first, then each episode's slices top to bottom. */
export function importJobs(seriesId: number, m: SeriesManifest): ImportJob[] {
  return [
    { file: m.cover, prefix: coverKey(seriesId), widths: IMPORT_WIDTHS.cover },
    ...m.episodes.flatMap((e) => sliceJobs(seriesId, e.no, e.images)),
  ]
}

/** One episode's slices to render and upload, top to bottom (an import's, or an episode added to a running series). */
export function sliceJobs(seriesId: number, no: number, images: readonly string[]): ImportJob[] {
  return images.map((file, j) => ({ file, prefix: sliceKey(seriesId, no, j + 1), widths: IMPORT_WIDTHS.slice }))
}

/** One rendition's R2 key under its image's prefix. */
export const renditionKey = (prefix: string, width: number) => `${prefix}/${width}.webp`

/** The R2 keys an import expects, one per rendition. */
export function importKeys(seriesId: number, m: SeriesManifest): string[] {
  return importJobs(seriesId, m).flatMap((j) => j.widths.map((w) => renditionKey(j.prefix, w)))
}

/** An uploaded key's shape; its series id (the only part the upload route trusts before it looks the import up). */
export function importKeySeries(key: string): number | null {
  const m = /^(?:covers\/(\d+)\/\d{2,5}|series\/(\d+)\/ep\/\d{1,9}\/\d{1,3}\/\d{2,5})\.webp$/.exec(key)
  return m ? parseId(m[1] ?? m[2]) : null
}

// ───────────────────────────── a running series: a new episode, a replaced slice ─────────────────────────────

/**
 * `episode.json` (`npm run ops -- episode add`): one episode as in `series.json`, its number optional (default: the
 * series' last number + 1, decided by the API when it reserves it).
 */
export const EpisodeManifest = EpisodeFields.extend({ no: EpisodeFields.shape.no.optional() }).superRefine(checkEpisode)
export type EpisodeManifest = z.infer<typeof EpisodeManifest>

/** `POST /api/ops/series/{id}/episodes`: the validated `episode.json` and the probed size of each image, same order. */
export const EpisodeAddRequest = z
  .object({ episode: EpisodeManifest, sizes: z.array(ImageSize).max(200), reason: OpsReason })
  .superRefine((r, ctx) => {
    if (r.sizes.length !== r.episode.images.length)
      ctx.addIssue({ code: 'custom', path: ['sizes'], message: `needs one size per image (${r.episode.images.length})` })
  })
export type EpisodeAddRequest = z.infer<typeof EpisodeAddRequest>

/** `POST /api/ops/episodes/{id}/slices/{n}`: the probed size of the new image of slice n. */
export const SliceReplaceRequest = z.object({ size: ImageSize, reason: OpsReason })
export type SliceReplaceRequest = z.infer<typeof SliceReplaceRequest>

/**
 * The R2 prefix of a replaced slice: the slice's own with the replacement's time (base 36 ms) after a dash. Its URLs
 * (public `/media/<key>/<w>.webp?s=`, signed `…/slice/{n}?k=`) change with it, so no browser, edge cache or offline
 * copy keeps serving the old image under the new URL (docs/ARCHITECTURE.md "Slices").
 */
export const replacedSliceKey = (seriesId: number, no: number, n: number, at: Date) =>
  `${sliceKey(seriesId, no, n)}-${at.getTime().toString(36)}`

/** A slice rendition's key of a running series (`series/<id>/ep/<no>/<n>[-<rev>]/<w>.webp`): its series and episode number. */
export function episodeKeyOf(key: string): { seriesId: number; no: number } | null {
  const m = /^series\/([1-9]\d{0,14})\/ep\/([1-9]\d{0,8})\/[1-9]\d{0,2}(?:-[0-9a-z]{1,12})?\/\d{2,5}\.webp$/.exec(key)
  return m ? { seriesId: Number(m[1]), no: Number(m[2]) } : null
}

/** The keys of one image's renditions (a slice: `SLICE_WIDTHS`). */
export const sliceRenditionKeys = (prefix: string) => IMPORT_WIDTHS.slice.map((w) => renditionKey(prefix, w))
