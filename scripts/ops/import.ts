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
import type { ZodSafeParseResult } from 'zod'
import {
  importJobs,
  importKeys,
  renditionKey,
  SeriesManifest,
  type ImageSize,
  type ImportJob,
  type SeriesImportRequest,
} from '../../src/features/catalogue/series-import.ts'

/** WebP for real artwork: a little more effort than the seed's flat drawings (effort 0). */
const WEBP = { quality: 80, effort: 4 }
/** Images rendered and uploaded side by side. */
const RENDER_CONCURRENCY = 4

/** A folder that failed validation: one line per problem, each naming the field or file. */
class ImportError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`series folder is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ImportError'
    this.problems = problems
  }
}

/** Reads and validates `<dir>/series.json` and checks that every image it names is a file in the folder. */
function loadSeriesFolder(dir: string): { dir: string; manifest: SeriesManifest } {
  const folder = resolve(dir)
  const manifest = readManifest(folder, 'series.json', SeriesManifest)
  checkFiles(folder, [
    [manifest.cover, 'cover'],
    ...manifest.episodes.flatMap((e, i) => e.images.map((img, j) => [img, `episodes.${i}.images.${j}`] as const)),
  ])
  return { dir: folder, manifest }
}

/** Reads a folder's JSON manifest (`file`) and validates it with `schema`: an ImportError names each bad field. */
export function readManifest<T>(folder: string, file: string, schema: { safeParse: (raw: unknown) => ZodSafeParseResult<T> }): T {
  const path = join(folder, file)
  if (!existsSync(path)) throw new ImportError([`${path}: missing`])
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new ImportError([`${file}: not JSON (${(e as Error).message})`])
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    throw new ImportError(parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`))
  }
  return parsed.data
}

/** Checks that every `[file, field]` names a file inside the folder; an ImportError names each one that does not. */
export function checkFiles(folder: string, files: readonly (readonly [string, string])[]): void {
  const problems: string[] = []
  for (const [name, field] of files) {
    const path = join(folder, name)
    if (relative(folder, path).startsWith('..')) problems.push(`${field}: ${name} is outside the folder`)
    else if (!existsSync(path) || !statSync(path).isFile()) problems.push(`${field}: file ${name} not found`)
  }
  if (problems.length) throw new ImportError(problems)
}

/** One image's logical size (EXIF orientation applied), read with sharp; an ImportError names `field` if it cannot be. */
export async function probe(path: string, field: string): Promise<ImageSize> {
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
async function probeSeries(dir: string, manifest: SeriesManifest): Promise<SeriesImportRequest['sizes']> {
  const cover = await probe(join(dir, manifest.cover), 'cover')
  const slices: ImageSize[][] = []
  for (const [i, e] of manifest.episodes.entries()) {
    slices.push(await Promise.all(e.images.map((img, j) => probe(join(dir, img), `episodes.${i}.images.${j}`))))
  }
  return { cover, slices }
}

/** One stored rendition: `<width>.webp` under an image's key prefix. */
type Rendition = { width: number; height: number; bytes: Uint8Array }

/**
 * The WebP renditions of one image at `widths` (`IMPORT_WIDTHS`, as the seed's), keeping its aspect ratio; the
 * source is decoded (and EXIF-oriented) once.
 */
async function renderImage(path: string, widths: readonly number[]): Promise<Rendition[]> {
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

/**
 * Renders each job's image (a few at a time: never a whole series in memory) and uploads each rendition with `put`.
 * The first failure stops the rest and is thrown once every upload under way has settled, so none lands after the
 * caller's clean-up.
 */
async function uploadRenditions(
  put: (key: string, bytes: Uint8Array) => Promise<void>,
  folder: string,
  jobs: readonly ImportJob[],
): Promise<{ uploaded: number; bytes: number }> {
  let uploaded = 0
  let bytes = 0
  let next = 0
  let failure: { error: unknown } | null = null
  const worker = async () => {
    try {
      while (next < jobs.length && !failure) {
        const job = jobs[next++]!
        for (const r of await renderImage(join(folder, job.file), job.widths)) {
          if (failure) return
          await put(renditionKey(job.prefix, r.width), r.bytes)
          uploaded++
          bytes += r.bytes.length
        }
      }
    } catch (error) {
      failure ??= { error }
    }
  }
  await Promise.all(Array.from({ length: RENDER_CONCURRENCY }, worker))
  if (failure) throw (failure as { error: unknown }).error
  return { uploaded, bytes }
}

/**
 * The upload steps an import and an upload into a running series share, once the API has answered the keys it
 * expects: check them against what this tool renders, render and upload every rendition, finish; any failure aborts
 * (the API removes what the upload wrote) and is thrown again.
 */
export async function uploadThenFinish(steps: {
  what: string
  keys: readonly string[]
  expected: readonly string[]
  jobs: readonly ImportJob[]
  folder: string
  put: (key: string, bytes: Uint8Array) => Promise<void>
  finish: () => Promise<unknown>
  abort: () => Promise<unknown>
  /** What the abort removes, for the log. */
  undo: string
  log: (line: string) => void
}): Promise<{ uploaded: number; bytes: number }> {
  const { what, keys, expected, log } = steps
  try {
    if (keys.length !== expected.length || keys.some((k, i) => k !== expected[i])) {
      throw new Error(
        `the API expects other objects than this tool renders (${keys.length} keys, ${expected.length} here): update the tool`,
      )
    }
    const sent = await uploadRenditions(steps.put, steps.folder, steps.jobs)
    log(`${what}: ${sent.uploaded} objects (${(sent.bytes / 1024).toFixed(0)} KiB) uploaded; writing its rows…`)
    await steps.finish()
    return sent
  } catch (e) {
    log(`${what}: failed (${(e as Error).message}); ${steps.undo}…`)
    await steps.abort().catch((err: Error) => log(`${what}: the clean-up failed too (${err.message}); still to do: ${steps.undo}`))
    throw e
  }
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
  log(
    `import: "${m.title}" is series ${seriesId} (unpublished until done): ${m.episodes.length} episodes, ${plan.slices} slices; rendering and uploading ${jobs.length} images…`,
  )
  const { uploaded, bytes } = await uploadThenFinish({
    what: 'import',
    keys,
    expected: importKeys(seriesId, m),
    jobs,
    folder: plan.folder,
    put: api.put,
    finish: () => api.finish(seriesId),
    abort: () => api.abort(seriesId),
    undo: `removing series ${seriesId} and its objects`,
    log,
  })
  return { seriesId, episodes: m.episodes.length, slices: plan.slices, objects: uploaded, bytes }
}
