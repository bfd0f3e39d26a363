/**
 * `npm run ops -- episode add --series N --dir <folder>` and `episode replace-slice --episode N --slice K --file <image>`:
 * uploads into a running series through the operator API (docs/API.md "Operator API"), with the import's pieces
 * (scripts/ops/import.ts): the same manifest rules (`EpisodeManifest`: an episode of `series.json`, its number
 * optional), the same probing before anything is sent, the same WebP renditions and uploads
 * (`PUT /api/ops/media/{key}`), the same abort on failure.
 *
 * - episode add: `planEpisodeAdd` validates `<dir>/episode.json` and probes its images; `addEpisode` has the API
 *   reserve the number (`POST /api/ops/series/{id}/episodes`: the episode unpublished), uploads the slices and
 *   finishes (`POST /api/ops/episodes/{id}/upload/finish`: dated, announced when out now); a failure aborts
 *   (`…/upload/abort`: the episode and its objects go).
 * - episode replace-slice: `planSliceReplace` probes the file; `replaceSlice` opens the replacement
 *   (`POST /api/ops/episodes/{id}/slices/{n}`: a new R2 prefix, so the slice's URLs change), uploads, finishes (the
 *   old prefix is retired: the cron deletes it an hour later); a failure aborts (the slice keeps its image).
 */
import { basename, dirname, resolve } from 'node:path'
import {
  EpisodeManifest,
  sliceJobs,
  sliceRenditionKeys,
  type EpisodeAddRequest,
  type ImageSize,
} from '../../src/features/catalogue/series-import.ts'
import { SLICE_WIDTHS } from '../../src/features/catalogue/catalogue.ts'
import { checkFiles, probe, readManifest, uploadThenFinish } from './import.ts'

export type EpisodeAddPlan = { folder: string; seriesId: number; request: EpisodeAddRequest }

/** Reads and validates `<dir>/episode.json`, checks its files and probes every image: the request, before anything is sent. */
export async function planEpisodeAdd(dir: string, seriesId: number, reason: string): Promise<EpisodeAddPlan> {
  const folder = resolve(dir)
  const episode = readManifest(folder, 'episode.json', EpisodeManifest)
  checkFiles(
    folder,
    episode.images.map((img, j) => [img, `images.${j}`] as const),
  )
  const sizes = await Promise.all(episode.images.map((img, j) => probe(resolve(folder, img), `images.${j}`)))
  return { folder, seriesId, request: { episode, sizes, reason } }
}

/** The operator API's upload steps (scripts/ops.ts calls them over HTTP; tests stand in for them). */
export type UploadApi = {
  addEpisode: (seriesId: number, request: EpisodeAddRequest) => Promise<{ episodeId: number; no: number; keys: string[] }>
  replaceSlice: (episodeId: number, n: number, body: { size: ImageSize; reason: string }) => Promise<{ key: string; keys: string[] }>
  put: (key: string, bytes: Uint8Array) => Promise<void>
  finish: (episodeId: number) => Promise<{ publishedAt?: string; announced?: boolean }>
  abort: (episodeId: number) => Promise<void>
}

export type EpisodeAddResult = { episodeId: number; no: number; objects: number; bytes: number; publishedAt?: string; announced?: boolean }

/** Sends a planned episode: the number reserved, every slice rendered and uploaded, the finish; a failure aborts. */
export async function addEpisode(
  api: UploadApi,
  plan: EpisodeAddPlan,
  opts: { log?: (line: string) => void } = {},
): Promise<EpisodeAddResult> {
  const log = opts.log ?? (() => {})
  const { episodeId, no, keys } = await api.addEpisode(plan.seriesId, plan.request)
  const jobs = sliceJobs(plan.seriesId, no, plan.request.episode.images)
  log(
    `episode add: episode ${no} of series ${plan.seriesId} is episode id ${episodeId} (unpublished until done); rendering and uploading ${jobs.length} images…`,
  )
  let finished: Awaited<ReturnType<UploadApi['finish']>> = {}
  const sent = await uploadThenFinish({
    what: 'episode add',
    keys,
    expected: jobs.flatMap((j) => sliceRenditionKeys(j.prefix)),
    jobs,
    folder: plan.folder,
    put: api.put,
    finish: async () => (finished = await api.finish(episodeId)),
    abort: () => api.abort(episodeId),
    undo: `removing episode ${episodeId} and its objects`,
    log,
  })
  return { episodeId, no, objects: sent.uploaded, bytes: sent.bytes, ...finished }
}

export type SliceReplacePlan = { folder: string; file: string; size: ImageSize; reason: string }

/** Checks and probes the new image of a slice, before anything is sent. */
export async function planSliceReplace(file: string, reason: string): Promise<SliceReplacePlan> {
  const path = resolve(file)
  checkFiles(dirname(path), [[basename(path), '--file']])
  return { folder: dirname(path), file: basename(path), size: await probe(path, '--file'), reason }
}

/** Sends a planned replacement of slice `n` of episode `episodeId`: its new prefix, its renditions, the finish; a failure aborts. */
export async function replaceSlice(
  api: UploadApi,
  episodeId: number,
  n: number,
  plan: SliceReplacePlan,
  opts: { log?: (line: string) => void } = {},
): Promise<{ key: string; objects: number; bytes: number }> {
  const log = opts.log ?? (() => {})
  const { key, keys } = await api.replaceSlice(episodeId, n, { size: plan.size, reason: plan.reason })
  const jobs = [{ file: plan.file, prefix: key, widths: SLICE_WIDTHS }]
  const sent = await uploadThenFinish({
    what: 'episode replace-slice',
    keys,
    expected: sliceRenditionKeys(key),
    jobs,
    folder: plan.folder,
    put: api.put,
    finish: () => api.finish(episodeId),
    abort: () => api.abort(episodeId),
    undo: `removing the new objects of slice ${n} (it keeps its image)`,
    log,
  })
  return { key, objects: sent.uploaded, bytes: sent.bytes }
}
