/**
 * The account card in a reader's object (issue 38 point 6; docs/ARCHITECTURE.md "Auth and sessions"): the reader's
 * `users` row as D1 has it (`ACCOUNT_CARD_SQL`: adult flags, switches, session version, and the profile `GET /user/me`
 * shows), so the session check of a signed-in request and the reader's own profile are one call to the reader's object
 * and no D1 query. D1 stays the record: each write to those columns drops the card (`accountChanged`), and a card older
 * than an access token's life is read again, so a change whose drop failed lasts no longer than a token signed before it.
 */
import { ADULT_COLUMNS, type AdultRow } from './age.server.ts'
import { ACCESS_TOKEN_TTL_SECONDS } from '../../lib/tokens.ts'
import { SECOND_MS, isoAfter } from '../../lib/time.ts'
import type { Cols } from '../../lib/server/rows.ts'
import type { IdentitiesRow, PushSettingsRow } from '../../lib/server/db-types.ts'

/** The card: the adult row (`ADULT_COLUMNS`) and the reader's profile. */
export type AccountCard = AdultRow &
  Cols<'users', 'id' | 'email' | 'name' | 'nickname' | 'is_agree_mail'> & {
    // identities and push_settings are LEFT JOINed: no identity, or no push row yet (read as all off)
    snsProvider: IdentitiesRow['provider'] | null
    snsId: IdentitiesRow['provider_user_id'] | null
    appPush: PushSettingsRow['is_app_push'] | null
    push: PushSettingsRow['is_agree_push'] | null
    pushContents: PushSettingsRow['is_agree_push_contents'] | null
    pushFreetime: PushSettingsRow['is_agree_push_freetime'] | null
    pushNight: PushSettingsRow['is_agree_push_night'] | null
  }

/** The card of a live account, read from D1 (the account's first identity is the one it signed up with). */
export const ACCOUNT_CARD_SQL = `SELECT u.id, i.provider AS snsProvider, i.provider_user_id AS snsId, u.email, u.name, u.nickname,
            u.is_agree_mail AS isAgreeMail, ${ADULT_COLUMNS}, p.is_app_push AS appPush, p.is_agree_push AS push, p.is_agree_push_contents AS pushContents,
            p.is_agree_push_freetime AS pushFreetime, p.is_agree_push_night AS pushNight
       FROM users u
       LEFT JOIN identities i ON i.id = (SELECT MIN(id) FROM identities WHERE user_id = u.id)
       LEFT JOIN push_settings p ON p.user_id = u.id
      WHERE u.id = ? AND u.deleted_at IS NULL`

const CARD_KEEP_MS = ACCESS_TOKEN_TTL_SECONDS * SECOND_MS

/** The card kept at `now` (null: no live account), or undefined when none younger than an access token's life is kept. */
export function keptCard(sql: SqlStorage, now: string): AccountCard | null | undefined {
  const row = sql.exec<{ card: string | null }>(`SELECT card FROM account WHERE loaded_at > ?`, isoAfter(now, -CARD_KEEP_MS)).toArray()[0]
  if (row === undefined) return undefined
  if (row.card === null) return null
  const card = JSON.parse(row.card) as AccountCard
  return 'appPush' in card ? card : undefined // a card kept before it carried `appPush` is read again
}

/** Keeps the card read from D1 at `now` (null: no live account). */
export function keepCard(sql: SqlStorage, card: AccountCard | null, now: string): void {
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
