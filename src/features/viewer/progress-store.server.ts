/**
 * Reading progress inside the reader's own object (issue 38; docs/ARCHITECTURE.md "Reader objects"): one row per
 * series — the last episode read, its number and the position in it (0..1). Synchronous SQL on the object's SQLite;
 * the object (src/objects/reader/reader.server.ts) runs each write in one transaction with its outbox row.
 */
import { dayOf, type ReaderEvent } from '../reader/events.ts'

export type StoredProgress = {
  seriesId: number
  episodeId: number
  episodeNo: number
  /** 0 (top) to 1 (end). */
  position: number
  updatedAt: string
}

/** One place per series: a write replaces the series' row. */
const UPSERT = `INSERT INTO progress (series_id, episode_id, episode_no, position, updated_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (series_id) DO UPDATE SET episode_id = excluded.episode_id, episode_no = excluded.episode_no,
    position = excluded.position, updated_at = excluded.updated_at`
const put = (sql: SqlStorage, statement: string, p: StoredProgress) =>
  sql.exec(statement, p.seriesId, p.episodeId, p.episodeNo, p.position, p.updatedAt)

const COLUMNS = `series_id AS seriesId, episode_id AS episodeId, episode_no AS episodeNo, position, updated_at AS updatedAt`

/** Writes the reader's place in a series; answers the event the shared side must learn (the read moved to another day). */
export function writeProgress(sql: SqlStorage, p: StoredProgress): ReaderEvent | null {
  const before = sql
    .exec<{ updatedAt: string }>(`SELECT updated_at AS updatedAt FROM progress WHERE series_id = ?`, p.seriesId)
    .toArray()[0]
  put(sql, UPSERT, p)
  const from = before ? dayOf(before.updatedAt) : null
  return from === dayOf(p.updatedAt) ? null : { kind: 'read', seriesId: p.seriesId, from, to: dayOf(p.updatedAt) }
}

/**
 * Rows moved in from D1 (the shared side counted them when they were written there): a row the object already has
 * stays unless the moved one is newer.
 */
export function mergeProgress(sql: SqlStorage, rows: readonly StoredProgress[]): void {
  for (const p of rows) put(sql, `${UPSERT} WHERE excluded.updated_at > progress.updated_at`, p)
}

/** The reader's place in one series, or null. */
export function progressIn(sql: SqlStorage, seriesId: number): StoredProgress | null {
  return sql.exec<StoredProgress>(`SELECT ${COLUMNS} FROM progress WHERE series_id = ?`, seriesId).toArray()[0] ?? null
}

/** Where the reader stopped in an episode, when it is the last one they read of its series. */
export function positionAt(sql: SqlStorage, episodeId: number): number | null {
  return sql.exec<{ position: number }>(`SELECT position FROM progress WHERE episode_id = ?`, episodeId).toArray()[0]?.position ?? null
}

/**
 * The reader's series newest first, after `cursor` (the last row of the previous page), at most `limit`; series the
 * reader hid are left out (library/marks.server.ts).
 */
export function recentProgress(sql: SqlStorage, cursor: { updatedAt: string; seriesId: number } | null, limit: number): StoredProgress[] {
  return sql
    .exec<StoredProgress>(
      `SELECT ${COLUMNS} FROM progress
        WHERE (?1 IS NULL OR updated_at < ?1 OR (updated_at = ?1 AND series_id < ?2))
          AND series_id NOT IN (SELECT series_id FROM marks WHERE hidden_at IS NOT NULL)
        ORDER BY updated_at DESC, series_id DESC LIMIT ?3`,
      cursor?.updatedAt ?? null,
      cursor?.seriesId ?? 0,
      limit,
    )
    .toArray()
}
