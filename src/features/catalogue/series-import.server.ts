/**
 * A series import on D1 and R2 (docs/API.md "Operator API": `POST /api/ops/series/import`, `PUT /api/ops/media/{key}`,
 * `POST /api/ops/series/{id}/import/finish|abort`; `npm run ops -- import` renders the images on the operator's machine).
 *
 * 1. `startImport` inserts the series unpublished, without its cover key, and keeps the request in `series_imports`.
 * 2. `putImportObject` stores one rendition, only under a key the import expects (`importKeys`) while it is open.
 * 3. `finishImport` checks that every expected object is in R2, claims the import with one conditional statement
 *    (`finishing_at`), writes creators, tags, schedules, episodes, slices and the search row in batches, the last of
 *    which publishes the series and closes the import.
 * 4. `abortImport` removes the series row (its children and the import row cascade), its search row and its objects.
 */
import type { Db } from '../../lib/server/db.ts'
import type { Cols } from '../../lib/server/rows.ts'
import { ftsDocument } from '../../lib/text/fts.ts'
import { transcriptJson } from './transcript.ts'
import { imageKind } from '../../lib/image-kind.ts'
import {
  IMPORT_ABANDONED_MS,
  MAX_IMPORT_REQUEST_CHARS,
  coverKey,
  importKeySeries,
  importKeys,
  sliceKey,
  type ImageSize,
  type SeriesImportRequest,
  type SeriesManifest,
} from './series-import.ts'

/** D1 accepts at most 100 bound parameters per statement. */
const MAX_PARAMS = 100
const STATEMENTS_PER_BATCH = 50

export type Statement = { sql: string; params: unknown[] }

/**
 * Every row of the series after its own (its cover key first) (creators, tags, schedules, episodes, slices, search row), ending
 * with the update that publishes it. Statements stay under D1's 100 bound parameters.
 */
function importStatements(seriesId: number, m: SeriesManifest, sizes: SeriesImportRequest['sizes'], now: Date): Statement[] {
  const out: Statement[] = [{ sql: `UPDATE series SET cover_key = ? WHERE id = ?`, params: [coverKey(seriesId), seriesId] }]
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
    out.push(...sliceStatements(seriesId, e.no, m.title, e, sizes.slices[i] ?? []))
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

/**
 * The `episode_images` rows of episode `no` of a series (an import's, or an episode added later): keys of the seed's
 * scheme, alt texts (default "<series>, <episode>, image n / N"), transcripts; statements under D1's 100 parameters.
 */
export function sliceStatements(
  seriesId: number,
  no: number,
  seriesTitle: string,
  e: Pick<SeriesManifest['episodes'][number], 'title' | 'alt' | 'transcript'>,
  slices: readonly ImageSize[],
): Statement[] {
  const out: Statement[] = []
  const rows = slices.map((img, j) => [
    j + 1,
    sliceKey(seriesId, no, j + 1),
    img.width,
    img.height,
    e.alt?.[j] ?? `${seriesTitle}, ${e.title}, image ${j + 1} / ${slices.length}`,
    transcriptJson(e.transcript?.[j]),
  ])
  const perStatement = Math.floor((MAX_PARAMS - 2) / 6)
  for (let k = 0; k < rows.length; k += perStatement) {
    const chunk = rows.slice(k, k + perStatement)
    out.push({
      sql: `INSERT INTO episode_images (episode_id, position, key, width, height, alt, transcript)
            SELECT (SELECT id FROM episodes WHERE series_id = ? AND no = ?), column1, column2, column3, column4, column5, column6
            FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')})`,
      params: [seriesId, no, ...chunk.flat()],
    })
  }
  return out
}

type ImportRow = Cols<'series_imports', 'request' | 'finishing_at'>

/** Why an import step was refused: the route answers it as a catalogue code with this message. */
export type ImportRefusal = { refused: 'NOT_EXIST' | 'INVALID_PARAMETER'; message: string; fields?: string }

async function openImport(db: Db, seriesId: number): Promise<(ImportRow & { request: string }) | null> {
  return db.first<ImportRow>(`SELECT request, finishing_at AS finishingAt FROM series_imports WHERE series_id = ?`, seriesId)
}

/** Inserts the series unpublished and opens its import; answers its id and the R2 keys it expects. */
export async function startImport(db: Db, request: SeriesImportRequest): Promise<{ seriesId: number; keys: string[] } | ImportRefusal> {
  const stored = JSON.stringify({ manifest: request.manifest, sizes: request.sizes })
  if (stored.length > MAX_IMPORT_REQUEST_CHARS) {
    return {
      refused: 'INVALID_PARAMETER',
      message: `the manifest is too large (${stored.length} characters, at most ${MAX_IMPORT_REQUEST_CHARS})`,
      fields: 'manifest',
    }
  }
  const m = request.manifest
  const [inserted] = await db.batch([
    {
      sql: `INSERT INTO series (title, description, type, status, is_adult, is_bl, genre, cover_key, cover_width, cover_height, reading_direction, is_published)
            VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, 0) RETURNING id`,
      params: [
        m.title,
        m.description,
        m.type,
        m.status,
        m.isAdult ? 1 : 0,
        m.isBl ? 1 : 0,
        m.genre,
        request.sizes.cover.width,
        request.sizes.cover.height,
        m.readingDirection,
      ],
    },
    { sql: `INSERT INTO series_imports (series_id, request) VALUES (last_insert_rowid(), ?)`, params: [stored] },
  ])
  const seriesId = (inserted!.results[0] as { id: number }).id
  return { seriesId, keys: importKeys(seriesId, m) }
}

/**
 * Stores one rendition of an open import: a key of its expected set, WebP bytes (the caller caps the size).
 * Refused: a key of no open import (NOT_EXIST), a key the import does not expect or bytes that are not WebP
 * (INVALID_PARAMETER).
 */
export async function putImportObject(
  db: Db,
  media: R2Bucket,
  key: string,
  bytes: Uint8Array,
): Promise<{ key: string; bytes: number } | ImportRefusal> {
  const seriesId = importKeySeries(key)
  const open = seriesId === null ? null : await openImport(db, seriesId)
  if (!open || open.finishingAt !== null) return { refused: 'NOT_EXIST', message: `no series import open for ${key}` }
  const { manifest } = JSON.parse(open.request) as { manifest: SeriesManifest }
  if (!importKeys(seriesId!, manifest).includes(key)) {
    return { refused: 'INVALID_PARAMETER', message: `${key} is not an object of series import ${seriesId}`, fields: 'key' }
  }
  return storeRendition(media, key, bytes)
}

/** Stores one WebP rendition under `key` (immutable: a changed image gets a new key); INVALID_PARAMETER if not WebP. */
export async function storeRendition(
  media: R2Bucket,
  key: string,
  bytes: Uint8Array,
): Promise<{ key: string; bytes: number } | ImportRefusal> {
  if (imageKind(bytes) !== 'webp') return { refused: 'INVALID_PARAMETER', message: 'the body is not a WebP image', fields: 'body' }
  await media.put(key, bytes, { httpMetadata: { contentType: 'image/webp', cacheControl: 'public, max-age=31536000, immutable' } })
  return { key, bytes: bytes.length }
}

/** Every key in R2 under the series' prefixes. */
async function storedKeys(media: R2Bucket, seriesId: number): Promise<string[]> {
  const keys: string[] = []
  for (const prefix of [`${coverKey(seriesId)}/`, `series/${seriesId}/`]) {
    let cursor: string | undefined
    do {
      const page = await media.list({ prefix, cursor, limit: 1000 })
      keys.push(...page.objects.map((o) => o.key))
      cursor = page.truncated ? page.cursor : undefined
    } while (cursor)
  }
  return keys
}

/**
 * Publishes an open import once every expected object is in R2. One conditional statement claims it, so concurrent
 * calls publish once (the others: NOT_EXIST). Refused with nothing written: no open import (NOT_EXIST), objects
 * missing (INVALID_PARAMETER, the first ones named).
 */
export async function finishImport(
  db: Db,
  media: R2Bucket,
  seriesId: number,
  now: Date,
): Promise<{ seriesId: number; episodes: number; slices: number; objects: number } | ImportRefusal> {
  const open = await openImport(db, seriesId)
  if (!open) return { refused: 'NOT_EXIST', message: `no series import open for series ${seriesId}` }
  if (open.finishingAt !== null) {
    // another finish holds it, or one stopped part-way (its rows stay unpublished): only an abort clears it
    const message = `the import of series ${seriesId} is being finished since ${open.finishingAt}; if that call failed, abort it and import again`
    return { refused: 'NOT_EXIST', message }
  }
  const { manifest, sizes } = JSON.parse(open.request) as Pick<SeriesImportRequest, 'manifest' | 'sizes'>
  const expected = importKeys(seriesId, manifest)
  const stored = new Set(await storedKeys(media, seriesId))
  const missing = expected.filter((k) => !stored.has(k))
  if (missing.length) {
    const message = `${missing.length} of ${expected.length} objects are not uploaded: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`
    return { refused: 'INVALID_PARAMETER', message, fields: 'objects' }
  }
  const claimed = await db.run(
    `UPDATE series_imports SET finishing_at = ? WHERE series_id = ? AND finishing_at IS NULL`,
    now.toISOString(),
    seriesId,
  )
  if (claimed !== 1) return { refused: 'NOT_EXIST', message: `no series import open for series ${seriesId}` }
  const statements = [
    ...importStatements(seriesId, manifest, sizes, now),
    { sql: `DELETE FROM series_imports WHERE series_id = ?`, params: [seriesId] },
  ]
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await db.batch(statements.slice(i, i + STATEMENTS_PER_BATCH))
  const slices = manifest.episodes.reduce((n, e) => n + e.images.length, 0)
  return { seriesId, episodes: manifest.episodes.length, slices, objects: expected.length }
}

/**
 * Removes an import not published: the series row (its episodes, slices, creators' links, tags' links, schedules and
 * import row cascade), its search row and every object under its prefixes. NOT_EXIST: no import of that series (a
 * published series is never removed here).
 */
export async function abortImport(
  db: Db,
  media: R2Bucket,
  seriesId: number,
): Promise<{ seriesId: number; objects: number } | ImportRefusal> {
  if (!(await openImport(db, seriesId))) return { refused: 'NOT_EXIST', message: `no series import of series ${seriesId}` }
  // both guarded by the import row: a series published meanwhile keeps its search row
  const open = `EXISTS (SELECT 1 FROM series_imports WHERE series_id = ?1)`
  await db.batch([
    { sql: `DELETE FROM series_fts WHERE rowid = ?1 AND ${open}`, params: [seriesId] },
    { sql: `DELETE FROM series WHERE id = ?1 AND is_published = 0 AND ${open}`, params: [seriesId] },
  ])
  const keys = await storedKeys(media, seriesId)
  for (let i = 0; i < keys.length; i += 1000) await media.delete(keys.slice(i, i + 1000))
  return { seriesId, objects: keys.length }
}

/** Imports aborted per cron run at most (each deletes its objects from R2). */
const ABANDONED_PER_RUN = 10

/** The cron's clean-up: aborts the imports open since before `now − IMPORT_ABANDONED_MS`; answers how many. */
export async function abortAbandonedImports(db: Db, media: R2Bucket, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IMPORT_ABANDONED_MS).toISOString()
  const stale = await db.all<{ seriesId: number }>(
    `SELECT series_id AS seriesId FROM series_imports WHERE created_at <= ? ORDER BY created_at LIMIT ?`,
    cutoff,
    ABANDONED_PER_RUN,
  )
  for (const { seriesId } of stale) await abortImport(db, media, seriesId)
  return stale.length
}
