/**
 * The holding rule of holding.ts as SQL over `ownerships`, for the writes that decide it themselves (a purchase, a
 * gift, a wait-until-free unlock: the row fails its CHECK when the reader came to hold the episode meanwhile). It
 * names the reader's money tables only, so it runs through `moneyDb` (src/features/reader/money-db.server.ts) in
 * those writes' money batches; a read that needs the rule with the catalogue (the viewer's "may read") reads the
 * holdings apart and applies `heldNow`.
 */
import type { Cols } from '../../lib/server/rows.ts'
import { FOREVER_KINDS, TIMED_KINDS } from './holding.ts'

const quoted = (kinds: readonly string[]) => kinds.map((k) => `'${k}'`).join(', ')
const FOREVER = quoted(FOREVER_KINDS)
const TIMED = quoted(TIMED_KINDS)

/**
 * SQL condition, true when reader `?` holds the episode `episode` (an SQL expression) at instant `?` (given twice):
 * `heldNow` not null (kept forever, or a rental or unlock still running). Parameters: reader, now, now.
 */
const holdsSql = (episode: string) => `EXISTS (SELECT 1 FROM ownerships o WHERE o.user_id = ? AND o.episode_id = ${episode} AND (
    (o.kind IN (${FOREVER}) AND (o.expires_at IS NULL OR o.expires_at > ?)) OR (o.kind IN (${TIMED}) AND o.expires_at > ?)))`

/**
 * `holdsSql` of episode `?`, the write guard that refuses any new rental, purchase, wait-until-free unlock or gift of
 * an episode held meanwhile: each path puts it in the coins of its `purchases` row (`-1` when held), so the table's
 * CHECK (coins >= 0) fails the whole batch — ownership, coin lots, ledger, idempotency row —; the path then reads
 * again and answers the catalogue's code. Its parameters are `heldParams`.
 */
export const HELD_SQL = holdsSql('?')
export const heldParams = (userId: number, episodeId: number, nowIso: string): unknown[] => [userId, episodeId, nowIso, nowIso]

/**
 * The write guard of a purchase for good (issue 12 point 4), like `HELD_SQL` for the other paths: true when reader `?`
 * keeps episode `?` forever at `?`, or when the rentals and unlocks of it running at `?` are not the `?` the price was
 * set with (`Held.runningCount`: a rental that started meanwhile would have lowered it).
 */
export const BUY_GUARD_SQL = `(EXISTS (SELECT 1 FROM ownerships WHERE user_id = ? AND episode_id = ? AND kind IN (${FOREVER}) AND (expires_at IS NULL OR expires_at > ?))
    OR (SELECT count(*) FROM ownerships WHERE user_id = ? AND episode_id = ? AND kind IN (${TIMED}) AND expires_at > ?) <> ?)`

/** Reader `?`'s holdings of the episodes of a JSON list `?` (at most two are asked: an episode and the next one). */
export const HOLDINGS_SQL = `SELECT episode_id AS episodeId, kind, expires_at AS expiresAt FROM ownerships
  WHERE user_id = ? AND episode_id IN (SELECT value FROM json_each(?)) LIMIT 40`
/** A row of `HOLDINGS_SQL`. */
export type EpisodeHoldingRow = Cols<'ownerships', 'episode_id' | 'kind' | 'expires_at'>

/** The rows of a reader's holdings as `holdingState` reads them. */
export type HoldingRow = Cols<'ownerships', 'episode_id' | 'kind' | 'expires_at'>

/** The statement reading reader `userId`'s holdings of episode `episodeId` (rows: `HoldingRow`), for a write's own read. */
export const holdingsOf = (userId: number, episodeId: number | null) => ({
  sql: `SELECT episode_id AS episodeId, kind, expires_at AS expiresAt FROM ownerships WHERE user_id = ? AND episode_id = ?`,
  params: [userId, episodeId],
})
