-- 0009_apple_transfer: the JP app's Sign in with Apple identity, and why an account transfer failed.

-- POST /auth/sign-in/jp/apple/migrate (issue 3): the app's Apple identity ('apple_app', the token issued to the
-- app's client id) is kept apart from the web one ('apple', the Services ID), so an app account can be found and
-- the web key linked to it. SQLite cannot change a CHECK in place: the table is rebuilt (nothing references it).
CREATE TABLE identities_new (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id          INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider         TEXT NOT NULL CHECK (provider IN ('google', 'facebook', 'twitter', 'apple', 'apple_guest', 'apple_app')),
  provider_user_id TEXT NOT NULL,
  email            TEXT,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (provider, provider_user_id)
);
INSERT INTO identities_new (id, user_id, provider, provider_user_id, email, created_at)
  SELECT id, user_id, provider, provider_user_id, email, created_at FROM identities;
DROP TABLE identities;
ALTER TABLE identities_new RENAME TO identities;
CREATE INDEX identities_user ON identities (user_id);

-- Account transfer (spec §4 status ERROR): the first 4 characters of the code locate the transfer (unique among
-- live codes), so wrong codes count against it: 5 wrong ones, or an expired code, end it in ERROR with a reason.
ALTER TABLE account_transfers ADD COLUMN code_locator TEXT;
ALTER TABLE account_transfers ADD COLUMN code_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE account_transfers ADD COLUMN error_reason TEXT CHECK (error_reason IS NULL OR error_reason IN ('ATTEMPTS', 'EXPIRED'));
CREATE UNIQUE INDEX account_transfers_locator ON account_transfers (code_locator) WHERE code_locator IS NOT NULL;
