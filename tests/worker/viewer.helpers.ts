/** Fixtures of the viewer worker tests: series with free and paid episodes whose slices are in R2. */
import { env } from 'cloudflare:workers'
import { db, newSeries, type Reader } from './purchase.helpers.ts'
import { readerRows } from './reader-rows.ts'

export const PIXELS = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4, 87, 69, 66, 80])

/** Two slices of 720×800 and 720×1600 for the episode, stored at every slice width (under the import's key layout). */
async function withSlices(seriesId: number, no: number, episodeId: number) {
  for (const [n, height] of [
    [1, 800],
    [2, 1600],
  ] as const) {
    const key = `series/${seriesId}/ep/${no}/${n}`
    await db.run(
      `INSERT INTO episode_images (episode_id, position, key, width, height, alt) VALUES (?, ?, ?, 720, ?, ?)`,
      episodeId,
      n,
      key,
      height,
      `Image ${n}`,
    )
    for (const w of [640, 828, 1080]) await env.MEDIA.put(`${key}/${w}.webp`, PIXELS, { httpMetadata: { contentType: 'image/webp' } })
  }
}

export async function own(reader: Reader, seriesId: number, episodeId: number, kind: string, expiresAt: string | null) {
  await readerRows.run(
    reader.id,
    `INSERT INTO ownerships (user_id, series_id, episode_id, kind, expires_at) VALUES (?, ?, ?, ?, ?)`,
    reader.id,
    seriesId,
    episodeId,
    kind,
    expiresAt,
  )
}

/** A series whose first episode is free and the two others paid, all with slices. */
export async function fixture(opts: { adult?: boolean } = {}) {
  const s = await newSeries({ episodes: 3, free: 1, adult: opts.adult })
  for (const [i, id] of s.episodeIds.entries()) await withSlices(s.seriesId, i + 1, id)
  return { seriesId: s.seriesId, free: s.episodeIds[0]!, paid: s.episodeIds[1]!, paid2: s.episodeIds[2]! }
}
