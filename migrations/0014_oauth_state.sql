-- 0011_oauth_state: the OAuth `state` is single use on the server (issue 26 point 7b). The start of a flow records
-- the SHA-256 of its state; the callback claims it with one conditional UPDATE, so a saved or replayed state cookie
-- cannot start or finish a second sign-in. Rows older than their 10 minutes are dropped by later starts.
CREATE TABLE oauth_states (
  state_hash  TEXT PRIMARY KEY,                          -- SHA-256 of the state, base64url
  expires_at  TEXT NOT NULL,
  used_at     TEXT
);
CREATE INDEX oauth_states_expiry ON oauth_states (expires_at);
