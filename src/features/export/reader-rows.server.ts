/**
 * What a reader's object holds of their library for their data export (issue 37 point 6; docs/ARCHITECTURE.md "Reader
 * objects"): favourites and hidden series, reading progress, liked episodes, followed creators. Synchronous SQL on the
 * object's SQLite (src/objects/reader/reader.server.ts `exportRows`).
 */
import type { ExportData } from './export.ts'

export type ReaderRows = Pick<ExportData, 'favorites' | 'hidden' | 'progress' | 'likes' | 'follows'>

const all = (sql: SqlStorage, query: string) => sql.exec<Record<string, string | number | null>>(query).toArray()

export const readerRows = (sql: SqlStorage): ReaderRows => ({
  favorites: all(sql, `SELECT series_id AS seriesId, favorite_at AS at FROM marks WHERE favorite_at IS NOT NULL ORDER BY favorite_at`),
  hidden: all(sql, `SELECT series_id AS seriesId, hidden_at AS at FROM marks WHERE hidden_at IS NOT NULL ORDER BY hidden_at`),
  progress: all(
    sql,
    `SELECT series_id AS seriesId, episode_id AS episodeId, episode_no AS episodeNo, position, updated_at AS updatedAt FROM progress ORDER BY updated_at`,
  ),
  likes: all(sql, `SELECT series_id AS seriesId, episode_id AS episodeId, liked_at AS at FROM likes ORDER BY liked_at`),
  follows: all(sql, `SELECT creator_id AS creatorId, followed_at AS at FROM follows ORDER BY followed_at`),
})
