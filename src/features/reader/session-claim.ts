/**
 * The session part of an access token, which the reader's object checks (auth.server.ts `currentReader`, and the routes
 * marked `checksSessionItself` in their own call to it). No Worker-only import: scripts in Node (ops, seed) load the
 * wallet.
 */
/** What an access token says of its session: the account's session version and the session (refresh family) id. */
export type SessionClaim = { sessionVersion: number; sessionId: string }
