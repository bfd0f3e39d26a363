/**
 * Favourites and hidden series inside the reader's own object (issue 38; docs/ARCHITECTURE.md "Reader objects"): one
 * row per series the reader marked, with when each mark was set. Synchronous SQL on the object's SQLite; the object
 * (src/objects/reader/reader.server.ts) runs each change in one transaction with the outbox row that gives the shared side the
 * series' whole state and a version (`marks` event, applied to D1 `library_marks` for the fan-outs).
 */
import type { ReaderEvent } from '../reader/events.ts'

export type Mark = 'favorite' | 'hidden'
export type SeriesMarks = Record<Mark, boolean>
/** A series on a shelf of marks, with when the mark was set. */
export type MarkedSeries = { seriesId: number; at: string }

const COLUMN: Record<Mark, string> = { favorite: 'favorite_at', hidden: 'hidden_at' }

/** The reader's marks on one series. */
export function marksOf(sql: SqlStorage, seriesId: number): SeriesMarks {
  const row = sql
    .exec<{ favorite: number; hidden: number }>(
      `SELECT favorite_at IS NOT NULL AS favorite, hidden_at IS NOT NULL AS hidden FROM marks WHERE series_id = ?`,
      seriesId,
    )
    .toArray()[0]
  return { favorite: row?.favorite === 1, hidden: row?.hidden === 1 }
}

/**
 * Sets or clears one mark at `at` (repeatable: the same state again changes nothing and tells nothing); answers the
 * event with the series' new state and the next version of the object's marks.
 */
export function setMark(sql: SqlStorage, seriesId: number, mark: Mark, on: boolean, at: string): ReaderEvent | null {
  const before = marksOf(sql, seriesId)
  if (before[mark] === on) return null
  const column = COLUMN[mark]
  sql.exec(
    `INSERT INTO marks (series_id, ${column}) VALUES (?, ?) ON CONFLICT (series_id) DO UPDATE SET ${column} = excluded.${column}`,
    seriesId,
    on ? at : null,
  )
  sql.exec(`DELETE FROM marks WHERE series_id = ? AND favorite_at IS NULL AND hidden_at IS NULL`, seriesId)
  const version = sql
    .exec<{ value: string }>(
      `INSERT INTO facts (key, value) VALUES ('marks_version', '1')
       ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING value`,
    )
    .one().value
  return { kind: 'marks', seriesId, ...before, [mark]: on, version: Number(version) }
}

/** Marks moved in from D1 (the shared side's copy has them already): a mark the object holds stays as it is. */
export function mergeMarks(sql: SqlStorage, rows: readonly ({ mark: Mark } & MarkedSeries)[]): void {
  for (const { seriesId, mark, at } of rows) {
    const column = COLUMN[mark]
    sql.exec(
      `INSERT INTO marks (series_id, ${column}) VALUES (?, ?)
       ON CONFLICT (series_id) DO UPDATE SET ${column} = coalesce(${column}, excluded.${column})`,
      seriesId,
      at,
    )
  }
}

/** A shelf of marks, newest first after `cursor` (the last row of the previous page); favourites leave out hidden series. */
export function markedSeries(sql: SqlStorage, mark: Mark, cursor: MarkedSeries | null, limit: number): MarkedSeries[] {
  const column = COLUMN[mark]
  return sql
    .exec<MarkedSeries>(
      `SELECT series_id AS seriesId, ${column} AS at FROM marks
        WHERE ${column} IS NOT NULL ${mark === 'favorite' ? 'AND hidden_at IS NULL' : ''}
          AND (?1 IS NULL OR ${column} < ?1 OR (${column} = ?1 AND series_id < ?2))
        ORDER BY ${column} DESC, series_id DESC LIMIT ?3`,
      cursor?.at ?? null,
      cursor?.seriesId ?? 0,
      limit,
    )
    .toArray()
}

/** The series the reader hid. */
export function hiddenSeries(sql: SqlStorage): number[] {
  return sql
    .exec<{ seriesId: number }>(`SELECT series_id AS seriesId FROM marks WHERE hidden_at IS NOT NULL`)
    .toArray()
    .map((r) => r.seriesId)
}
