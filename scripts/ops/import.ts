/**
 * `npm run ops -- import --dir <folder>`: imports one series from a folder holding `series.json` and its
 * images (cover + episode slices, any format sharp reads). Node only.
 *
 * 1. `loadSeriesFolder` validates the metadata with zod (errors name the field) and checks every file.
 * 2. `probeSeries` reads every image's size with sharp before anything is written (a broken file stops it).
 * 3. `importSeries` inserts the series unpublished (its id names the R2 keys, the seed's scheme:
 *    `covers/<id>/<w>.webp`, `series/<id>/ep/<no>/<n>/<w>.webp`), renders each image into WebP at the
 *    widths the seed stores (`IMAGE_WIDTHS`: covers 256/384/640 and the 1200-px link-card rendition, slices 640/828/1080) and uploads it to R2
 *    `MEDIA`, then inserts creators, tags, schedules, episodes, slices and the search row in batches, the
 *    last of which publishes the series. A failure removes the series row (children cascade), its search
 *    row and the uploaded objects.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import sharp from 'sharp'
import { z } from 'zod'
import { IMAGE_WIDTHS } from '../seed/data.ts'
import { createDb, type Db } from '../../src/lib/server/db.ts'
import type { SeriesRow } from '../../src/lib/server/db-types.ts'
import { ftsDocument } from '../../src/features/search/search.ts'
import { SliceTranscript, transcriptJson } from '../../src/features/viewer/transcript.ts'

/** WebP for real artwork: a little more effort than the seed's flat drawings (effort 0). */
const WEBP = { quality: 80, effort: 4 }
/** D1 accepts at most 100 bound parameters per statement. */
const MAX_PARAMS = 100
const STATEMENTS_PER_BATCH = 50
/** Images rendered and uploaded side by side. */
const RENDER_CONCURRENCY = 4

const GENRES = ['ROMANCE', 'ACTION', 'DRAMA', 'FANTASY', 'COMEDY', 'BL', 'THRILLER', 'HORROR', 'SLICE_OF_LIFE'] as const
const SCHEDULE_DAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'TEN'] as const
/** Spec §3 creator types. */
const ROLES = ['AUTHOR', 'WRITER', 'ARTIST', 'ORIGINAL', 'ADAPTER'] as const

/** A file name inside the folder (no absolute path, no `..`). */
const FileName = z
  .string()
  .min(1)
  .refine((f) => !isAbsolute(f) && !f.split(/[\\/]/).includes('..'), 'must be a file inside the folder')

const Price = z.number().int().min(0).max(100_000).nullable().default(null)

const Episode = z
  .object({
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
  .superRefine((e, ctx) => {
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
  })

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
      .array(z.object({ name: z.string().trim().min(1).max(100), role: z.enum(ROLES) }))
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

/** A folder that failed validation: one line per problem, each naming the field or file. */
export class ImportError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`series folder is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ImportError'
    this.problems = problems
  }
}

/** Reads and validates `<dir>/series.json` and checks that every image it names is a file in the folder. */
export function loadSeriesFolder(dir: string): { dir: string; manifest: SeriesManifest } {
  const folder = resolve(dir)
  const file = join(folder, 'series.json')
  if (!existsSync(file)) throw new ImportError([`${file}: missing`])
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new ImportError([`series.json: not JSON (${(e as Error).message})`])
  }
  const parsed = SeriesManifest.safeParse(raw)
  if (!parsed.success) {
    throw new ImportError(parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`))
  }
  const manifest = parsed.data
  const problems: string[] = []
  const check = (name: string, field: string) => {
    const path = join(folder, name)
    if (relative(folder, path).startsWith('..')) problems.push(`${field}: ${name} is outside the folder`)
    else if (!existsSync(path) || !statSync(path).isFile()) problems.push(`${field}: file ${name} not found`)
  }
  check(manifest.cover, 'cover')
  manifest.episodes.forEach((e, i) => e.images.forEach((img, j) => check(img, `episodes.${i}.images.${j}`)))
  if (problems.length) throw new ImportError(problems)
  return { dir: folder, manifest }
}

/** An image's logical size: the source's pixels after EXIF orientation (stored as episode_images width/height). */
type ImageSize = { width: number; height: number }
/** Sizes of every image of the folder, read before anything is written (a broken file stops the import). */
export type ProbedSeries = { cover: ImageSize; slices: Map<number, ImageSize[]> }

async function probe(path: string, field: string): Promise<ImageSize> {
  try {
    const meta = await sharp(path).metadata()
    if (!meta.width || !meta.height) throw new Error('no dimensions')
    const swap = (meta.orientation ?? 1) >= 5
    return swap ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height }
  } catch (e) {
    throw new ImportError([`${field}: ${path} is not an image sharp can read (${(e as Error).message})`])
  }
}

/** Reads the size of every image (cover and slices) of a validated folder. */
export async function probeSeries(dir: string, manifest: SeriesManifest): Promise<ProbedSeries> {
  const cover = await probe(join(dir, manifest.cover), 'cover')
  const slices = new Map<number, ImageSize[]>()
  for (const [i, e] of manifest.episodes.entries()) {
    slices.set(e.no, await Promise.all(e.images.map((img, j) => probe(join(dir, img), `episodes.${i}.images.${j}`))))
  }
  return { cover, slices }
}

/** One stored rendition: `<width>.webp` under an image's key prefix. */
export type Rendition = { width: number; height: number; bytes: Uint8Array }

/**
 * The WebP renditions of one image at `widths` (the seed's IMAGE_WIDTHS), keeping its aspect ratio; the
 * source is decoded (and EXIF-oriented) once.
 */
export async function renderImage(path: string, widths: readonly number[]): Promise<Rendition[]> {
  const { data, info } = await sharp(path).rotate().raw().toBuffer({ resolveWithObject: true })
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const out: Rendition[] = []
  for (const width of widths) {
    const height = Math.max(1, Math.round((info.height * width) / info.width))
    const bytes = await sharp(data, { raw }).resize(width, height, { fit: 'fill' }).webp(WEBP).toBuffer()
    out.push({ width, height, bytes: new Uint8Array(bytes) })
  }
  return out
}

/** R2 prefixes of the seed's scheme (`<prefix>/<width>.webp`). */
const coverKey = (seriesId: number) => `covers/${seriesId}`
const sliceKey = (seriesId: number, no: number, n: number) => `series/${seriesId}/ep/${no}/${n}`

type Statement = { sql: string; params: unknown[] }

/**
 * Every row of the series after its own (creators, tags, schedules, episodes, slices, search row), ending
 * with the update that publishes it. Statements stay under D1's 100 bound parameters.
 */
export function importStatements(seriesId: number, m: SeriesManifest, sizes: ProbedSeries, now: Date): Statement[] {
  const out: Statement[] = []
  const nowIso = now.toISOString()
  m.creators.forEach((c, position) => {
    out.push({ sql: `INSERT INTO creators (name) SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM creators WHERE name = ?1)`, params: [c.name] })
    out.push({
      sql: `INSERT INTO series_creators (series_id, creator_id, role, position) SELECT ?, min(id), ?, ? FROM creators WHERE name = ?`,
      params: [seriesId, c.role, position, c.name],
    })
  })
  for (const tag of new Set(m.tags)) {
    out.push({ sql: `INSERT OR IGNORE INTO tags (name) VALUES (?)`, params: [tag] })
    out.push({
      sql: `INSERT OR IGNORE INTO series_tags (series_id, tag_id) SELECT ?, id FROM tags WHERE name = ?`,
      params: [seriesId, tag],
    })
  }
  for (const day of m.schedule) {
    out.push({
      sql: `INSERT INTO schedules (series_id, weekday, position) SELECT ?1, ?2, coalesce(max(position), 0) + 1 FROM schedules WHERE weekday = ?2`,
      params: [seriesId, day],
    })
  }
  const published = m.episodes.map((e) => (e.publishedAt ? new Date(e.publishedAt).toISOString() : nowIso))
  m.episodes.forEach((e, i) => {
    out.push({
      sql: `INSERT INTO episodes (series_id, no, title, content_type, is_free, price_rent, price_buy, text_body, published_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      params: [seriesId, e.no, e.title, m.type, e.free ? 1 : 0, e.priceRent, e.priceBuy, m.type === 'TEXT' ? e.text! : null, published[i]],
    })
    const slices = sizes.slices.get(e.no) ?? []
    const rows = slices.map((img, j) => [
      j + 1,
      sliceKey(seriesId, e.no, j + 1),
      img.width,
      img.height,
      e.alt?.[j] ?? `${m.title}, ${e.title}, image ${j + 1} / ${slices.length}`,
      transcriptJson(e.transcript?.[j]),
    ])
    const perStatement = Math.floor((MAX_PARAMS - 2) / 6)
    for (let k = 0; k < rows.length; k += perStatement) {
      const chunk = rows.slice(k, k + perStatement)
      out.push({
        sql: `INSERT INTO episode_images (episode_id, position, key, width, height, alt, transcript)
              SELECT (SELECT id FROM episodes WHERE series_id = ? AND no = ?), column1, column2, column3, column4, column5, column6
              FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')})`,
        params: [seriesId, e.no, ...chunk.flat()],
      })
    }
  })
  out.push({
    sql: `INSERT INTO series_fts (rowid, title, creators, tags) VALUES (?, ?, ?, ?)`,
    params: [
      seriesId,
      ftsDocument(m.title),
      ftsDocument([...new Set(m.creators.map((c) => c.name))].join(' ')),
      ftsDocument([...new Set(m.tags)].join(' ')),
    ],
  })
  const sorted = [...published].sort()
  out.push({
    sql: `UPDATE series SET episode_count = ?, free_episode_count = ?, launched_at = ?, last_episode_at = ?, is_published = 1, updated_at = ? WHERE id = ?`,
    params: [m.episodes.length, m.episodes.filter((e) => e.free).length, sorted[0], sorted[sorted.length - 1], nowIso, seriesId],
  })
  return out
}

export type ImportResult = { seriesId: number; episodes: number; slices: number; objects: number; bytes: number }

/**
 * Validates, uploads and inserts one series folder; returns the new series id. Images are rendered and
 * uploaded a few at a time (never the whole series in memory).
 */
export async function importSeries(
  env: { DB: D1Database; MEDIA: R2Bucket },
  dir: string,
  opts: { now?: Date; log?: (line: string) => void } = {},
): Promise<ImportResult> {
  const log = opts.log ?? (() => {})
  const now = opts.now ?? new Date()
  const { dir: folder, manifest: m } = loadSeriesFolder(dir)
  const sizes = await probeSeries(folder, m)
  const slicesCount = m.episodes.reduce((s, e) => s + e.images.length, 0)
  const db: Db = createDb(env.DB)

  const row = await db.first<Pick<SeriesRow, 'id'>>(
    `INSERT INTO series (title, description, type, status, is_adult, is_bl, genre, cover_key, cover_width, cover_height, reading_direction, is_published)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id`,
    m.title,
    m.description,
    m.type,
    m.status,
    m.isAdult ? 1 : 0,
    m.isBl ? 1 : 0,
    m.genre,
    null,
    sizes.cover.width,
    sizes.cover.height,
    m.readingDirection,
  )
  const seriesId = row!.id
  const jobs: { key: string; path: string; widths: readonly number[] }[] = [
    { key: coverKey(seriesId), path: join(folder, m.cover), widths: IMAGE_WIDTHS.cover },
    ...m.episodes.flatMap((e) =>
      e.images.map((img, j) => ({ key: sliceKey(seriesId, e.no, j + 1), path: join(folder, img), widths: IMAGE_WIDTHS.slice })),
    ),
  ]
  const uploaded: string[] = []
  let bytes = 0
  try {
    log(
      `import: "${m.title}" is series ${seriesId} (unpublished until done): ${m.episodes.length} episodes, ${slicesCount} slices; rendering and uploading ${jobs.length} images…`,
    )
    let next = 0
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!
        for (const r of await renderImage(job.path, job.widths)) {
          const key = `${job.key}/${r.width}.webp`
          await env.MEDIA.put(key, r.bytes, {
            httpMetadata: { contentType: 'image/webp', cacheControl: 'public, max-age=31536000, immutable' },
          })
          uploaded.push(key)
          bytes += r.bytes.length
        }
      }
    }
    await Promise.all(Array.from({ length: RENDER_CONCURRENCY }, worker))

    const statements = [
      { sql: `UPDATE series SET cover_key = ? WHERE id = ?`, params: [coverKey(seriesId), seriesId] },
      ...importStatements(seriesId, m, sizes, now),
    ]
    log(
      `import: series ${seriesId}: ${uploaded.length} objects (${(bytes / 1024).toFixed(0)} KiB) in R2; writing ${statements.length} statements…`,
    )
    for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH))
  } catch (e) {
    // Leave nothing half-imported: the series row (children cascade), its search row, its objects.
    await db
      .batch([
        { sql: `DELETE FROM series_fts WHERE rowid = ?`, params: [seriesId] },
        { sql: `DELETE FROM series WHERE id = ?`, params: [seriesId] },
      ])
      .catch(() => {})
    for (let i = 0; i < uploaded.length; i += 500) await env.MEDIA.delete(uploaded.slice(i, i + 500)).catch(() => {})
    throw e
  }
  return { seriesId, episodes: m.episodes.length, slices: slicesCount, objects: uploaded.length, bytes }
}
