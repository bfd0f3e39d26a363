/**
 * A reader's sessions inside their own object (issue 38; docs/ARCHITECTURE.md "Reader objects"): one row per session
 * (a refresh-token family, the access token's `sid`) and one per refresh token it was given, by the token's SHA-256.
 * Synchronous SQL on the object's SQLite; the object (src/objects/reader/reader.server.ts) runs each call in one transaction, so
 * of two refreshes with one token exactly one rotates it.
 *
 * A session belongs to the account's session version it started under (`users.session_version`, D1): ending every
 * session of an account moves that version on, and a session of an older version is refused and ended here at its next
 * refresh. A logout or a replayed token ends one session; the session check (`sessionOpen`) then refuses its access
 * tokens at once.
 */
import type { ErrorCode } from '../../lib/errors/catalogue.ts'
import { isWithinReuseGrace } from './tokens.ts'

export type SessionStart = {
  sessionId: string
  tokenHash: string
  version: number
  clientKind: string
  ip: string | null
  now: string
  expiresAt: string
}

export type Rotation = {
  tokenHash: string
  /** The token that replaces it, by hash, and its expiry. */
  nextHash: string
  expiresAt: string
  /** The account's session version now (D1). */
  version: number
  now: string
}

export type Rotated =
  | { ok: true; sessionId: string }
  /** `rotatedRecently`: a concurrent tab's refresh. */
  | { ok: false; code: Extract<ErrorCode, 'NOT_FOUND_REFRESH_TOKEN' | 'EXPIRED_REFRESH_TOKEN'>; rotatedRecently?: true }

/** A live token moved in from D1's former `refresh_tokens` (one of a session not ended, not expired). */
export type MovedToken = {
  sessionId: string
  tokenHash: string
  parentId: string | null
  clientKind: string
  ip: string | null
  createdAt: string
  expiresAt: string
  rotatedAt: string | null
}

/** Tokens past their expiry go (a rotated one's replay window is its own life), then sessions left without a token. */
function dropExpired(sql: SqlStorage, now: string): void {
  sql.exec(`DELETE FROM refresh_tokens WHERE expires_at <= ?`, now)
  sql.exec(`DELETE FROM sessions WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.session_id = sessions.id)`)
}

const endSql = `UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL`

/** A sign-in: a new session with its first refresh token. */
export function startSession(sql: SqlStorage, s: SessionStart): void {
  dropExpired(sql, s.now)
  sql.exec(
    `INSERT INTO sessions (id, version, client_kind, ip_address, created_at) VALUES (?, ?, ?, ?, ?)`,
    s.sessionId,
    s.version,
    s.clientKind,
    s.ip,
    s.now,
  )
  sql.exec(
    `INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
    s.tokenHash,
    s.sessionId,
    s.now,
    s.expiresAt,
  )
}

/**
 * Spec §4 / docs/API.md refresh: the token is replaced by `nextHash` and can never be used again. A token already
 * replaced is a replay, which ends its whole session (ASVS 10.4.5) unless it was replaced within the reuse grace (two
 * tabs at once); a session of an older account version ends too (every session of the account was ended).
 */
export function rotateSession(sql: SqlStorage, r: Rotation): Rotated {
  const row = sql
    .exec<{ sessionId: string; expiresAt: string; rotatedAt: string | null; endedAt: string | null; version: number }>(
      `SELECT t.session_id AS sessionId, t.expires_at AS expiresAt, t.rotated_at AS rotatedAt, s.ended_at AS endedAt, s.version
         FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?`,
      r.tokenHash,
    )
    .toArray()[0]
  if (!row || row.endedAt !== null) return { ok: false, code: 'NOT_FOUND_REFRESH_TOKEN' }
  const end = (): Rotated => {
    sql.exec(endSql, r.now, row.sessionId)
    return { ok: false, code: 'NOT_FOUND_REFRESH_TOKEN' }
  }
  if (row.version !== r.version) return end()
  if (row.rotatedAt !== null)
    return isWithinReuseGrace(row.rotatedAt, new Date(r.now))
      ? { ok: false, code: 'NOT_FOUND_REFRESH_TOKEN', rotatedRecently: true }
      : end()
  if (row.expiresAt <= r.now) return { ok: false, code: 'EXPIRED_REFRESH_TOKEN' }
  dropExpired(sql, r.now)
  sql.exec(`UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ?`, r.now, r.tokenHash)
  sql.exec(
    `INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
    r.nextHash,
    row.sessionId,
    r.now,
    r.expiresAt,
  )
  return { ok: true, sessionId: row.sessionId }
}

/** docs/API.md logout: the token's session ends; answers its id (also when it had ended already), null for a token unknown here. */
export function endSession(sql: SqlStorage, tokenHash: string, now: string): string | null {
  const sessionId = sql.exec<{ id: string }>(`SELECT session_id AS id FROM refresh_tokens WHERE token_hash = ?`, tokenHash).toArray()[0]?.id
  if (sessionId === undefined) return null
  sql.exec(endSql, now, sessionId)
  return sessionId
}

/** Every session ends (the account's version has moved on from `version` in D1); answers how many were open. */
export function endAllSessions(sql: SqlStorage, version: number, now: string): number {
  const open = openSessions(sql, version, now)
  sql.exec(`UPDATE sessions SET ended_at = ? WHERE ended_at IS NULL`, now)
  return open
}

const OPEN_SQL = `s.ended_at IS NULL AND s.version = ?
  AND EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.session_id = s.id AND t.rotated_at IS NULL AND t.expires_at > ?)`

/**
 * Whether session `id` (an access token's `sid`) is open at `version` (its `sv`): known here, not ended by a logout, a
 * replayed token or the end of every session. What the session check asks for every access token (ASVS 7.4.1/7.4.3).
 */
export function sessionOpen(sql: SqlStorage, id: string, version: number): boolean {
  return sql.exec(`SELECT 1 FROM sessions WHERE id = ? AND version = ? AND ended_at IS NULL`, id, version).toArray().length > 0
}

/** Sessions still open: not ended, of the account's version, with a live token. */
export function openSessions(sql: SqlStorage, version: number, now: string): number {
  return sql.exec<{ n: number }>(`SELECT count(*) AS n FROM sessions s WHERE ${OPEN_SQL}`, version, now).one().n
}

/**
 * A sign-in as the operator sees it: a refresh-token family's first token (one per sign-in, its rotations excluded).
 * `open`: the family still has a live token (not rotated, revoked nor expired): that device is signed in.
 */
export type ReaderSignIn = { at: string; client: string; ipAddress: string | null; open: boolean }

/** The newest sign-ins first, `limit` of them, as an operator's look-up lists them. */
export function signIns(sql: SqlStorage, version: number, now: string, limit: number): ReaderSignIn[] {
  return sql
    .exec<Omit<ReaderSignIn, 'open'> & { open: number }>(
      `SELECT s.created_at AS at, s.client_kind AS client, s.ip_address AS ipAddress, (${OPEN_SQL}) AS open
         FROM sessions s ORDER BY s.created_at DESC, s.id LIMIT ?`,
      version,
      now,
      limit,
    )
    .toArray()
    .map((s) => ({ ...s, open: s.open === 1 }))
}

/**
 * Sessions moved in from D1 under the account's version (a move made twice changes nothing: rows the object has stay).
 * A session's sign-in is its first token's (no parent); its other tokens only add themselves.
 */
export function mergeSessions(sql: SqlStorage, version: number, tokens: readonly MovedToken[]): void {
  for (const t of [...tokens].sort((a, b) => Number(a.parentId !== null) - Number(b.parentId !== null))) {
    sql.exec(
      `INSERT INTO sessions (id, version, client_kind, ip_address, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      t.sessionId,
      version,
      t.clientKind,
      t.ip,
      t.createdAt,
    )
    sql.exec(
      `INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at, rotated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (token_hash) DO NOTHING`,
      t.tokenHash,
      t.sessionId,
      t.createdAt,
      t.expiresAt,
      t.rotatedAt,
    )
  }
}
