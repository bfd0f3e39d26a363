/**
 * `npm run ops -- import --dir <folder>`: imports one series from a folder holding `series.json` and its
 * images (cover + episode slices, any format sharp reads) through the operator API (docs/API.md "Operator API").
 * The files are read and rendered here, in Node; the API stores the rows and objects.
 *
 * 1. `loadSeriesFolder` validates the metadata with zod (`SeriesManifest`, src/features/catalogue/series-import.ts:
 *    errors name the field) and checks every file.
 * 2. `probeSeries` reads every image's size with sharp before anything is sent (a broken file stops it): `planImport`.
 * 3. `importSeries` has the API create the series unpublished (`POST /api/ops/series/import`: its id names the R2
 *    keys), renders each image into WebP at `IMPORT_WIDTHS` (covers 256/384/640 and the 1200-px link-card rendition,
 *    slices 640/828/1080) and uploads each rendition (`PUT /api/ops/media/{key}`), then has the API write creators,
 *    tags, schedules, episodes, slices and the search row and publish the series (`…/import/finish`). A failure
 *    aborts (`…/import/abort`): the series row, its search row and the uploaded objects are removed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import sharp from 'sharp'
import {
  importJobs,
  importKeys,
  renditionKey,
  SeriesManifest,
  type ImageSize,
  type SeriesImportRequest,
} from '../../src/features/catalogue/series-import.ts'

/** WebP for real artwork: a little more effort than the seed's flat drawings (effort 0). */
const WEBP = { quality: 80, effort: 4 }
/** Images rendered and uploaded side by side. */
const RENDER_CONCURRENCY = 4

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

/**
 * The size of every image of a validated folder (the cover, then one list per episode in the manifest's order), read
 * before anything is sent: a broken file stops the import.
 */
export async function probeSeries(dir: string, manifest: SeriesManifest): Promise<SeriesImportRequest['sizes']> {
  const cover = await probe(join(dir, manifest.cover), 'cover')
  const slices: ImageSize[][] = []
  for (const [i, e] of manifest.episodes.entries()) {
    slices.push(await Promise.all(e.images.map((img, j) => probe(join(dir, img), `episodes.${i}.images.${j}`))))
  }
  return { cover, slices }
}

/** One stored rendition: `<width>.webp` under an image's key prefix. */
export type Rendition = { width: number; height: number; bytes: Uint8Array }

/**
 * The WebP renditions of one image at `widths` (`IMPORT_WIDTHS`, as the seed's), keeping its aspect ratio; the
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

/** The operator API's import steps (scripts/ops.ts calls them over HTTP; tests stand in for them). */
export type ImportApi = {
  start: (request: SeriesImportRequest) => Promise<{ seriesId: number; keys: string[] }>
  put: (key: string, bytes: Uint8Array) => Promise<void>
  finish: (seriesId: number) => Promise<void>
  abort: (seriesId: number) => Promise<void>
}

export type ImportPlan = { folder: string; request: SeriesImportRequest; slices: number }
export type ImportResult = { seriesId: number; episodes: number; slices: number; objects: number; bytes: number }

/** Validates the folder and probes every image: the import request, before anything is sent. */
export async function planImport(dir: string, reason: string): Promise<ImportPlan> {
  const { dir: folder, manifest } = loadSeriesFolder(dir)
  const request = { manifest, sizes: await probeSeries(folder, manifest), reason }
  return { folder, request, slices: manifest.episodes.reduce((n, e) => n + e.images.length, 0) }
}

/**
 * Sends a planned import: the series (unpublished), every rendition (rendered here, a few images at a time: never
 * the whole series in memory), then the finish that publishes it. Any failure aborts: the API removes the series
 * row, its search row and the objects uploaded, and the error is thrown again.
 */
export async function importSeries(api: ImportApi, plan: ImportPlan, opts: { log?: (line: string) => void } = {}): Promise<ImportResult> {
  const log = opts.log ?? (() => {})
  const m = plan.request.manifest
  const { seriesId, keys } = await api.start(plan.request)
  const jobs = importJobs(seriesId, m)
  const expected = importKeys(seriesId, m)
  let uploaded = 0
  let bytes = 0
  try {
    if (keys.length !== expected.length || keys.some((k, i) => k !== expected[i])) {
      throw new Error(
        `the API expects other objects than this tool renders (${keys.length} keys, ${expected.length} here): update the tool`,
      )
    }
    log(
      `import: "${m.title}" is series ${seriesId} (unpublished until done): ${m.episodes.length} episodes, ${plan.slices} slices; rendering and uploading ${jobs.length} images…`,
    )
    let next = 0
    let failure: { error: unknown } | null = null
    const worker = async () => {
      try {
        while (next < jobs.length && !failure) {
          const job = jobs[next++]!
          for (const r of await renderImage(join(plan.folder, job.file), job.widths)) {
            if (failure) return
            await api.put(renditionKey(job.prefix, r.width), r.bytes)
            uploaded++
            bytes += r.bytes.length
          }
        }
      } catch (error) {
        failure ??= { error }
      }
    }
    // every upload settles before the abort, so none lands after the clean-up
    await Promise.all(Array.from({ length: RENDER_CONCURRENCY }, worker))
    if (failure) throw (failure as { error: unknown }).error
    log(`import: series ${seriesId}: ${uploaded} objects (${(bytes / 1024).toFixed(0)} KiB) uploaded; writing its rows and publishing…`)
    await api.finish(seriesId)
  } catch (e) {
    log(`import: failed (${(e as Error).message}); removing series ${seriesId} and its objects…`)
    await api
      .abort(seriesId)
      .catch((err: Error) => log(`import: the clean-up failed too (${err.message}); run it again: series ${seriesId}`))
    throw e
  }
  return { seriesId, episodes: m.episodes.length, slices: plan.slices, objects: uploaded, bytes }
}
