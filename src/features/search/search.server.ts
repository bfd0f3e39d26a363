/** Search reads from D1: series_fts (titles, creators, tags) and the tag lists; every list bounded. */
import type { Db } from '../../lib/server/db.ts'
import type { TagsRow } from '../../lib/server/db-types.ts'
import type { Audience } from '../catalogue/catalogue.ts'
import { cards, visible, type CardRow, type SeriesCard } from '../catalogue/catalogue.server.ts'
import { encodeSearchCursor, MAX_SEARCH_OFFSET, TAG_LIST_SIZE, type SearchRequest } from './search.ts'

export type SearchPage = { items: SeriesCard[]; next: string | null }

/**
 * One page of series matching the request's FTS5 expression (built by `resolveSearch`, never raw input),
 * best first (bm25: title weighs most, then creators, then tags). 1 query; `size + 1` rows tell whether
 * a next page exists. Hidden series (adult for guests, BL where toggled off) never appear.
 */
export async function searchSeries(db: Db, req: SearchRequest, audience: Audience): Promise<SearchPage> {
  if (req.match === null) return { items: [], next: null }
  const rows = await db.all<CardRow>(
    `SELECT s.id, s.title, s.genre, s.is_adult AS isAdult, s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight
     FROM series_fts f JOIN series s ON s.id = f.rowid
     WHERE series_fts MATCH ? AND ${visible(audience)}
     ORDER BY bm25(series_fts, 10.0, 3.0, 2.0), s.rank_score DESC, s.id
     LIMIT ? OFFSET ?`,
    req.match,
    req.size + 1,
    req.offset,
  )
  const items = cards(rows.slice(0, req.size))
  const nextOffset = req.offset + req.size
  const next = rows.length > req.size && nextOffset <= MAX_SEARCH_OFFSET ? encodeSearchCursor(nextOffset) : null
  return { items, next }
}

export type TagLists = { top: string[]; recommended: string[] }

/** Tag top 10 (most searched) and the recommended tags (1 query). */
export async function tagLists(db: Db, size = TAG_LIST_SIZE): Promise<TagLists> {
  const rows = await db.all<Pick<TagsRow, 'name'> & { list: 'top' | 'rec' }>(
    `SELECT * FROM (SELECT name, 'top' AS list, search_count AS n, id FROM tags ORDER BY search_count DESC, id LIMIT ?)
     UNION ALL
     SELECT * FROM (SELECT name, 'rec' AS list, search_count AS n, id FROM tags WHERE is_recommended = 1 ORDER BY search_count DESC, id LIMIT ?)
     ORDER BY list DESC, n DESC, id`,
    size,
    size,
  )
  return {
    top: rows.filter((r) => r.list === 'top').map((r) => r.name),
    recommended: rows.filter((r) => r.list === 'rec').map((r) => r.name),
  }
}

/**
 * A search for a tag's name (the tag links of /search, or typed) counts for that tag's top-10 place
 * (tags.search_count). 1 write; a keyword that is no tag changes nothing.
 */
export async function countTagSearch(db: Db, keyword: string): Promise<void> {
  const name = keyword.replace(/^#/, '').trim()
  if (!name || name.length > 100) return
  await db.run(`UPDATE tags SET search_count = search_count + 1 WHERE name = ? COLLATE NOCASE`, name)
}
