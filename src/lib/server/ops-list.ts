/**
 * The operator lists that go newest first by id (`GET /api/ops/notices`, `/events`, `/banners`; docs/API.md
 * "Operator API"): one page read as `opsPage` wants it, `limit + 1` rows after the cursor.
 */
import type { Db } from './db.ts'
import { opsPage, type OpsListQuery, type OpsPage } from '../ops.ts'

/** One page of `table` (its `columns`, each row made an item by `toItem`), highest id first, after `query.cursor`. */
export async function newestFirst<R, T extends { id: number }>(
  db: Db,
  table: 'notices' | 'events' | 'banners',
  columns: string,
  query: OpsListQuery,
  toItem: (row: R) => T,
): Promise<OpsPage<T>> {
  const rows = await db.all<R>(
    `SELECT ${columns} FROM ${table} WHERE (?1 IS NULL OR id < ?1) ORDER BY id DESC LIMIT ?2`,
    query.cursor ?? null,
    query.limit + 1,
  )
  return opsPage(rows.map(toItem), query.limit, (item) => item.id)
}
