-- 0002_account: account life cycle (issue 3 items 5, 6, 8): SMS code purposes, carrier identity checks.

-- What an SMS code proves possession of the phone for: FIND_ID, FIND_PASSWORD, PHONE (registration).
-- Reset links carry 'MAIL' (e-mail link) or 'SMS' (issued after a correct find-password SMS code).
ALTER TABLE one_time_codes ADD COLUMN purpose TEXT;
CREATE INDEX one_time_codes_purpose ON one_time_codes (kind, purpose, target, created_at);

-- Korean mobile-carrier identity checks (/nice/encode → carrier → /callback/auth-mobilians), single use.
CREATE TABLE carrier_requests (
  id           TEXT PRIMARY KEY,                          -- random request id sent to the carrier and signed back
  user_id      INTEGER REFERENCES users (id) ON DELETE CASCADE,
  purpose      TEXT NOT NULL CHECK (purpose IN ('ADULT_KR', 'PHONE')),
  return_path  TEXT NOT NULL DEFAULT '/my',
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at   TEXT NOT NULL,
  used_at      TEXT,
  name         TEXT,
  phone        TEXT,
  birth_date   TEXT CHECK (birth_date IS NULL OR birth_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  carrier      TEXT
);
CREATE INDEX carrier_requests_user ON carrier_requests (user_id, created_at);

-- Account transfer (spec §4): the one-time transfer code the new device redeems, stored hashed, with its expiry.
ALTER TABLE account_transfers ADD COLUMN code_hash TEXT;
ALTER TABLE account_transfers ADD COLUMN code_expires_at TEXT;
CREATE UNIQUE INDEX account_transfers_code ON account_transfers (code_hash) WHERE code_hash IS NOT NULL;
