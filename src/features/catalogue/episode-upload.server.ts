/**
 * Uploads into a running series on D1 and R2 (docs/API.md "Operator API": `POST /api/ops/series/{id}/episodes`,
 * `POST /api/ops/episodes/{id}/slices/{n}`, `PUT /api/ops/media/{key}`, `POST /api/ops/episodes/{id}/upload/finish|abort`;
 * `npm run ops -- episode add|replace-slice` renders the images on the operator's machine, as the import does).
 *
 * - A new episode: `startEpisodeAdd` reserves its number by inserting the episode unpublished (`EPISODE_UNPUBLISHED_AT`:
 *   off every reader list) with its open upload (`episode_uploads`, kind EPISODE) in one batch; UNIQUE (series_id, no)
 *   lets one of concurrent starts have a number. `finishUpload` checks every rendition is in R2, claims the upload
 *   (`finishing_at`), then in one batch writes the slices, dates the episode (its `publishedAt`, else now), counts it
 *   on its series and closes the upload. The route then announces an episode out now (`publishEpisode`); one dated
 *   later is announced by the cron at its time, as a scheduled one.
 * - A replaced slice: `startSliceReplace` opens an upload (kind SLICE) under a new prefix (`replacedSliceKey`); the
 *   finish points the slice at it, so its URLs change (docs/ARCHITECTURE.md "Slices"), and retires the old prefix,
 *   whose renditions the cron deletes an hour later (`deleteRetiredMedia`).
 * - `abortUpload` removes what an upload wrote: a new episode's row (its upload row cascades) and objects, or a
 *   replacement's objects. The cron aborts uploads left open a day (`abortAbandonedUploads`).
 */
import type { Db } from '../../lib/server/db.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { EPISODE_UNPUBLISHED_AT } from './catalogue-ops.ts'
import {
  IMPORT_ABANDONED_MS,
  episodeKeyOf,
  replacedSliceKey,
  sliceJobs,
  sliceRenditionKeys,
  type EpisodeAddRequest,
  type ImageSize,
} from './series-import.ts'
import { sliceStatements, storeRendition, type ImportRefusal } from './series-import.server.ts'

/** What an EPISODE upload keeps until its finish (the row holds the rest). */
type EpisodeUpload = Pick<EpisodeAddRequest['episode'], 'alt' | 'transcript' | 'publishedAt'> & { sizes: ImageSize[] }
/** What a SLICE upload keeps: the slice, its new prefix and size, the prefix it replaces. */
type SliceUpload = { n: number; key: string; previous: string; size: ImageSize }

type UploadRow = Cols<'episode_uploads', 'episode_id' | 'kind' | 'request' | 'finishing_at'> &
  Cols<'episodes', 'series_id' | 'no' | 'title'> & { images: number }

async function openUpload(db: Db, episodeId: number): Promise<UploadRow | null> {
  return db.first<UploadRow>(
    `SELECT u.episode_id AS episodeId, u.kind, u.request, u.finishing_at AS finishingAt, e.series_id AS seriesId, e.no, e.title,
            json_array_length(u.request, '$.sizes') AS images
       FROM episode_uploads u JOIN episodes e ON e.id = u.episode_id WHERE u.episode_id = ?`,
    episodeId,
  )
}

/** The R2 keys an open upload expects, one per rendition. */
function uploadKeys(row: UploadRow): string[] {
  if (row.kind === 'SLICE') return sliceRenditionKeys((JSON.parse(row.request) as SliceUpload).key)
  const { sizes } = JSON.parse(row.request) as EpisodeUpload
  const images = sizes.map((_, j) => String(j + 1))
  return sliceJobs(row.seriesId, row.no, images).flatMap((j) => sliceRenditionKeys(j.prefix))
}

/**
 * The refusal of `episode publish|schedule` for an episode whose `episode add` is not finished (it has no slices yet:
 * the finish dates it), else null.
 */
export async function refuseWhileUploading(db: Db, episodeId: number): Promise<ImportRefusal | null> {
  const open = await db.first(`SELECT 1 AS x FROM episode_uploads WHERE episode_id = ? AND kind = 'EPISODE'`, episodeId)
  if (!open) return null
  const message = `episode ${episodeId} is being uploaded (episode add): its upload's finish dates it; or abort it (POST /api/ops/episodes/${episodeId}/upload/abort)`
  return { refused: 'INVALID_PARAMETER', message, fields: 'id' }
}

export type EpisodeAddStarted = { episodeId: number; seriesId: number; no: number; keys: string[] }

/**
 * Reserves the episode's number (given, else the series' last + 1) and opens its upload. Refused, nothing written:
 * an unknown series or one still being imported (NOT_EXIST), a number taken, images on a TEXT series or none on an
 * IMAGE one (INVALID_PARAMETER).
 */
export async function startEpisodeAdd(db: Db, seriesId: number, request: EpisodeAddRequest): Promise<EpisodeAddStarted | ImportRefusal> {
  const series = await db.first<Cols<'series', 'type'> & { importing: number }>(
    `SELECT type, EXISTS (SELECT 1 FROM series_imports WHERE series_id = s.id) AS importing FROM series s WHERE id = ?`,
    seriesId,
  )
  if (!series || series.importing) return { refused: 'NOT_EXIST', message: `no series ${seriesId} (or its import is not finished)` }
  const e = request.episode
  if (series.type === 'IMAGE' && (e.images.length === 0 || e.text !== undefined))
    return {
      refused: 'INVALID_PARAMETER',
      message: `series ${seriesId} is an IMAGE series: the episode needs images, no text`,
      fields: 'images',
    }
  if (series.type === 'TEXT' && (e.images.length > 0 || e.text === undefined))
    return {
      refused: 'INVALID_PARAMETER',
      message: `series ${seriesId} is a TEXT series: the episode needs its text, no images`,
      fields: 'text',
    }
  const stored: EpisodeUpload = { alt: e.alt, transcript: e.transcript, publishedAt: e.publishedAt, sizes: request.sizes }
  // one batch: the episode (ignored when its number is taken) and, only if it was inserted, its open upload
  const [inserted] = await db.batch([
    {
      sql: `INSERT OR IGNORE INTO episodes (series_id, no, title, content_type, is_free, price_rent, price_buy, text_body, published_at)
            VALUES (?1, coalesce(?2, (SELECT coalesce(max(no), 0) + 1 FROM episodes WHERE series_id = ?1)), ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            RETURNING id, no`,
      params: [
        seriesId,
        e.no ?? null,
        e.title,
        series.type,
        e.free ? 1 : 0,
        e.priceRent,
        e.priceBuy,
        e.text ?? null,
        EPISODE_UNPUBLISHED_AT,
      ],
    },
    {
      sql: `INSERT INTO episode_uploads (episode_id, kind, request) SELECT id, 'EPISODE', ?2 FROM episodes WHERE id = last_insert_rowid() AND series_id = ?1 AND changes() = 1`,
      params: [seriesId, JSON.stringify(stored)],
    },
  ])
  const row = inserted!.results[0] as { id: number; no: number } | undefined
  if (!row) {
    const message = `episode ${e.no ?? '(next)'} of series ${seriesId} exists already: episode list --series ${seriesId} shows the numbers taken`
    return { refused: 'INVALID_PARAMETER', message, fields: 'no' }
  }
  const keys = sliceJobs(seriesId, row.no, e.images).flatMap((j) => sliceRenditionKeys(j.prefix))
  return { episodeId: row.id, seriesId, no: row.no, keys }
}

export type SliceReplaceStarted = { episodeId: number; n: number; key: string; previous: string; keys: string[] }

/**
 * Opens the replacement of slice `n` of an episode under a new prefix. Refused, nothing written: no such episode or
 * slice (NOT_EXIST), an upload open on the episode already (INVALID_PARAMETER).
 */
export async function startSliceReplace(
  db: Db,
  episodeId: number,
  n: number,
  size: ImageSize,
  now: Date,
): Promise<SliceReplaceStarted | ImportRefusal> {
  const slice = await db.first<Cols<'episodes', 'series_id' | 'no'> & Cols<'episode_images', 'key'>>(
    `SELECT e.series_id AS seriesId, e.no, i.key FROM episodes e JOIN episode_images i ON i.episode_id = e.id AND i.position = ?2 WHERE e.id = ?1`,
    episodeId,
    n,
  )
  if (!slice) return { refused: 'NOT_EXIST', message: `episode ${episodeId} has no slice ${n}` }
  const key = replacedSliceKey(slice.seriesId, slice.no, n, now)
  const stored: SliceUpload = { n, key, previous: slice.key, size }
  const opened = await db.run(
    `INSERT OR IGNORE INTO episode_uploads (episode_id, kind, request) VALUES (?, 'SLICE', ?)`,
    episodeId,
    JSON.stringify(stored),
  )
  if (opened !== 1) {
    const message = `an upload is open on episode ${episodeId}: finish or abort it first (POST /api/ops/episodes/${episodeId}/upload/abort)`
    return { refused: 'INVALID_PARAMETER', message, fields: 'id' }
  }
  return { episodeId, n, key, previous: slice.key, keys: sliceRenditionKeys(key) }
}

/**
 * Stores one rendition of an open upload into a running series: a key it expects, WebP bytes. Null when the key is
 * no episode upload's (the import's route answers then).
 */
export async function putUploadObject(
  db: Db,
  media: R2Bucket,
  key: string,
  bytes: Uint8Array,
): Promise<{ key: string; bytes: number } | ImportRefusal | null> {
  const of = episodeKeyOf(key)
  if (!of) return null
  const episode = await db.first<{ id: number }>(`SELECT id FROM episodes WHERE series_id = ? AND no = ?`, of.seriesId, of.no)
  const open = episode && (await openUpload(db, episode.id))
  if (!open || open.finishingAt !== null) return null
  if (!uploadKeys(open).includes(key))
    return { refused: 'INVALID_PARAMETER', message: `${key} is not an object of the upload on episode ${open.episodeId}`, fields: 'key' }
  return storeRendition(media, key, bytes)
}

async function missingObjects(media: R2Bucket, keys: string[]): Promise<string[]> {
  const heads = await Promise.all(keys.map((k) => media.head(k)))
  return keys.filter((_, i) => !heads[i])
}

export type UploadFinished =
  | { kind: 'EPISODE'; episodeId: number; seriesId: number; no: number; publishedAt: string; slices: number; objects: number }
  | { kind: 'SLICE'; episodeId: number; n: number; key: string; objects: number; retired: string }

/**
 * Finishes an open upload once every expected object is in R2, once (one conditional statement claims it; concurrent
 * calls: NOT_EXIST). A new episode: its slices, its date (its `publishedAt`, else now), its series' counts, in one
 * batch. A replaced slice: the slice points at its new prefix (and size); the old one is retired (`media_retired`):
 * its renditions are deleted by the cron after `RETIRED_MEDIA_MS`.
 */
export async function finishUpload(db: Db, media: R2Bucket, episodeId: number, now: Date): Promise<UploadFinished | ImportRefusal> {
  const open = await openUpload(db, episodeId)
  if (!open) return { refused: 'NOT_EXIST', message: `no upload open on episode ${episodeId}` }
  if (open.finishingAt !== null) {
    const message = `the upload on episode ${episodeId} is being finished since ${open.finishingAt}; if that call failed, abort it and upload again`
    return { refused: 'NOT_EXIST', message }
  }
  const expected = uploadKeys(open)
  const missing = await missingObjects(media, expected)
  if (missing.length) {
    const message = `${missing.length} of ${expected.length} objects are not uploaded: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`
    return { refused: 'INVALID_PARAMETER', message, fields: 'objects' }
  }
  const nowIso = now.toISOString()
  const claimed = await db.run(
    `UPDATE episode_uploads SET finishing_at = ? WHERE episode_id = ? AND finishing_at IS NULL`,
    nowIso,
    episodeId,
  )
  if (claimed !== 1) return { refused: 'NOT_EXIST', message: `no upload open on episode ${episodeId}` }
  const close = { sql: `DELETE FROM episode_uploads WHERE episode_id = ?`, params: [episodeId] }
  if (open.kind === 'SLICE') {
    const s = JSON.parse(open.request) as SliceUpload
    await db.batch([
      {
        sql: `UPDATE episode_images SET key = ?, width = ?, height = ? WHERE episode_id = ? AND position = ?`,
        params: [s.key, s.size.width, s.size.height, episodeId, s.n],
      },
      {
        sql: `INSERT OR REPLACE INTO media_retired (prefix, delete_after) VALUES (?, ?)`,
        params: [s.previous, new Date(now.getTime() + RETIRED_MEDIA_MS).toISOString()],
      },
      close,
    ])
    return { kind: 'SLICE', episodeId, n: s.n, key: s.key, objects: expected.length, retired: s.previous }
  }
  const u = JSON.parse(open.request) as EpisodeUpload
  const series = await db.first<Cols<'series', 'title'>>(`SELECT title FROM series WHERE id = ?`, open.seriesId)
  const publishedAt = u.publishedAt ? new Date(u.publishedAt).toISOString() : nowIso
  await db.batch([
    ...sliceStatements(open.seriesId, open.no, series?.title ?? '', { title: open.title, alt: u.alt, transcript: u.transcript }, u.sizes),
    { sql: `UPDATE episodes SET published_at = ? WHERE id = ?`, params: [publishedAt, episodeId] },
    {
      sql: `UPDATE series SET episode_count = episode_count + 1, free_episode_count = free_episode_count + (SELECT is_free FROM episodes WHERE id = ?2),
              last_episode_at = max(coalesce(last_episode_at, ''), ?3), updated_at = ?4 WHERE id = ?1`,
      params: [open.seriesId, episodeId, publishedAt, nowIso],
    },
    close,
  ])
  return { kind: 'EPISODE', episodeId, seriesId: open.seriesId, no: open.no, publishedAt, slices: u.sizes.length, objects: expected.length }
}

/**
 * Removes what an open upload wrote: a new episode (its row, still unpublished; the upload row cascades) and its
 * objects, or a replacement's objects (the slice keeps its image). NOT_EXIST: no upload open on that episode.
 */
export async function abortUpload(
  db: Db,
  media: R2Bucket,
  episodeId: number,
): Promise<{ episodeId: number; kind: 'EPISODE' | 'SLICE'; objects: number } | ImportRefusal> {
  const open = await openUpload(db, episodeId)
  if (!open) return { refused: 'NOT_EXIST', message: `no upload open on episode ${episodeId}` }
  const keys = uploadKeys(open)
  // guarded by the upload row: an episode published meanwhile is never deleted here
  const guard = `EXISTS (SELECT 1 FROM episode_uploads WHERE episode_id = ?1 AND kind = ?2)`
  await db.batch([
    {
      sql: `DELETE FROM episodes WHERE id = ?1 AND ?2 = 'EPISODE' AND published_at = ?3 AND ${guard}`,
      params: [episodeId, open.kind, EPISODE_UNPUBLISHED_AT],
    },
    { sql: `DELETE FROM episode_uploads WHERE episode_id = ?1 AND kind = ?2`, params: [episodeId, open.kind] },
  ])
  await media.delete(keys)
  return { episodeId, kind: open.kind, objects: keys.length }
}

/**
 * How long a replaced slice's old renditions stay: pages edge-cached before the replacement (60 s) and signed URLs
 * issued before it (at most 15 min) still name them.
 */
const RETIRED_MEDIA_MS = 60 * 60 * 1000

/** Retired prefixes deleted per cron run at most. */
const RETIRED_PER_RUN = 50

/** The cron's clean-up of replaced slices: deletes the renditions of prefixes retired before `now`; answers how many. */
export async function deleteRetiredMedia(db: Db, media: R2Bucket, now: Date): Promise<number> {
  const due = await db.all<Cols<'media_retired', 'prefix'>>(
    `SELECT prefix FROM media_retired WHERE delete_after <= ? ORDER BY delete_after LIMIT ?`,
    now.toISOString(),
    RETIRED_PER_RUN,
  )
  if (!due.length) return 0
  // a prefix pointed at again meanwhile (never by this code: a replacement takes a new one) keeps its objects
  const inUse = new Set(
    (
      await db.all<{ key: string }>(
        `SELECT key FROM episode_images WHERE key IN (SELECT value FROM json_each(?))`,
        JSON.stringify(due.map((d) => d.prefix)),
      )
    ).map((r) => r.key),
  )
  const keys = due.filter((d) => !inUse.has(d.prefix)).flatMap((d) => sliceRenditionKeys(d.prefix))
  if (keys.length) await media.delete(keys)
  await db.run(`DELETE FROM media_retired WHERE prefix IN (SELECT value FROM json_each(?))`, JSON.stringify(due.map((d) => d.prefix)))
  return due.length
}

/** Uploads aborted per cron run at most. */
const ABANDONED_PER_RUN = 10

/** The cron's clean-up: aborts the uploads open since before `now − IMPORT_ABANDONED_MS` (a day); answers how many. */
export async function abortAbandonedUploads(db: Db, media: R2Bucket, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IMPORT_ABANDONED_MS).toISOString()
  const stale = await db.all<{ episodeId: number }>(
    `SELECT episode_id AS episodeId FROM episode_uploads WHERE created_at <= ? ORDER BY created_at LIMIT ?`,
    cutoff,
    ABANDONED_PER_RUN,
  )
  for (const { episodeId } of stale) await abortUpload(db, media, episodeId)
  return stale.length
}
