/**
 * The account card in a reader's object (issue 38 point 6; docs/ARCHITECTURE.md "Auth and sessions"): the reader's
 * adult flags, switches and session version as D1's `users` row had them (`ADULT_STATE_SQL`), so the session check of
 * a signed-in request is one call to the reader's object and no D1 query. D1 stays the record: each write to those
 * columns drops the card (`accountChanged`), and a card older than an access token's life is read again, so a change
 * whose drop failed lasts no longer than a token signed before it.
 */
import type { AdultRow } from './age.server.ts'
import { ACCESS_TOKEN_TTL_SECONDS } from '../auth/tokens.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'

const CARD_KEEP_MS = ACCESS_TOKEN_TTL_SECONDS * SECOND_MS

/** The card kept at `now` (null: no live account), or undefined when none younger than an access token's life is kept. */
export function keptCard(sql: SqlStorage, now: string): AdultRow | null | undefined {
  const row = sql.exec<{ card: string | null }>(`SELECT card FROM account WHERE loaded_at > ?`, isoAfter(now, -CARD_KEEP_MS)).toArray()[0]
  return row === undefined ? undefined : row.card === null ? null : (JSON.parse(row.card) as AdultRow)
}

/** Keeps the card read from D1 at `now` (null: no live account). */
export function keepCard(sql: SqlStorage, card: AdultRow | null, now: string): void {
  sql.exec(
    `INSERT INTO account (id, card, loaded_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET card = excluded.card, loaded_at = excluded.loaded_at`,
    card === null ? null : JSON.stringify(card),
    now,
  )
}

/** Drops the card: the next check reads D1. */
export function dropCard(sql: SqlStorage): void {
  sql.exec(`DELETE FROM account`)
}
