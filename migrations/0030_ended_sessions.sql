-- 0030_ended_sessions: sessions (refresh-token families) now live in each reader's Durable Object (issue 38,
-- src/features/auth/session-store.server.ts). What D1 keeps is the list of sessions ended by a logout or a replayed
-- token while an access token of theirs may still be alive: the checks that read the reader's row refuse such a token
-- at once (src/features/auth/session-claim.server.ts). A row is useless once every access token of its session has
-- expired (15 minutes); the retention sweep deletes it a day after `ended_at`.
CREATE TABLE ended_sessions (
  id        TEXT PRIMARY KEY,                             -- the session id (an access token's `sid`)
  ended_at  TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX ended_sessions_at ON ended_sessions (ended_at);
-- sessions ended in D1 before this migration, whose access tokens may still be alive
INSERT OR IGNORE INTO ended_sessions (id, ended_at)
  SELECT family_id, max(revoked_at) FROM refresh_tokens
   WHERE revoked_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day') GROUP BY family_id;
