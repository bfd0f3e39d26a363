/**
 * The session part of an access token as the features that read the reader's row in their own batch check it
 * (purchase, wallet, the session middleware). No Worker-only import: scripts in Node (ops, seed) load the wallet.
 */
/** What an access token says of its session: the account's session version and the session (refresh family) id. */
export type SessionClaim = { sessionVersion: number; sessionId: string }

/**
 * SQL, 1 while the session `?` (an access token's `sid`) is open: its refresh family still has a token that was not
 * revoked (logout revokes the whole family, ASVS 7.4.1). For the queries that check a session inside their own read.
 */
export const SESSION_OPEN_SQL = `EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = ? AND revoked_at IS NULL)`
