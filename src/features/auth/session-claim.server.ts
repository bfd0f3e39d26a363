/**
 * The session part of an access token as the features that read the reader's row in their own batch check it
 * (purchase, wallet, the session middleware). No Worker-only import: scripts in Node (ops, seed) load the wallet.
 */
/** What an access token says of its session: the account's session version and the session (refresh family) id. */
export type SessionClaim = { sessionVersion: number; sessionId: string }

/**
 * SQL, 1 while the session `?` (an access token's `sid`) is open: no logout or replayed token ended it (ASVS 7.4.1).
 * Sessions live in the reader's object (session-store.server.ts); D1 keeps the ones ended while an access token of
 * theirs may still be alive (`ended_sessions`, migration 0030). For the queries that check a session inside their own read.
 */
export const SESSION_OPEN_SQL = `NOT EXISTS (SELECT 1 FROM ended_sessions WHERE id = ?)`

/** The statement that tells D1 a session ended (after the reader's object ended it). */
export const endedSession = (sessionId: string, nowIso: string) => ({
  sql: `INSERT INTO ended_sessions (id, ended_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`,
  params: [sessionId, nowIso],
})
